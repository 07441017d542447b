import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

// The AMP pages as a person sees them, at the three breakpoints. The AMP runtime
// (cdn.ampproject.org) is out of reach offline; a stand-in does the one thing of it these pages
// need, drawing each amp-img at its declared size (fixed, or responsive to its box), and lifts the
// boilerplate's hiding. What is checked is the page's own markup and CSS.

const baseURL = inject("baseURL");
let browser: Browser;
const paths = new Map<string, string>();

// The runtime's script is async in the head: on a long page it can run before the parser reaches
// the body, so, like the real runtime, the stand-in waits for the document.
const runtimeStandIn = `
function standIn() {
document.querySelectorAll("amp-img").forEach(function (element) {
  var width = Number(element.getAttribute("width"));
  var height = Number(element.getAttribute("height"));
  var img = document.createElement("img");
  ["src", "srcset", "sizes", "alt"].forEach(function (name) {
    if (element.hasAttribute(name)) img.setAttribute(name, element.getAttribute(name));
  });
  img.style.cssText = "width:100%;height:100%;object-fit:cover;display:block";
  if (element.getAttribute("layout") === "fixed") {
    element.style.cssText = "display:inline-block;width:" + width + "px;height:" + height + "px";
  } else {
    element.style.cssText = "display:block;aspect-ratio:" + width + "/" + height;
  }
  element.appendChild(img);
});
document.body.style.animation = "none";
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", standIn);
else standIn();
`;

async function openAmp(
  path: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(browser, { viewport });
  await opened.page.route("https://cdn.ampproject.org/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: runtimeStandIn }),
  );
  const response = await opened.page.goto(`${baseURL}${path}`, { waitUntil: "load" });
  expect(response?.status(), path).toBe(200);
  // Pictures drawn by the stand-in load after the document; the screenshot waits for them a while.
  await opened.page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  return opened;
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
  const { page, errors } = await openAmp(path, viewports[size]);
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
  const { page } = await openAmp(paths.get("track") ?? "", viewports.phone);
  const hrefs = await page
    .locator("a[href]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(hrefs).toContain("/search");
  expect(hrefs.filter((href) => href.startsWith("/amp"))).toEqual([]);
  const play = page.locator("a.play-button--main");
  await expect(play.getAttribute("href")).resolves.toBe((paths.get("track") ?? "").replace(/^\/amp/, ""));
  await page.context().close();
});
