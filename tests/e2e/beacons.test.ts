import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage } from "./browser";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function metricsReceivedSince(since: number): Promise<number> {
  const response = await fetch(`${baseURL}/services/metrics/received?since=${since}`);
  const body = (await response.json()) as { metrics: number };
  return body.metrics;
}

async function visit(userAgent: string, path = "/"): Promise<number> {
  const since = Date.now();
  const { page, errors } = await openPage(browser, { userAgent });
  // The AMP runtime's CDN is out of reach offline; an empty stand-in keeps the console clean.
  await page.route("https://cdn.ampproject.org/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: "" }),
  );
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  await page.waitForTimeout(500);
  expect(errors).toEqual([]);
  await page.context().close();
  return metricsReceivedSince(since);
}

// Headless Chromium's own user agent says "HeadlessChrome", which isbot rightly calls a bot.
const personUserAgent =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

test("a person's page view sends statistics beacons the origin receives", async () => {
  expect(await visit(personUserAgent)).toBeGreaterThanOrEqual(1);
});

test("a bot's page view sends no beacon at all", async () => {
  expect(await visit("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(0);
});

test("an AMP page sends no beacon at all, even to a person", async () => {
  expect(await visit(personUserAgent, "/amp")).toBe(0);
});

test("each section sends its first-show impression once, when it comes into view", async () => {
  const { page, errors } = await openPage(browser, {
    userAgent: personUserAgent,
    viewport: { width: 390, height: 600 },
  });
  const impressions: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.searchParams.get("beaconType") === "impression")
      impressions.push(url.searchParams.get("beaconId") ?? "");
  });
  await page.goto(`${baseURL}/`);
  const sections = await page
    .locator("main section[aria-labelledby]")
    .evaluateAll((all) => all.map((section) => section.getAttribute("aria-labelledby")));
  expect(sections.length).toBeGreaterThanOrEqual(2);
  const last = `firstshow.${sections[sections.length - 1]}`;
  // The first section is in view at once; the last one only after scrolling down to it.
  await expect.poll(() => impressions).toContain(`firstshow.${sections[0]}`);
  expect(impressions).not.toContain(last);
  await page.locator("main section[aria-labelledby]").last().scrollIntoViewIfNeeded();
  await expect.poll(() => impressions).toContain(last);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("main section[aria-labelledby]").last().scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  expect(impressions.filter((id) => id === last)).toHaveLength(1);
  expect(errors).toEqual([]);
  await page.context().close();
});
