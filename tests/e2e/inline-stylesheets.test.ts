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
 * The site's stylesheets are inlined by the server and rendered empty by the browser
 * (app/stylesheets.tsx): hydration and client navigations must keep the server's text, or the
 * page would lose its styles.
 */
test("the inlined site styles survive hydration, client navigations and going back", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  const styled = async () => ({
    texts: await page.evaluate(() =>
      [...document.querySelectorAll("style[data-href]")].map(
        (style) => (style.textContent ?? "").length > 1000,
      ),
    ),
    // site.css sets the page's background from its tokens; unstyled, the body would be transparent.
    background: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
    linked: await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((link) => link.href),
    ),
  });
  await page.goto(`${baseURL}/charts`, { waitUntil: "networkidle" });
  const first = await styled();
  expect(first.texts).toEqual([true, true]);
  expect(first.background).not.toBe("rgba(0, 0, 0, 0)");
  expect(first.linked.filter((href) => /\/(site|search)-/.test(href))).toEqual([]);

  await page.locator('a[href^="/track/"]').first().click();
  await page.waitForURL(/\/track\//);
  await page.waitForLoadState("networkidle");
  expect((await styled()).texts).toEqual([true, true]);
  await page.goBack();
  await page.waitForURL(/\/charts/);
  // The chart page has rendered again once its own stylesheet is linked.
  await page.locator('link[rel=stylesheet][href*="/charts-"]').waitFor({ state: "attached" });
  expect(await styled()).toEqual(first);
  expect(errors).toEqual([]);
});
