import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { noise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import { trackSchema } from "#rules/schemas/track.ts";
import { encodeWav16 } from "#signature/index.ts";
import {
  androidPhoneUserAgent,
  iPhoneUserAgent,
  launchBrowser,
  openPage,
  personUserAgent,
  viewports,
} from "./browser";
import { catalogueExcerpt, excerptSeconds, microphoneFlags, pressListen } from "./microphone";
import { screenshot } from "./screenshot";

// Web recognition in Chromium, with a WAV file as the microphone: an excerpt of a catalogue
// recording (with a little noise) lands on its track page, following the song from where it was
// heard; audio that is in no recording ends on the no-match screen.

const baseURL = inject("baseURL");
/** Chords gliding over pink noise: music-like audio that is in no recording of the catalogue. */
function unknownWav(): string {
  const rate = 44_100;
  const random = seededRandom(2024);
  const hiss = noise(excerptSeconds * rate, rate, "pink", random);
  const samples = new Float32Array(excerptSeconds * rate);
  for (let i = 0; i < samples.length; i++) {
    const t = i / rate;
    const semitones = [0, 5, 7, 3, 10, 2][Math.floor(t / 0.75) % 6] ?? 0;
    const root = 196 * 2 ** (semitones / 12);
    samples[i] =
      0.25 * Math.sin(2 * Math.PI * root * t) +
      0.15 * Math.sin(2 * Math.PI * root * 1.25 * t) +
      0.1 * Math.sin(2 * Math.PI * root * 1.5 * t) +
      0.05 * (hiss[i] ?? 0);
  }
  const wavFile = path.join(tmpdir(), "tunewave-recognition-unknown.wav");
  writeFileSync(wavFile, encodeWav16(samples, rate));
  return wavFile;
}

/** Every request the page makes to the match service and the statistics sink. */
function watchRequests(page: Page) {
  const matches: string[] = [];
  const beacons: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/services/webrec/match" && request.method() === "POST")
      matches.push(request.postData() ?? "");
    if (url.pathname.startsWith("/services/metrics/")) beacons.push(url);
  });
  const beaconIds = () => beacons.map((url) => url.searchParams.get("beaconId"));
  return {
    matches,
    /** Waits for the statistic (an image load can lag on a busy machine) and answers its URL. */
    async beacon(beaconId: string): Promise<URL | undefined> {
      await expect.poll(beaconIds, { timeout: 5_000 }).toContain(beaconId);
      return beacons.find((url) => url.searchParams.get("beaconId") === beaconId);
    },
  };
}

describe("an excerpt of a catalogue recording", () => {
  let browser: Browser;
  let excerpt: Awaited<ReturnType<typeof catalogueExcerpt>>;

  beforeAll(async () => {
    excerpt = await catalogueExcerpt();
    browser = await launchBrowser(microphoneFlags(excerpt.wavFile));
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("lands on its track page, with the position where it was heard", async () => {
    const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${excerpt.key}`);
    const track = v.parse(trackSchema, await response.json());
    const { page, errors } = await openPage(browser, {
      viewport: viewports.desktop,
      userAgent: personUserAgent,
    });
    const requests = watchRequests(page);
    await page.goto(`${baseURL}/identify`);
    const pressedAt = Date.now();
    await pressListen(page);
    await page.waitForURL((url) => url.pathname === `/track/${track.key}/${track.alias}`, {
      timeout: 30_000,
    });
    const url = new URL(page.url());
    const startDate = Number(url.searchParams.get("startDate"));
    const offset = Number(url.searchParams.get("offsetInMilliseconds"));
    expect(startDate).toBeGreaterThanOrEqual(pressedAt - 1000);
    expect(startDate).toBeLessThanOrEqual(Date.now());
    // The fake microphone plays the excerpt from its start (and loops): the recording began in it.
    expect(offset).toBeGreaterThanOrEqual(excerpt.fromMs - 500);
    expect(offset).toBeLessThanOrEqual(excerpt.fromMs + excerptSeconds * 1000);
    expect(Number(url.searchParams.get("trackLength"))).toBe(track.durationMs);
    expect(Math.abs(Number(url.searchParams.get("timeSkew")))).toBeLessThan(0.02);
    await expect.poll(() => page.locator("h1").first().textContent()).toContain(track.title);
    await screenshot(page, "recognition-matched-desktop");

    const stored = await page.evaluate(() => localStorage.getItem("webrec.fab_match"));
    expect(JSON.parse(stored ?? "{}").data).toMatchObject({ trackId: track.key, offset });
    expect(requests.matches.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(requests.matches[0] ?? "{}")).toMatchObject({
      lang: "en",
      country: expect.any(String),
    });
    const matchBeacon = await requests.beacon("webrec.match");
    expect(matchBeacon?.searchParams.get("trackid")).toBe(track.key);
    expect(errors).toEqual([]);
  });

  test.each([
    ["an Android phone", androidPhoneUserAgent],
    ["an iPhone", iPhoneUserAgent],
  ])("on %s, a tap on the listen button identifies it", async (_, userAgent) => {
    const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${excerpt.key}`);
    const track = v.parse(trackSchema, await response.json());
    // Chromium's device emulation: a phone's screen, touch and user agent.
    const { page, errors } = await openPage(browser, {
      viewport: viewports.phone,
      userAgent,
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(`${baseURL}/identify`);
    const button = page.getByRole("button", { name: "Tap to listen" });
    await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
    await button.tap();
    await page.waitForURL((url) => url.pathname === `/track/${track.key}/${track.alias}`, {
      timeout: 30_000,
    });
    await expect.poll(() => page.locator("h1").first().textContent()).toContain(track.title);
    expect(errors).toEqual([]);
  });

  test("on the page of the track it hears, the listen button shows the interstitial over the page", async () => {
    const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${excerpt.key}`);
    const track = v.parse(trackSchema, await response.json());
    const { page, errors } = await openPage(browser, {
      viewport: viewports.phone,
      userAgent: personUserAgent,
    });
    await page.goto(`${baseURL}/track/${track.key}/${track.alias}`);
    await page.getByRole("heading", { name: "Is this song playing?" }).waitFor();
    await pressListen(page);
    const interstitial = page.getByRole("dialog", { name: track.title });
    await interstitial.waitFor({ timeout: 30_000 });
    expect(await interstitial.textContent()).toContain("You're listening to");
    expect(new URL(page.url()).pathname).toBe(`/track/${track.key}/${track.alias}`);
    await screenshot(page, "recognition-interstitial-phone");
    await page.getByRole("button", { name: "Follow the lyrics" }).click();
    await page.waitForURL((url) => url.searchParams.has("offsetInMilliseconds"));
    await interstitial.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  });
});

describe("audio that is in no recording", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser(microphoneFlags(unknownWav()));
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("ends on the no-match screen after the 12 s attempt, with the no-match statistic", async () => {
    const { page, errors } = await openPage(browser, {
      viewport: viewports.phone,
      userAgent: personUserAgent,
    });
    const requests = watchRequests(page);
    await page.goto(`${baseURL}/identify`);
    await pressListen(page);
    await expect
      .poll(() => page.locator("#recognition-status").textContent(), { timeout: 5000 })
      .toBe("Listening");
    await screenshot(page, "recognition-listening-phone", { fullPage: true });
    await expect
      .poll(() => page.locator("#recognition-status").textContent(), { timeout: 8000 })
      .toBe("Expanding search");
    const heading = page.getByRole("heading", { name: "No result" });
    await heading.waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("No result");
    expect(requests.matches).toHaveLength(4);
    await requests.beacon("webrec.nomatch");
    expect(new URL(page.url()).pathname).toBe("/identify");
    const charts = page.getByRole("link", { name: "Or find it in the charts of the most popular songs" });
    expect(await charts.getAttribute("href")).toBe("/charts");
    await screenshot(page, "recognition-nomatch-phone", { fullPage: true });
    // Try again goes back to the ways to listen (the microphone, a tab, a file), and listens from there.
    await page.getByRole("button", { name: "Try again" }).click();
    await pressListen(page);
    await expect
      .poll(() => page.locator("#recognition-status").textContent(), { timeout: 5000 })
      .toBe("Listening");
    await page.getByRole("button", { name: "Stop listening" }).click();
    await requests.beacon("webrec.cancel");
    expect(errors).toEqual([]);
  });
});

describe("failures", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser(microphoneFlags(unknownWav()));
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("a failing match service: “Couldn't find your song right now” with Refresh, and the service-error statistic", async () => {
    const { page, errors } = await openPage(browser, {
      viewport: viewports.tablet,
      userAgent: personUserAgent,
    });
    const requests = watchRequests(page);
    await page.route("**/services/webrec/match*", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: "serviceerror", message: "The match service is down" }),
      }),
    );
    await page.goto(`${baseURL}/identify`);
    await pressListen(page);
    await page
      .getByRole("heading", { name: "Couldn't find your song right now" })
      .waitFor({ timeout: 10_000 });
    expect(await page.getByRole("button", { name: "Refresh" }).count()).toBe(1);
    const beacon = await requests.beacon("webrec.error");
    expect(beacon?.searchParams.get("errorcode")).toBe("serviceerror");
    // The beacon rules of spec 000 §5 drop the colon and cut to 20 characters.
    expect(beacon?.searchParams.get("errordesc")).toBe("service-errorservice");
    await screenshot(page, "recognition-error-tablet", { fullPage: true });
    // The browser logs the failed request itself; nothing else may go wrong.
    expect(errors.filter((error) => !error.includes("503"))).toEqual([]);
  });

  test("a refused microphone: the microphone permission screen, and the recording error statistic", async () => {
    const refusing = await launchBrowser(["--use-fake-device-for-media-stream", "--deny-permission-prompts"]);
    try {
      const { page } = await openPage(refusing, { viewport: viewports.phone, userAgent: personUserAgent });
      const requests = watchRequests(page);
      // The runtime chunk held until the test lets it through: until it arrives the button says it
      // is not ready (a press then would fail at once and send no statistic), and once it has, a
      // press is recorded. Events, not a delay: the page's own request is the signal.
      let requested: () => void = () => {};
      const chunkRequested = new Promise<void>((resolve) => {
        requested = resolve;
      });
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/build/_shared/runtime-*.js", async (route) => {
        requested();
        await released;
        await route.continue();
      });
      // "commit": the held chunk may be one the document's scripts import, which the load waits for.
      await page.goto(`${baseURL}/identify`, { waitUntil: "commit" });
      await chunkRequested;
      expect(await page.getByRole("button", { name: "Tap to listen" }).isDisabled()).toBe(true);
      release();
      await pressListen(page);
      await page.getByRole("heading", { name: "Microphone permission needed" }).waitFor({ timeout: 10_000 });
      // The screen asks first (the prompt is pending) and says "blocking" once the browser refuses.
      await page
        .getByText("Your browser is blocking the microphone.", { exact: false })
        .waitFor({ timeout: 10_000 });
      const beacon = await requests.beacon("webrec.error");
      expect(beacon?.searchParams.get("errordesc")).toBe("microphonedenied");
      expect(requests.matches).toEqual([]);
      await screenshot(page, "recognition-permission-phone", { fullPage: true });
    } finally {
      await refusing.close();
    }
  });
});

describe("the page", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  test.each(Object.entries(viewports))(
    "at %s size: the listen button, hydrated, no console errors",
    async (name, viewport) => {
      const { page, errors } = await openPage(browser, { viewport, userAgent: personUserAgent });
      await page.goto(`${baseURL}/identify`);
      const button = page.getByRole("button", { name: "Tap to listen" });
      await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
      const box = await button.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(180);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      await expect.poll(() => page.title()).toBe("Identify a song | Tunewave");
      await button.focus();
      await screenshot(page, `recognition-${name}`, { fullPage: true });
      expect(errors).toEqual([]);
    },
  );

  test("in another language, with its own strings", async () => {
    const { page } = await openPage(browser, { viewport: viewports.desktop, userAgent: personUserAgent });
    await page.goto(`${baseURL}/de/identify`);
    expect(await page.locator("h1").textContent()).toBe("Song erkennen");
    expect(await page.getByRole("button", { name: "Tippen zum Zuhören" }).count()).toBe(1);
  });

  test("with JavaScript off it says why the button does nothing", async () => {
    const { page } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
    await page.goto(`${baseURL}/identify`);
    expect(await page.getByRole("button", { name: "Tap to listen" }).isDisabled()).toBe(true);
    // Chromium's script switch leaves the parser's scripting flag on: noscript stays raw text.
    expect(await page.locator("noscript").textContent()).toContain(
      "Turn on JavaScript to identify songs with your microphone.",
    );
  });
});
