import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import enCommon from "#locales/en/common.json";
import enTrack from "#locales/en/track.json";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";
import { recordAudioElements, type Track, trackPagePath, worldChartTopTrack } from "./site-data";

// Preview playback behind the importer (decision 025, spec 002 §4 "Scripts loaded on demand: …
// playaudio"): the player's code is requested only at the first press, yet that press plays at
// once (it starts the page's audio element itself, inside the gesture); the importer's slow and
// offline paths are held or failed by interception, on Playwright's fake clock.

const baseURL = inject("baseURL");
let browser: Browser;
let track: Track;

beforeAll(async () => {
  browser = await launchBrowser();
  track = await worldChartTopTrack(baseURL);
});

afterAll(async () => {
  await browser?.close();
});

const playerCode = /\/build\/_shared\/playback-[A-Z0-9]+\.js$/;

/** The track page, ready (runtime started), with every audio element it makes kept for the test. */
async function openTrack(options: { fakeClock?: boolean; intercept?: (route: Route) => unknown } = {}) {
  const opened = await openPage(browser, { viewport: viewports.phone, userAgent: personUserAgent });
  const { page } = opened;
  await recordAudioElements(page);
  if (options.fakeClock) await page.clock.install();
  const requested: string[] = [];
  page.on("request", (request) => {
    if (playerCode.test(request.url())) requested.push(request.url());
  });
  if (options.intercept) await page.route(playerCode, options.intercept);
  await page.goto(`${baseURL}${trackPagePath(track)}`, { waitUntil: "networkidle" });
  await page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  const button = page.locator("button.play-button--main");
  await button.waitFor();
  return { ...opened, requested, button };
}

type AudioSeen = { count: number; src: string; paused: boolean; time: number };

function audio(page: Page): Promise<AudioSeen> {
  return page.evaluate(() => {
    const made = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio;
    const first = made[0];
    return {
      count: made.length,
      src: first?.src ?? "",
      paused: first?.paused ?? true,
      time: first?.currentTime ?? 0,
    };
  });
}

/** Playing, with the position moving: two readings apart in media time. */
async function expectPlaying(page: Page, src: string) {
  await expect.poll(async () => (await audio(page)).time, { timeout: 10_000 }).toBeGreaterThan(0.2);
  const first = await audio(page);
  await expect.poll(async () => (await audio(page)).time, { timeout: 10_000 }).toBeGreaterThan(first.time);
  const seen = await audio(page);
  expect(seen).toMatchObject({ count: 1, src, paused: false });
}

const infoBar = (page: Page) => page.locator(".info-bar[role=status]");
const previewOf = (key: string) => `${baseURL}/media/previews/${key}.ogg`;

test("the player's code loads at the first press, once; the press plays; pause, resume and a second track work", async () => {
  const { page, errors, requested, button } = await openTrack();
  expect(requested).toEqual([]);
  expect(await audio(page)).toMatchObject({ count: 0 });

  await button.click();
  await expectPlaying(page, previewOf(track.key));
  expect(requested).toHaveLength(1);
  expect(await button.getAttribute("data-state")).toBe("playing");
  expect(await button.textContent()).toBe(enTrack.pausePreview);

  await button.click();
  expect(await button.getAttribute("data-state")).toBe("idle");
  await expect.poll(async () => (await audio(page)).paused).toBe(true);
  const pausedAt = (await audio(page)).time;
  await button.click();
  await expect.poll(async () => (await audio(page)).time).toBeGreaterThan(pausedAt);
  expect(await button.getAttribute("data-state")).toBe("playing");

  // A related track: the same (only) audio element changes source, so the first stops.
  const second = page.locator("button.play-button[data-state]:not(.play-button--main)").first();
  await second.click();
  await expect.poll(async () => (await audio(page)).src).not.toBe(previewOf(track.key));
  await expectPlaying(page, (await audio(page)).src);
  expect(await button.getAttribute("data-state")).toBe("idle");
  expect(await second.getAttribute("data-state")).toBe("playing");
  expect(await page.locator("button.play-button[data-state=playing]").count()).toBe(1);

  expect(requested).toHaveLength(1);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("a slow player: the press plays at once; 'Loading…' at 500 ms, 'taking longer' at 5 s; the player takes over", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const { page, errors, button } = await openTrack({
    fakeClock: true,
    intercept: async (route) => {
      await held;
      await route.continue();
    },
  });
  await page.clock.pauseAt(Date.now() + 60_000);
  await button.click();
  // The gesture's own play(): sound before the player's code has arrived.
  await expectPlaying(page, previewOf(track.key));
  expect(await button.getAttribute("data-state")).toBe("playing");
  await page.clock.runFor(499);
  expect(await infoBar(page).textContent()).toBe("");
  await page.clock.runFor(1);
  await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.importer.loading);
  await page.clock.runFor(4500);
  await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.importer.slow);
  await screenshot(page, "playback-importer-slow-phone");

  release();
  await expect.poll(() => infoBar(page).textContent()).toBe("");
  // The player has the element now: its bar's Next moves the same element on.
  await page.getByRole("button", { name: "Next song" }).click();
  await expect.poll(async () => (await audio(page)).src).not.toBe(previewOf(track.key));
  expect(await button.getAttribute("data-state")).toBe("idle");
  expect((await audio(page)).count).toBe(1);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("offline: 'Unable to load.', then the offline message; the sound stops and the press can be tried again", async () => {
  let fail = true;
  const { page, button, requested } = await openTrack({
    fakeClock: true,
    intercept: (route) => (fail ? route.abort("internetdisconnected") : route.continue()),
  });
  await page.context().setOffline(true);
  await page.clock.pauseAt(Date.now() + 60_000);
  await button.click();
  await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.importer.failed);
  await page.clock.runFor(2000);
  await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.error.offline);
  await screenshot(page, "playback-importer-offline-phone");
  expect(await button.getAttribute("data-state")).toBe("idle");
  // Named by the words it shows (label in name): the song's title is the page's heading beside it.
  expect(await button.getAttribute("aria-label")).toBeNull();
  expect(await button.textContent()).toBe(enTrack.playPreview);
  expect((await audio(page)).paused).toBe(true);

  // Back online, the next press loads the player and plays.
  fail = false;
  await page.context().setOffline(false);
  await page.clock.runFor(5000);
  await button.click();
  await expectPlaying(page, previewOf(track.key));
  expect(await button.getAttribute("data-state")).toBe("playing");
  expect(requested).toHaveLength(2);
  await page.context().close();
});
