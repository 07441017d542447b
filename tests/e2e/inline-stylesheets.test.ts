import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A document's stylesheets are inlined by the server and rendered empty by the browser
 * (app/shell/stylesheets.tsx): hydration and client navigations must keep the server's text, or the
 * page would lose its styles; a page the first document did not inline gets its stylesheet linked.
 */
test("the inlined styles survive hydration, client navigations and going back", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  const styled = async () => ({
    inlined: await page.evaluate(() =>
      [...document.querySelectorAll<HTMLStyleElement>("style[data-href]")].map((style) => ({
        name: /\/([a-z-]+)-[A-Z0-9]+\.css$/.exec(style.dataset.href ?? "")?.[1],
        kept: (style.textContent ?? "").length > 500,
      })),
    ),
    // site.css sets the page's background from its tokens; unstyled, the body would be transparent.
    background: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
    linked: await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map(
        (link) => /\/([a-z-]+)-[A-Z0-9]+\.css$/.exec(link.href)?.[1],
      ),
    ),
  });
  await page.goto(`${baseURL}/charts`, { waitUntil: "networkidle" });
  const first = await styled();
  expect(first.inlined).toEqual([
    { name: "site", kept: true },
    { name: "search", kept: true },
    { name: "charts", kept: true },
  ]);
  expect(first.background).not.toBe("rgba(0, 0, 0, 0)");
  expect(first.linked).toEqual([]);

  await page.locator('a[href^="/track/"]').first().click();
  await page.waitForURL(/\/track\//);
  // The address changes before React commits the new page: its stylesheet link comes with it.
  await page.locator('link[rel=stylesheet][href*="/track-"]').waitFor({ state: "attached" });
  const track = await styled();
  expect(track.inlined).toEqual(first.inlined);
  expect(track.linked).toContain("track");
  await page.goBack();
  await page.waitForURL(/\/charts/);
  // The chart page has rendered again once the track page's links are gone.
  await page.locator('link[rel=stylesheet][href*="/track-"]').waitFor({ state: "detached" });
  expect(await styled()).toEqual(first);
  expect(errors).toEqual([]);
});
