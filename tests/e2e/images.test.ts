import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { eventIdOf, parseEventId } from "#origin/events.ts";
import { launchBrowser, openPage, viewports } from "./browser";

// Spec 002 §4 "Images: loading, then loaded, or error (error message shown)", §8 image load
// failure → website_imgsrcset_error; §2 the artist page preloads its artwork; WebP where supported.

const baseURL = inject("baseURL");
let browser: Browser;
let artistPath: string;
let eventPath = "";

beforeAll(async () => {
  browser = await launchBrowser();
  const chart = await (await fetch(`${baseURL}/top-200/world`)).text();
  const artist = /class="chart-row__artist"[^>]* href="(\/artist\/[^"]+)"/.exec(chart)?.[1];
  if (!artist) throw new Error("the world chart links to no artist");
  artistPath = artist;
  const concerts = await (await fetch(`${baseURL}/concerts`)).text();
  const upcoming = parseEventId(/href="\/event\/(\d+)"/.exec(concerts)?.[1] ?? "");
  if (!upcoming) throw new Error("the concerts page links to no event");
  // Photos belong to shows that are over: the same artist's shows of earlier weeks.
  for (let week = upcoming.week - 1; week > upcoming.week - 30 && !eventPath; week--) {
    for (let slot = 0; slot < 3 && !eventPath; slot++) {
      const path = `/event/${eventIdOf(week, slot, upcoming.artistId)}`;
      const html = await (await fetch(`${baseURL}${path}`)).text();
      if (html.includes('class="event-photos"')) eventPath = path;
    }
  }
  if (!eventPath) throw new Error("no past show with photos");
});

afterAll(async () => {
  await browser?.close();
});

test.each([
  { lang: "", message: "Unable to load photo" },
  { lang: "/de", message: "Foto kann nicht geladen werden" },
])("a missing artist photo shows '$message' in its box", async ({ lang, message }) => {
  const { page } = await openPage(browser, { viewport: viewports.phone });
  // The artwork answers 404, as a removed picture would.
  await page.route("**/media/art/**", (route) => route.fulfill({ status: 404, body: "" }));
  await page.goto(`${baseURL}${lang}${artistPath}`, { waitUntil: "networkidle" });
  const avatar = page.locator(".artist-hero .artist-hero__avatar");
  await avatar.and(page.locator("[data-state=error]")).waitFor();
  await expect(avatar.textContent()).resolves.toContain(message);
  const box = await avatar.boundingBox();
  // The message fills the picture's square, not a collapsed line.
  expect(box?.width).toBeGreaterThan(100);
  expect(Math.abs((box?.width ?? 0) - (box?.height ?? 0))).toBeLessThan(2);
  expect(await page.locator("img.artist-hero__avatar").count()).toBe(0);
  await page.context().close();
});

test("pictures that load are marked loaded, the ones below the fold wait, and the artwork is preloaded", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  await page.goto(`${baseURL}${artistPath}`, { waitUntil: "networkidle" });
  await page.locator("img.artist-hero__avatar[data-state=loaded]").waitFor();
  const preload = page.locator('head link[rel=preload][as=image][imagesrcset*="/media/art/"]');
  await expect(preload.count()).resolves.toBe(1);
  await expect(preload.getAttribute("imagesizes")).resolves.toBe(
    await page.locator("img.artist-hero__avatar").getAttribute("sizes"),
  );
  // Far below a phone's first screen: lazy, so not fetched yet.
  const lazy = page.locator("main img[loading=lazy]").last();
  await expect(lazy.getAttribute("data-state")).resolves.toBe("loading");
  await lazy.scrollIntoViewIfNeeded();
  await page.locator("main img[loading=lazy]").last().and(page.locator("[data-state=loaded]")).waitFor();
  expect(errors).toEqual([]);
  await page.context().close();
});

test("event photos come as WebP to a browser that takes it, with the JPEG as the fallback", async () => {
  const { page } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}${eventPath}`, { waitUntil: "networkidle" });
  const photo = page.locator(".event-photos picture").first();
  await expect(photo.locator("source[type='image/webp']").getAttribute("srcset")).resolves.toMatch(
    /\.webp 500w/,
  );
  await expect(photo.locator("img").getAttribute("srcset")).resolves.toMatch(/\.jpg 500w/);
  await photo.scrollIntoViewIfNeeded();
  await page.locator(".event-photos img[data-state=loaded]").first().waitFor();
  const chosen = await photo.locator("img").evaluate((img) => (img as HTMLImageElement).currentSrc);
  expect(chosen).toMatch(/\.webp$/);
  await page.context().close();
});
