import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Nothing wider than the viewport, every image with its size reserved and loaded. */
async function expectSoundLayout(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const unsized = await page.locator("main img:not([width]), main img:not([height])").count();
  expect(unsized).toBe(0);
}

async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
}

async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { marker?: boolean }).marker === true);
}

test.each(Object.entries(viewports))("the charts landing at %s", async (name, viewport) => {
  const { page, errors } = await openPage(browser, { viewport });
  await page.goto(`${baseURL}/charts?co=GB`, { waitUntil: "networkidle" });
  await expect(page.locator("h1").textContent()).resolves.toBe("Music charts");
  await expect(page.locator("#charts-country").textContent()).resolves.toBe("United Kingdom");
  expect(await page.locator(".chart-links a").count()).toBeGreaterThan(3);
  await expectSoundLayout(page);
  await screenshot(page, `charts-landing-${name}`, { fullPage: true });
  expect(errors).toEqual([]);
});

test.each(Object.entries(viewports))("a chart page at %s", async (name, viewport) => {
  const { page, errors } = await openPage(browser, { viewport });
  await page.goto(`${baseURL}/top-50/united-kingdom/london`, { waitUntil: "networkidle" });
  await expect(page.locator("h1").textContent()).resolves.toBe("Top 50 songs: London");
  expect(await page.locator(".chart-row").count()).toBe(50);
  await expect(page.locator(".chart-tabs__tab[aria-current=page]").textContent()).resolves.toBe(
    "Top 50 by city",
  );
  await expectSoundLayout(page);
  // WCAG 2.5.8: a row's title and artist links, one above the other, are each 24 px tall at least.
  const linkHeights = await page
    .locator(".chart-row .track-row__title, .chart-row .chart-row__artist")
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().height));
  expect(linkHeights.length).toBeGreaterThan(50);
  expect(Math.min(...linkHeights)).toBeGreaterThanOrEqual(24);
  await screenshot(page, `charts-page-${name}`);
  await screenshot(page, `charts-page-${name}-full`, { fullPage: true });
  expect(errors).toEqual([]);
});

test("the chart's artists at phone size", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  await page.goto(`${baseURL}/top-200/world/artists`, { waitUntil: "networkidle" });
  expect(await page.locator("#chart-artists ~ .tile-grid .tile, .tile-grid .tile").count()).toBeGreaterThan(
    1,
  );
  await expectSoundLayout(page);
  await screenshot(page, "charts-artists-phone");
  expect(errors).toEqual([]);
});

test("with JavaScript off, the landing's country picker and a chart's city picker are real forms", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
  await page.goto(`${baseURL}/charts?co=GB`);
  await page.getByLabel("Country or region", { exact: true }).selectOption("germany");
  await page.getByRole("button", { name: "Show its charts" }).click();
  await page.waitForURL(`${baseURL}/charts?country=germany`);
  await expect(page.locator("#charts-country").textContent()).resolves.toBe("Germany");

  await page.goto(`${baseURL}/top-50/united-kingdom/london`);
  const cities = await page
    .getByLabel("City")
    .locator("option")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  const other = cities.find((city) => city !== "london");
  expect(other).toBeDefined();
  await page.getByLabel("City").selectOption(other ?? "");
  await page.getByRole("button", { name: "Show chart" }).click();
  await page.waitForURL(`${baseURL}/top-50/united-kingdom/${other}`);
  expect(await page.locator(".chart-row").count()).toBe(50);

  // The chart-type tabs and the artists link are plain links.
  await page.getByRole("link", { name: "Discovery" }).click();
  await page.waitForURL(`${baseURL}/discovery/united-kingdom`);
  await expect(page.locator("h1").textContent()).resolves.toBe("Discovery: United Kingdom");
  expect(errors).toEqual([]);
});

test("the picker works with the keyboard alone, hydrated, without reloading the document", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}/top-200/united-kingdom`, { waitUntil: "networkidle" });
  await markDocument(page);
  const country = page.getByLabel("Country or region", { exact: true });
  // Tab through the page until the country select has the focus.
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press("Tab");
    if (await country.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(country.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
  // Typing a name chooses the option; the choice alone does not navigate (WCAG 3.2.2).
  await page.keyboard.type("Germany");
  await expect(country.inputValue()).resolves.toBe("germany");
  expect(page.url()).toBe(`${baseURL}/top-200/united-kingdom`);
  await page.keyboard.press("Tab");
  await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe("Show chart");
  const focusRing = await page.evaluate(
    () => getComputedStyle(document.activeElement as Element).outlineStyle,
  );
  expect(focusRing).toBe("solid");
  await page.keyboard.press("Enter");
  await page.waitForURL(`${baseURL}/top-200/germany`);
  await page.getByRole("heading", { level: 1, name: "Top 200 songs: Germany" }).waitFor();
  expect(await sameDocument(page)).toBe(true);
  expect(errors).toEqual([]);
});

test("tabs, rows and artist links navigate inside the app; downloads are files", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.tablet });
  await page.goto(`${baseURL}/top-200/united-kingdom`, { waitUntil: "networkidle" });
  await markDocument(page);
  await page.getByRole("link", { name: "Discovery" }).click();
  await page.waitForURL(`${baseURL}/discovery/united-kingdom`);
  await page.getByRole("heading", { level: 1, name: "Discovery: United Kingdom" }).waitFor();
  await expect(page.title()).resolves.toBe("Discovery: United Kingdom | Tunewave");
  // After a client navigation the page's own links still name the page, not its `.data` request.
  const share = await page.getByRole("link", { name: "Share on Twitter" }).getAttribute("href");
  expect(share).toContain(`url=${encodeURIComponent(`${baseURL}/discovery/united-kingdom`)}`);
  await expect(page.getAttribute('meta[property="og:url"]', "content")).resolves.toBe(
    `${baseURL}/discovery/united-kingdom`,
  );
  const artist = page.locator(".chart-row__artist").first();
  const artistName = await artist.textContent();
  await artist.click();
  await page.waitForURL(/\/artist\/[^/]+\/\d+$/);
  await page.getByRole("heading", { level: 1, name: artistName ?? "" }).waitFor();
  expect(await sameDocument(page)).toBe(true);

  await page.goBack();
  await page.waitForURL(`${baseURL}/discovery/united-kingdom`);
  const csv = page.getByRole("link", { name: "Download as CSV (spreadsheet)" });
  await expect(csv.getAttribute("download")).resolves.toBe("");
  const [download] = await Promise.all([page.waitForEvent("download"), csv.click()]);
  expect(download.suggestedFilename()).toBe("tunewave-discovery-united-kingdom.csv");
  expect(errors).toEqual([]);
});

test("with JavaScript off, every row of a chart is reached by its pages' links, 50 at a time", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
  await page.goto(`${baseURL}/top-200/world`);
  const pages = page.getByRole("navigation", { name: "Pages of this chart" }).getByRole("link");
  const count = await pages.count();
  expect(count).toBeGreaterThan(1);
  const ranks: string[] = [];
  for (let index = 0; index < count; index++) {
    await pages.nth(index).click();
    await page.waitForURL(`${baseURL}/top-200/world${index === 0 ? "" : `?page=${index + 1}`}`);
    await expect(pages.nth(index).getAttribute("aria-current")).resolves.toBe("page");
    const onPage = await page.locator(".chart-row .track-row__rank").allTextContents();
    expect(onPage.length).toBeLessThanOrEqual(50);
    ranks.push(...onPage);
  }
  expect(ranks).toEqual(Array.from({ length: ranks.length }, (_, i) => String(i + 1)));
  expect(errors).toEqual([]);
});
