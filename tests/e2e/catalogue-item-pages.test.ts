import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";

// The album and playlist pages as a person reaches them: from an artist page's tiles.

const baseURL = inject("baseURL");
let browser: Browser;
let albumPath: string;
let playlistPath: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const chart = await (await fetch(`${baseURL}/top-200/world`)).text();
  const artist = /class="chart-row__artist"[^>]* href="(\/artist\/[^"]+)"/.exec(chart)?.[1];
  if (!artist) throw new Error("the world chart links to no artist");
  const artistPage = await (await fetch(`${baseURL}${artist}`)).text();
  const album = /<li class="tile"><a[^>]* href="(\/album\/[^"]+)"/.exec(artistPage)?.[1];
  const playlist = /<li class="tile"><a[^>]* href="(\/playlist\/[^"]+)"/.exec(artistPage)?.[1];
  if (!album || !playlist) throw new Error("the artist page links to no album or playlist");
  albumPath = album;
  playlistPath = playlist;
});

afterAll(async () => {
  await browser?.close();
});

async function expectSoundLayout(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await page.locator("main img:not([width]), main img:not([height])").count()).toBe(0);
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

/** The hero's white text against its computed background. */
function heroContrast(page: Page): Promise<number> {
  return page.locator(".item-hero").evaluate((hero) => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const [r, g, b] = (getComputedStyle(hero).backgroundColor.match(/\d+/g) ?? []).map(Number);
    const luminance = 0.2126 * channel(r ?? 0) + 0.7152 * channel(g ?? 0) + 0.0722 * channel(b ?? 0);
    return 1.05 / (luminance + 0.05);
  });
}

test.each([
  ["album", "phone"],
  ["album", "desktop"],
  ["playlist", "phone"],
  ["playlist", "desktop"],
] as const)("the %s page at %s", async (kind, name) => {
  const { page, errors } = await openPage(browser, { viewport: viewports[name] });
  await page.goto(`${baseURL}${kind === "album" ? albumPath : playlistPath}`, { waitUntil: "networkidle" });
  expect((await page.locator("h1").textContent())?.length).toBeGreaterThan(0);
  expect(await page.locator(".item-tracks .track-row").count()).toBeGreaterThan(0);
  expect(await page.locator(".item-tracks button.play-button").count()).toBe(
    await page.locator(".item-tracks .track-row").count(),
  );
  expect(await heroContrast(page)).toBeGreaterThanOrEqual(4.5);
  await expectSoundLayout(page);
  await screenshot(page, `${kind}-page-${name}`);
  await screenshot(page, `${kind}-page-${name}-full`, { fullPage: true });
  expect(errors).toEqual([]);
});

test("a song's play button plays its preview, and its title opens its track page", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}${albumPath}`, { waitUntil: "networkidle" });
  const row = page.locator(".item-tracks .track-row").nth(1);
  const title = await row.locator(".track-row__title").textContent();
  const button = row.locator("button.play-button");
  await button.click();
  await page.waitForFunction(() => document.querySelector(".now-playing__title") !== null);
  expect(await button.getAttribute("data-state")).toBe("playing");
  await expect(page.locator(".now-playing__title").textContent()).resolves.toBe(title);
  await button.click();
  expect(await button.getAttribute("data-state")).toBe("idle");

  await row.locator(".track-row__title").click();
  await page.waitForURL(/\/track\/\d+\/[^/]+$/);
  // The address changes as the navigation starts; the track page's heading comes when it renders.
  await page.locator("h1", { hasText: title ?? "" }).waitFor();
  expect(errors).toEqual([]);
});

test("with JavaScript off the songs are there and the tiles lead to the playlist pages", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
  await page.goto(`${baseURL}${albumPath}`);
  expect(await page.locator(".item-tracks .track-row a.play-button[href$='.ogg']").count()).toBeGreaterThan(
    0,
  );
  const tile = page.locator("#item-featured-in ~ ul .tile a").first();
  const name = await tile.locator(".tile__title").textContent();
  await tile.click();
  await page.waitForURL(/\/playlist\/pl\.[^/]+$/);
  await expect(page.locator("h1").textContent()).resolves.toBe(name);
  expect(errors).toEqual([]);
});

test.each([
  ["album", "/album/999999999999/nothing", "This content is no longer available"],
  ["playlist", "/playlist/pl.no-such-list", "This content is no longer available"],
])(
  "a missing %s is content no longer available (404) and sends an error beacon",
  async (kind, path, message) => {
    const { page } = await openPage(browser, { viewport: viewports.phone, userAgent: personUserAgent });
    const beacons: URL[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/services/metrics/web.error/")) beacons.push(new URL(request.url()));
    });
    const response = await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(404);
    await expect(page.locator(".error-page p.muted").textContent()).resolves.toBe(message);
    await expect.poll(() => beacons.length).toBe(1);
    const beacon = beacons[0]?.searchParams;
    expect(beacon?.get("beaconType")).toBe("error");
    expect(beacon?.get("beaconId")).toBe(`${kind}.error`);
    expect(beacon?.get("errorcode")).toBe("contentunavailable");
    expect(beacon?.get("errordesc")).toBe(`musickit_${kind}_data`.slice(0, 20));
    await screenshot(page, `${kind}-page-404`);
  },
);
