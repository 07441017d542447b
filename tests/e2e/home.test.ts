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

test("the home page shows the visitor's chart from the catalogue and hydrates without errors", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}/home`, { waitUntil: "networkidle" });
  await expect(page.locator("h1").textContent()).resolves.toBe("Name that song");
  const rows = page.locator(
    "#home-chart ~ .track-list .track-row, section[aria-labelledby=home-chart] .track-row",
  );
  expect(await rows.count()).toBe(10);
  // Hydrated: a client-side navigation keeps the same document.
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  await page.locator("a.brand").click();
  await page.waitForURL(`${baseURL}/`);
  expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  expect(errors).toEqual([]);
});

test.each([
  ["de", "de-DE", "Welcher Song ist das?"],
  ["ja", "ja-JP", "その曲、なんだろう?"],
  ["pt-br", "pt-BR", "Que música é essa?"],
  ["zh-tw", "zh-TW", "這是什麼歌?"],
])("the home page renders fully in /%s", async (prefix, locale, heading) => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  await page.goto(`${baseURL}/${prefix}`, { waitUntil: "networkidle" });
  expect(await page.getAttribute("html", "lang")).toBe(locale);
  expect(await page.locator("h1").textContent()).toBe(heading);
  const hreflangs = await page
    .locator("link[rel=alternate][hreflang]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("hreflang")));
  expect(hreflangs).toHaveLength(23);
  expect(hreflangs).toContain("x-default");
  expect(await page.getAttribute("link[rel=canonical]", "href")).toBe(`${baseURL}/${prefix}`);
  expect(errors).toEqual([]);
});
