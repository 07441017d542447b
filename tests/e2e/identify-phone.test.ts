import { readFileSync } from "node:fs";
import type { Browser, BrowserContextOptions, Locator, Page } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { storeLinks } from "#rules/app-links.ts";
import { trackSchema } from "#rules/schemas/track.ts";
import {
  androidPhoneUserAgent,
  iPhoneUserAgent,
  launchBrowser,
  openPage,
  personUserAgent,
  viewports,
} from "./browser";
import { previewTrack } from "./microphone";
import { screenshot } from "./screenshot";

// The listen screen on a phone, in Chromium's device emulation (a 360 px screen, touch, a phone's
// user agent): what fits, what a tap starts, what stops listening by itself and says so, what a
// phone's browser offers and what it cannot. The microphone is Chromium's fake device (a beep:
// audio that is in no recording), allowed per test with grantPermissions, so that a test can also
// take the permission back.

const baseURL = inject("baseURL");
const port = new URL(baseURL).port;
/** A name for this machine that is not localhost: a page there is not a secure context. */
const insecureHost = "phone.test";
const phone = { width: 360, height: 740 };
const thumb = 44;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser([
    "--use-fake-device-for-media-stream",
    `--host-resolver-rules=MAP ${insecureHost} 127.0.0.1`,
  ]);
});

afterAll(async () => {
  await browser?.close();
});

function phoneOptions(userAgent = androidPhoneUserAgent): BrowserContextOptions {
  return { viewport: phone, userAgent, isMobile: true, hasTouch: true };
}

/** A phone on /identify, its microphone allowed, the listen button ready for a tap. */
async function openIdentify(options: BrowserContextOptions = phoneOptions(), url = `${baseURL}/identify`) {
  const opened = await openPage(browser, options);
  await opened.page.context().grantPermissions(["microphone"], { origin: baseURL });
  await opened.page.goto(url);
  await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  return opened;
}

function listenButton(page: Page): Locator {
  return page.getByRole("button", { name: "Tap to listen" });
}

async function tapListen(page: Page) {
  const button = listenButton(page);
  await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
  await button.tap();
}

/** What the recognition stage shows: its screen, status, panel heading, and the page's address. */
function shownScreen(page: Page) {
  return page.evaluate(() => ({
    screen: document.querySelector<HTMLElement>(".recognition__stage")?.dataset.screen,
    status: document.querySelector("#recognition-status")?.textContent,
    heading: [...document.querySelectorAll("h2[tabindex='-1']")].map((h) => h.textContent).join(" | "),
    path: window.location.pathname,
  }));
}

function status(page: Page): Promise<string | null> {
  return page.locator("#recognition-status").textContent();
}

/** Wholly on the first screen, and at least a thumb's size. */
async function expectThumbTarget(target: Locator) {
  const box = await target.boundingBox();
  if (!box) throw new Error("not on screen");
  expect(box.width).toBeGreaterThanOrEqual(thumb);
  expect(box.height).toBeGreaterThanOrEqual(thumb);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
  expect(box.y + box.height).toBeLessThanOrEqual(phone.height);
}

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
}

/** The statistics beacons' ids and parameters the page sends. */
function watchBeacons(page: Page) {
  const beacons: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/services/metrics/")) beacons.push(url);
  });
  return async (beaconId: string) => {
    await expect
      .poll(() => beacons.map((url) => url.searchParams.get("beaconId")), { timeout: 5_000 })
      .toContain(beaconId);
    return beacons.find((url) => url.searchParams.get("beaconId") === beaconId);
  };
}

/**
 * Records, before the page's scripts, each AudioContext made and each resume asked for (with the
 * event being dispatched at that moment) and every microphone stream the page opened.
 */
async function watchAudio(page: Page) {
  await page.addInitScript(() => {
    const calls: { call: string; during: string | undefined }[] = [];
    const tracks: MediaStreamTrack[] = [];
    const scope = window as unknown as { __audio: typeof calls; __tracks: typeof tracks };
    scope.__audio = calls;
    scope.__tracks = tracks;
    const during = () => (window.event as Event | undefined)?.type;
    const Original = window.AudioContext;
    window.AudioContext = class extends Original {
      constructor(options?: AudioContextOptions) {
        super(options);
        calls.push({ call: "new AudioContext", during: during() });
      }
    };
    const resume = AudioContext.prototype.resume;
    AudioContext.prototype.resume = function (this: AudioContext) {
      calls.push({ call: "resume", during: during() });
      return resume.call(this);
    };
    const getUserMedia = MediaDevices.prototype.getUserMedia;
    MediaDevices.prototype.getUserMedia = async function (this: MediaDevices, constraints) {
      calls.push({ call: "getUserMedia", during: during() });
      const stream = await getUserMedia.call(this, constraints);
      tracks.push(...stream.getTracks());
      return stream;
    };
  });
  return {
    calls: () =>
      page.evaluate(() => (window as unknown as { __audio: { call: string; during?: string }[] }).__audio),
    /** Whether every microphone track the page opened has ended (none open: true). */
    allEnded: () =>
      page.evaluate(() =>
        (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.every(
          (track) => track.readyState === "ended",
        ),
      ),
  };
}

/** The page as a phone's browser leaves it when it goes to the background (or the screen turns off). */
async function sendToBackground(page: Page, hidden: boolean) {
  // Headless Chromium keeps every page visible (another tab in front, a minimized window, the
  // lifecycle state "frozen": tried, none of them hides it), so the document says it is hidden.
  await page.evaluate((hide) => {
    if (hide) {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    } else {
      Reflect.deleteProperty(document, "visibilityState");
      Reflect.deleteProperty(document, "hidden");
    }
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

async function trackOf(key: string) {
  const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${key}`);
  return v.parse(trackSchema, await response.json());
}

describe("on a 360 px phone", () => {
  test("the listen button, listening, still listening and no match fit the screen, each control a thumb's size", async () => {
    const { page, errors } = await openIdentify();
    const button = listenButton(page);
    await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
    await expectThumbTarget(button);
    await expectThumbTarget(page.getByText("Choose a file"));
    await expectNoSidewaysScroll(page);
    // A tap starts at once: no double-tap zoom to wait for.
    expect(await button.evaluate((element) => getComputedStyle(element).touchAction)).toBe("manipulation");
    await screenshot(page, "phone-idle");

    const matchAnswers: string[] = [];
    page.on("requestfinished", async (request) => {
      if (!request.url().endsWith("/webrec/match")) return;
      matchAnswers.push(String((await request.response())?.status()));
    });
    page.on("requestfailed", (request) => {
      if (request.url().endsWith("/webrec/match"))
        matchAnswers.push(request.failure()?.errorText ?? "failed");
    });
    await button.tap();
    await expect.poll(() => status(page), { timeout: 5_000 }).toBe("Listening");
    await expectThumbTarget(page.getByRole("button", { name: "Stop listening" }));
    await expectNoSidewaysScroll(page);
    await screenshot(page, "phone-listening");
    await expect.poll(() => status(page), { timeout: 8_000 }).toBe("Searching for a match");
    await expectThumbTarget(page.getByRole("button", { name: "Stop listening" }));
    await screenshot(page, "phone-still-listening");

    // Polled through the heading's name, with the screen, its status and the address, so that a
    // failure says which screen came instead.
    await expect
      .poll(async () => ({ ...(await shownScreen(page)), matchAnswers }), { timeout: 30_000 })
      .toMatchObject({ heading: "No result" });
    await expectThumbTarget(page.getByRole("button", { name: "Try again" }));
    await expectNoSidewaysScroll(page);
    await screenshot(page, "phone-nomatch");
    expect(errors).toEqual([]);
  });

  test("a file chosen through the phone's picker is identified; its match fits the screen too", async () => {
    const preview = previewTrack(0.4);
    const track = await trackOf(preview.key);
    const { page, errors } = await openIdentify();
    // The matched screen lasts as long as the track lookup: held until it has been looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/services/track/v1/**", async (route) => {
      await held;
      await route.continue();
    });
    const choose = page.getByText("Choose a file");
    await expect.poll(() => choose.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await page.locator("input[type=file]").getAttribute("accept")).toContain("audio/*");
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), choose.tap()]);
    await chooser.setFiles({
      name: `${preview.key}.ogg`,
      mimeType: "audio/ogg",
      buffer: readFileSync(preview.file),
    });
    await expect.poll(() => status(page), { timeout: 20_000 }).toBe("Found it");
    await expectNoSidewaysScroll(page);
    const link = page.getByRole("link", { name: "Open the song page" });
    expect(await link.isVisible()).toBe(true);
    await screenshot(page, "phone-matched");
    release();
    await page.waitForURL((url) => url.pathname === `/track/${track.key}/${track.alias}`, {
      timeout: 30_000,
    });
    expect(errors).toEqual([]);
  });
});

describe("listening that stops by itself", () => {
  test("the page going to the background stops the microphone and says so; a tap listens again", async () => {
    const { page, errors } = await openPage(browser, phoneOptions());
    await page.context().grantPermissions(["microphone"], { origin: baseURL });
    const audio = await watchAudio(page);
    const beacon = watchBeacons(page);
    await page.goto(`${baseURL}/identify`);
    await tapListen(page);
    await expect.poll(() => status(page), { timeout: 5_000 }).toBe("Listening");
    expect(await audio.allEnded()).toBe(false);

    await sendToBackground(page, true);
    await page.getByRole("heading", { name: "Listening stopped" }).waitFor({ timeout: 5_000 });
    await expect.poll(audio.allEnded).toBe(true);
    expect(
      (await beacon("webrec.error"))?.searchParams.get("errordesc"),
      "counted as a recording stopped early",
    ).toBe("pagehidden");

    await sendToBackground(page, false);
    expect(
      await page
        .getByText("Tunewave stopped listening when the page went to the background.", { exact: false })
        .count(),
    ).toBe(1);
    await expectThumbTarget(listenButton(page));
    await expectNoSidewaysScroll(page);
    await screenshot(page, "phone-stopped-in-background");
    await tapListen(page);
    await expect.poll(() => status(page), { timeout: 5_000 }).toBe("Listening");
    expect(await audio.allEnded()).toBe(false);
    expect(errors).toEqual([]);
  });

  test("the microphone taken away while listening (its permission revoked) says so", async () => {
    const { page, errors } = await openIdentify();
    await tapListen(page);
    await expect.poll(() => status(page), { timeout: 5_000 }).toBe("Listening");
    // Chromium ends a live microphone track whose permission goes: a real "ended".
    await page.context().clearPermissions();
    await page
      .getByText("The microphone was turned off or another app took it", { exact: false })
      .waitFor({ timeout: 5_000 });
    expect(await listenButton(page).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe("a tap starts it", () => {
  test("the AudioContext is made and resumed inside the tap, before the microphone is asked for", async () => {
    const { page, errors } = await openPage(browser, phoneOptions(iPhoneUserAgent));
    await page.context().grantPermissions(["microphone"], { origin: baseURL });
    const audio = await watchAudio(page);
    await page.goto(`${baseURL}/identify`);
    await tapListen(page);
    await expect.poll(() => status(page), { timeout: 5_000 }).toBe("Listening");
    const calls = await audio.calls();
    expect(calls.slice(0, 2)).toEqual([
      { call: "new AudioContext", during: "click" },
      { call: "resume", during: "click" },
    ]);
    expect(calls.findIndex((call) => call.call === "getUserMedia")).toBeGreaterThan(1);
    expect(calls.filter((call) => call.call === "new AudioContext")).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});

describe("what a phone's browser offers", () => {
  test("touch alone: a file is chosen, not dropped; with a mouse it can be dropped", async () => {
    const touch = await openIdentify();
    await touch.page.getByText("Your file never leaves your device.").waitFor();
    expect(await touch.page.getByText("Or drop", { exact: false }).count()).toBe(0);
    const mouse = await openIdentify({ viewport: viewports.desktop, userAgent: personUserAgent });
    await mouse.page.getByText("Or drop an audio or video file here.", { exact: false }).waitFor();
  });

  test("the tab's sound only where the browser has getDisplayMedia", async () => {
    const without = await openPage(browser, phoneOptions());
    // As a phone's browser is: Chrome for Android and Safari on iOS have no getDisplayMedia.
    await without.page.addInitScript(() => {
      Reflect.deleteProperty(MediaDevices.prototype, "getDisplayMedia");
    });
    await without.page.goto(`${baseURL}/identify`);
    await without.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
    await without.page.getByText("Choose a file").waitFor();
    expect(await without.page.getByRole("button", { name: "Listen to a browser tab" }).count()).toBe(0);
    // The same phone with it (Chromium's emulation keeps the desktop's): offered, by feature alone.
    const withIt = await openIdentify();
    await withIt.page.getByRole("button", { name: "Listen to a browser tab" }).waitFor();
  });
});

describe("where this browser cannot record", () => {
  test.each([
    ["an Android phone", androidPhoneUserAgent, storeLinks.android],
    ["an iPhone", iPhoneUserAgent, storeLinks.ios],
  ])(
    "without getUserMedia, on %s: not supported, with the app's store; a file still works",
    async (_, userAgent, store) => {
      const { page, errors } = await openPage(browser, phoneOptions(userAgent));
      await page.addInitScript(() => {
        Reflect.deleteProperty(MediaDevices.prototype, "getUserMedia");
      });
      await page.goto(`${baseURL}/identify`);
      await page.getByText("This browser can't record audio.", { exact: false }).waitFor();
      expect(await page.getByRole("link", { name: "Get the Tunewave app" }).getAttribute("href")).toBe(store);
      expect(await listenButton(page).count()).toBe(0);
      await expect.poll(() => page.locator("input[type=file]").isEnabled(), { timeout: 10_000 }).toBe(true);
      await expectNoSidewaysScroll(page);
      await screenshot(page, "phone-unsupported");
      expect(errors).toEqual([]);
    },
  );

  test("a page that is not a secure context says it needs one, without a store link", async () => {
    const { page, errors } = await openPage(browser, phoneOptions());
    await page.goto(`http://${insecureHost}:${port}/identify`);
    await page.getByText("Listening needs a secure connection.", { exact: false }).waitFor();
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(await listenButton(page).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Get the Tunewave app" }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

test("inside the app's webview the app identifies: the page says so, with no button, file or store link", async () => {
  const { page, errors } = await openPage(browser, phoneOptions());
  await page
    .context()
    .addCookies([
      { name: "appconfig", value: encodeURIComponent(JSON.stringify({ country: "DE" })), url: baseURL },
    ]);
  await page.goto(`${baseURL}/identify`);
  await page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  const note = page.getByText("In the Tunewave app, use its own button to identify songs.");
  await note.waitFor();
  const box = await note.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= phone.width).toBe(true);
  expect(await listenButton(page).count()).toBe(0);
  expect(await page.getByText("Choose a file").count()).toBe(0);
  expect(await page.getByRole("link", { name: "Get the Tunewave app" }).count()).toBe(0);
  await expectNoSidewaysScroll(page);
  expect(errors).toEqual([]);
});
