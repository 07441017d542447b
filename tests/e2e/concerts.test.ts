import jsQR from "jsqr";
import ogs from "open-graph-scraper";
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

/** London, where the catalogue has a venue (Chromium's fake position). */
const london = { latitude: 51.5074, longitude: -0.1278 };

async function expectNoOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Follows a filter link and waits until the list it names is drawn (the link is then the current one). */
async function chip(page: Page, name: string) {
  const link = page.getByRole("link", { name, exact: true });
  const href = (await link.getAttribute("href")) ?? "";
  await link.click();
  await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
  await page.locator(".chip[aria-current=page]", { hasText: name }).waitFor();
}

test.each(Object.entries(viewports))("the concert list and each filter at %s", async (name, viewport) => {
  const { page, errors } = await openPage(browser, { viewport });
  await page.goto(`${baseURL}/concerts`, { waitUntil: "networkidle" });
  await expect(page.locator("h1").textContent()).resolves.toBe("Concerts");
  expect(await page.locator(".concert-card").count()).toBeGreaterThan(0);
  await expectNoOverflow(page);
  await screenshot(page, `concerts-list-${name}`, { fullPage: true });

  for (const [label, when] of [
    ["Today", "today"],
    ["Tomorrow", "tomorrow"],
    ["This weekend", "weekend"],
  ] as const) {
    await chip(page, label);
    expect(new URL(page.url()).searchParams.get("when"), label).toBe(when);
  }
  await chip(page, "Any date");
  expect(new URL(page.url()).searchParams.get("when")).toBeNull();

  // A custom range and an artist, through the form.
  const artist = await page.locator("select[name=artist] option").nth(1).getAttribute("value");
  await page.fill("input[name=from]", "2030-01-01");
  await page.fill("input[name=to]", "2030-12-31");
  await page.selectOption("select[name=artist]", artist ?? "");
  await Promise.all([
    page.waitForURL(/when=range/),
    page.getByRole("button", { name: "Show concerts" }).click(),
  ]);
  const url = new URL(page.url());
  expect(url.searchParams.get("from")).toBe("2030-01-01");
  expect(url.searchParams.get("artist")).toBe(artist);

  await chip(page, "All upcoming");
  // "Anywhere in {country}": the country the edge located the visitor in, said as English says it
  // (decision 060).
  const inCountry = (await page.locator(".chip-list").first().locator(".chip").nth(2).textContent()) ?? "";
  expect(inCountry).toMatch(/^Anywhere in /);
  await chip(page, inCountry);
  expect(new URL(page.url()).searchParams.get("in")).toBe("country");
  expect(errors).toEqual([]);
});

test("Near Me asks for the location only on a click, and lists the nearest concerts first", async () => {
  const { page, errors } = await openPage(browser, {
    viewport: viewports.phone,
    geolocation: london,
    permissions: ["geolocation"],
  });
  await page.goto(`${baseURL}/concerts`, { waitUntil: "networkidle" });
  expect(new URL(page.url()).searchParams.get("lat")).toBeNull();
  await Promise.all([page.waitForURL(/lat=/), page.getByRole("link", { name: "Use my location" }).click()]);
  const url = new URL(page.url());
  expect(url.searchParams.get("in")).toBe("near");
  expect(Number(url.searchParams.get("lat"))).toBeCloseTo(london.latitude, 3);
  await page.locator("#concerts-lt100miles").waitFor();
  await expect(page.locator("h2").first().textContent()).resolves.toBe("Within 100 miles");
  const stored = await page.evaluate(() => localStorage.getItem("maploc"));
  expect(stored).toContain("51.5074");
  await screenshot(page, "concerts-near-phone", { fullPage: true });
  expect(errors).toEqual([]);
});

test("Near Me refused shows the spec's message and stays on the list", async () => {
  // No permission granted: Chromium refuses the position.
  const { page } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}/concerts`, { waitUntil: "networkidle" });
  await page.getByRole("link", { name: "Use my location" }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  await expect(alert.textContent()).resolves.toBe("Near Me unavailable. Allow location access in Settings");
  expect(new URL(page.url()).searchParams.get("lat")).toBeNull();
  await screenshot(page, "concerts-refused-desktop");
});

test.each(Object.entries(viewports))(
  "an event page at %s, with a QR code that scans back to it",
  async (name, viewport) => {
    const { page, errors } = await openPage(browser, { viewport });
    await page.goto(`${baseURL}/concerts`, { waitUntil: "networkidle" });
    const href = await page.locator(".concert-card__name").first().getAttribute("href");
    await page.goto(`${baseURL}${href}`, { waitUntil: "networkidle" });
    expect(await page.locator("#event-title").count()).toBe(1);
    await expectNoOverflow(page);
    await screenshot(page, `event-${name}`, { fullPage: true });

    // Draw the QR code's SVG on a canvas and read it back with jsQR.
    const src = await page.locator(".event-qr__code").getAttribute("src");
    const pixels = await page.evaluate(async (svgUrl) => {
      const image = new Image();
      image.src = svgUrl;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = 330;
      canvas.height = 330;
      const context = canvas.getContext("2d");
      if (!context) throw new Error("no 2d context");
      context.drawImage(image, 0, 0, 330, 330);
      return Array.from(context.getImageData(0, 0, 330, 330).data);
    }, src ?? "");
    const code = jsQR(Uint8ClampedArray.from(pixels), 330, 330);
    expect(code?.data).toBe(`${baseURL}${href}`);
    expect(errors).toEqual([]);
  },
);

test("a scraper reads the concert's card from the HTML alone", async () => {
  const list = await (await fetch(`${baseURL}/concerts`)).text();
  const path = /href="(\/event\/\d+)"/.exec(list)?.[1] ?? "";
  const html = await (
    await fetch(`${baseURL}${path}`, { headers: { "user-agent": "facebookexternalhit/1.1" } })
  ).text();
  const { error, result } = await ogs({ html });
  expect(error).toBe(false);
  const name = /<h1 id="event-title">([^<]+)<\/h1>/.exec(html)?.[1] ?? "";
  expect(result.ogUrl).toBe(`${baseURL}${path}`);
  expect(result.ogTitle).toContain(name);
  expect(result.ogDescription?.length).toBeGreaterThan(20);
  expect(result.twitterCard).toBe("summary_large_image");
  expect(result.jsonLD?.[0]).toMatchObject({ "@type": "MusicEvent", url: `${baseURL}${path}` });
  const image = await fetch(result.ogImage?.[0]?.url ?? "");
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toMatch(/^image\//);
});
