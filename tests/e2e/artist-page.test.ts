import ogs from "open-graph-scraper";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

const baseURL = inject("baseURL");
let browser: Browser;
/** An artist path taken from the world chart, so the test follows the catalogue. */
let artistPath: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const chart = await (await fetch(`${baseURL}/top-200/world`)).text();
  const href = /class="chart-row__artist"[^>]* href="(\/artist\/[^"]+)"/.exec(chart)?.[1];
  if (!href) throw new Error("the world chart links to no artist");
  artistPath = href;
});

afterAll(async () => {
  await browser?.close();
});

async function expectSoundLayout(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await page.locator("main img:not([width]), main img:not([height])").count()).toBe(0);
  // Every image above the fold has loaded (no broken avatar or cover).
  const broken = await page
    .locator("main img")
    .evaluateAll(
      (images) =>
        images.filter(
          (image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth === 0,
        ).length,
    );
  expect(broken).toBe(0);
}

test.each(Object.entries(viewports))("the artist page at %s", async (name, viewport) => {
  const { page, errors } = await openPage(browser, { viewport });
  await page.goto(`${baseURL}${artistPath}`, { waitUntil: "networkidle" });
  const heading = await page.locator("h1").textContent();
  expect(heading?.length).toBeGreaterThan(0);
  await expect(page.locator(".artist-hero__avatar").getAttribute("alt")).resolves.toBe(`Photo of ${heading}`);
  expect(await page.locator("#artist-top-songs ~ .track-list .track-row").count()).toBeGreaterThan(0);
  await expect(page.locator("#artist-latest").isVisible()).resolves.toBe(true);
  await expect(page.locator("#artist-similar").isVisible()).resolves.toBe(true);
  // The hero's white text on the artist's colour, darkened to at least 4.5:1.
  const contrast = await page.locator(".artist-hero").evaluate((hero) => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const [r, g, b] = (getComputedStyle(hero).backgroundColor.match(/\d+/g) ?? []).map(Number);
    const luminance = 0.2126 * channel(r ?? 0) + 0.7152 * channel(g ?? 0) + 0.0722 * channel(b ?? 0);
    return 1.05 / (luminance + 0.05);
  });
  expect(contrast).toBeGreaterThanOrEqual(4.5);
  await expectSoundLayout(page);
  await screenshot(page, `artist-page-${name}`);
  await screenshot(page, `artist-page-${name}-full`, { fullPage: true });
  expect(errors).toEqual([]);
});

test("with JavaScript off the whole page is there, and links are real", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
  await page.goto(`${baseURL}${artistPath}`);
  expect(await page.locator("#artist-top-songs ~ .track-list .track-row").count()).toBeGreaterThan(0);
  const similar = page.locator("#artist-similar ~ ul .tile a").first();
  const similarName = await similar.locator(".tile__title").textContent();
  await similar.click();
  await page.waitForURL(/\/artist\/[^/]+\/\d+$/);
  await expect(page.locator("h1").textContent()).resolves.toBe(similarName);
  expect(errors).toEqual([]);
});

test("hydrates without errors; a song and a similar artist open inside the app", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}${artistPath}`, { waitUntil: "networkidle" });
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  const similar = page.locator("#artist-similar ~ ul .tile a").first();
  const similarName = (await similar.locator(".tile__title").textContent()) ?? "";
  await similar.click();
  await page.waitForURL(/\/artist\/[^/]+\/\d+$/);
  await page.getByRole("heading", { level: 1, name: similarName }).waitFor();
  await expect(page.title()).resolves.toContain(similarName);
  expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  const share = await page.getByRole("link", { name: "Share on Twitter" }).getAttribute("href");
  expect(share).toContain(encodeURIComponent(page.url()));
  expect(errors).toEqual([]);
});

test("a scraper reads the artist's card from the HTML alone", async () => {
  const html = await (
    await fetch(`${baseURL}${artistPath}`, { headers: { "user-agent": "facebookexternalhit/1.1" } })
  ).text();
  const { error, result } = await ogs({ html });
  expect(error).toBe(false);
  const name = /<h1 class="artist-hero__name">([^<]+)<\/h1>/.exec(html)?.[1];
  expect(result.ogType).toBe("music.musician");
  expect(result.ogUrl).toBe(`${baseURL}${artistPath}`);
  expect(result.ogTitle).toContain(name);
  expect(result.ogDescription?.length).toBeGreaterThan(20);
  expect(result.ogImage?.[0]).toMatchObject({ width: "800", height: "800" });
  expect(result.ogImage?.[0]?.url).toMatch(/^http:\/\/localhost:\d+\/media\/art\/.+\/800x800\.jpg$/);
  expect(result.twitterCard).toBe("summary_large_image");
  expect(result.alIosUrl).toBe(`tunewave:/${artistPath}`);
  expect(result.jsonLD?.[0]).toMatchObject({ "@type": "MusicGroup", url: `${baseURL}${artistPath}` });
  const image = await fetch(result.ogImage?.[0]?.url ?? "");
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toContain("image/jpeg");
});

test("a missing artist is the not-found page", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  const response = await page.goto(`${baseURL}/artist/-/1`);
  expect(response?.status()).toBe(404);
  await expect(page.locator(".error-page").isVisible()).resolves.toBe(true);
  // The 404 document itself is the only failed load.
  expect(errors.filter((message) => !message.includes("404"))).toEqual([]);
});
