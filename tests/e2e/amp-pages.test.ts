import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { openAmp } from "./amp-page";
import { launchBrowser, viewports } from "./browser";
import { screenshot } from "./screenshot";

// The AMP pages as a person sees them, at the three breakpoints (the runtime's stand-in: amp-page.ts).

const baseURL = inject("baseURL");
let browser: Browser;
const paths = new Map<string, string>();

function openAmpPage(path: string, viewport: { width: number; height: number }) {
  return openAmp(browser, `${baseURL}${path}`, viewport);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const home = await (await fetch(`${baseURL}/`)).text();
  const track = /class="track-row__title"[^>]* href="(\/track\/[^"]+)"/.exec(home)?.[1];
  const chartLink = /href="((?:\/charts)?\/top-200\/[^"]+)"/.exec(home)?.[1];
  if (!track || !chartLink) throw new Error("the home page links no song or chart");
  const chart = new URL((await fetch(`${baseURL}${chartLink}`)).url).pathname;
  const artist = /href="(\/artist\/[^"]+)"/.exec(await (await fetch(`${baseURL}${track}`)).text())?.[1];
  if (!artist) throw new Error("the song page links no artist");
  paths.set("home", "/amp");
  paths.set("track", `/amp${track}`);
  paths.set("artist", `/amp/de${artist}`);
  paths.set("chart", `/amp/ja${chart}/artists`);
  paths.set("charts", "/amp/pt-br/charts");
});

afterAll(async () => {
  await browser?.close();
});

test.each(
  ["home", "track", "artist", "chart", "charts"].flatMap((name) =>
    (Object.keys(viewports) as (keyof typeof viewports)[]).map((size) => [name, size] as const),
  ),
)("the AMP %s page lays out at %s width with no overflow and no console errors", async (name, size) => {
  const path = paths.get(name) ?? "";
  const { page, errors } = await openAmpPage(path, viewports[size]);
  await expect(page.locator("h1").first().isVisible()).resolves.toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${path} at ${size}`).toBeLessThanOrEqual(0);
  // Every picture has its box before it loads (no layout shift): width and height declared.
  const undeclared = await page.locator("amp-img:not([width][height])").count();
  expect(undeclared).toBe(0);
  await screenshot(page, `amp-${name}-${size}`, { fullPage: size === "desktop" });
  expect(errors).toEqual([]);
  await page.context().close();
});

test("links of the AMP page lead to the interactive pages: search and play included", async () => {
  const { page } = await openAmpPage(paths.get("track") ?? "", viewports.phone);
  const hrefs = await page
    .locator("a[href]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(hrefs).toContain("/search");
  expect(hrefs.filter((href) => href.startsWith("/amp"))).toEqual([]);
  const play = page.locator("a.play-button--main");
  await expect(play.getAttribute("href")).resolves.toBe((paths.get("track") ?? "").replace(/^\/amp/, ""));
  await page.context().close();
});
