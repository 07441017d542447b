import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { axeViolations } from "./axe";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { type Track, trackPagePath, worldChartTopTrack } from "./site-data";

// Spec 002 §2/§4 "Video": the track page's art track plays in an overlay through the video site's
// embed page; its states, its progress beacons, Escape; on a phone the embed address with autoplay.

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

type Seen = { route: string; query: Record<string, string> };

async function openTrack(viewport: { width: number; height: number }) {
  const opened = await openPage(browser, { viewport, userAgent: personUserAgent });
  await opened.page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { statsSeen: unknown[] }).statsSeen = seen;
    window.addEventListener("stats", (event) => seen.push((event as CustomEvent).detail));
  });
  await opened.page.goto(`${baseURL}${trackPagePath(track)}#stats-window-listener=1`);
  await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  return opened;
}

async function progressBeacons(page: Page): Promise<string[]> {
  const seen = await page.evaluate(() => (window as unknown as { statsSeen: Seen[] }).statsSeen);
  // Sent together, they may be seen in any order: each once is what counts.
  return seen
    .map((beacon) => beacon.query.beaconId ?? "")
    .filter((id) => id.startsWith("video.progress."))
    .sort((a, b) => Number(a.split(".")[2]) - Number(b.split(".")[2]));
}

/** Until every one of `beaconIds` has been seen (the runtime sends each beacon on its own). */
async function waitForBeacons(page: Page, beaconIds: string[]): Promise<void> {
  await page.waitForFunction((ids) => {
    const seen = (window as unknown as { statsSeen: Seen[] }).statsSeen;
    return ids.every((id) => seen.some((b) => b.query.beaconId === id));
  }, beaconIds);
}

async function embedFrame(page: Page): Promise<Frame> {
  const frame = await (await page.locator("dialog.video-overlay iframe").elementHandle())?.contentFrame();
  if (!frame) throw new Error("no embed frame");
  return frame;
}

test("play opens the overlay, the embed plays with picture and sound, reports 25/50/75/100 % once, pauses, ends; Escape closes", async () => {
  const { page, errors } = await openTrack(viewports.desktop);
  const play = page.getByRole("button", { name: `Play the art track of ${track.title}` });
  await play.click();
  const dialog = page.getByRole("dialog", { name: `Art track of ${track.title}` });
  await dialog.waitFor();
  const frame = await embedFrame(page);
  // Playing: data enough to play, time moving, a 520x280 picture and decoded sound.
  await frame.waitForFunction(() => {
    const video = document.querySelector("video");
    return video !== null && video.readyState >= 3 && video.currentTime > 0.3;
  });
  const facts = await frame.evaluate(() => {
    const video = document.querySelector("video") as HTMLVideoElement & {
      webkitAudioDecodedByteCount: number;
    };
    return { width: video.videoWidth, height: video.videoHeight, audio: video.webkitAudioDecodedByteCount };
  });
  expect(facts.width).toBe(520);
  expect(facts.height).toBe(280);
  expect(facts.audio).toBeGreaterThan(0);
  await expect(dialog.getByRole("status").textContent()).resolves.toBe("Playing");

  // Paused, then a seek to 80 %: the points passed are reported, each once.
  await frame.evaluate(() => document.querySelector("video")?.pause());
  await page.waitForFunction(() => document.querySelector(".video-overlay__state")?.textContent === "Paused");
  await frame.evaluate(() => {
    const video = document.querySelector("video") as HTMLVideoElement;
    video.currentTime = video.duration * 0.8;
  });
  // Each point is its own beacon, sent on its own: all three are waited for, then counted.
  await waitForBeacons(page, ["video.progress.25", "video.progress.50", "video.progress.75"]);
  expect(await progressBeacons(page)).toEqual([
    "video.progress.25",
    "video.progress.50",
    "video.progress.75",
  ]);

  // Played to the end: 100 % and ended; the earlier points are not reported again.
  await frame.evaluate(() => {
    const video = document.querySelector("video") as HTMLVideoElement;
    video.currentTime = video.duration - 0.3;
    return video.play();
  });
  await page.waitForFunction(() => document.querySelector(".video-overlay__state")?.textContent === "Ended");
  await waitForBeacons(page, ["video.progress.100"]);
  expect(await progressBeacons(page)).toEqual([
    "video.progress.25",
    "video.progress.50",
    "video.progress.75",
    "video.progress.100",
  ]);
  const beacon = (await page.evaluate(() => (window as unknown as { statsSeen: Seen[] }).statsSeen)).find(
    (b) => b.query.beaconId === "video.progress.100",
  );
  expect(beacon?.query.trackid ?? beacon?.query.trackkey).toBe(track.key);

  expect(await axeViolations(page, "dialog.video-overlay")).toEqual([]);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await expect(play.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
  expect(errors).toEqual([]);
});

test("a video that cannot be fetched says so, links to the watch page and sends one error statistic", async () => {
  const { page, errors } = await openTrack(viewports.desktop);
  // The embed fetches the art track itself; a failed fetch is the failure a person meets offline.
  await page.route(`**/media/videos/${track.key}.webm`, (route) => route.abort("failed"));
  await page.getByRole("button", { name: `Play the art track of ${track.title}` }).click();
  const dialog = page.getByRole("dialog", { name: `Art track of ${track.title}` });
  await page.waitForFunction(
    () =>
      document
        .querySelector(".video-overlay__state")
        ?.textContent?.startsWith("The video stopped answering.") === true,
  );
  await expect(
    dialog
      .getByRole("link", { name: `Watch the art track of ${track.title} on the video site` })
      .getAttribute("href"),
  ).resolves.toContain(`/services/video/watch/${track.key}`);
  await page.waitForFunction(() =>
    (window as unknown as { statsSeen: Seen[] }).statsSeen.some((b) => b.query.beaconId === "video.error"),
  );
  const failures = (await page.evaluate(() => (window as unknown as { statsSeen: Seen[] }).statsSeen)).filter(
    (b) => b.query.beaconId === "video.error",
  );
  expect(failures).toHaveLength(1);
  expect(failures[0]?.query).toMatchObject({ beaconType: "error", errorcode: "dataerror" });
  expect(failures[0]?.query.trackid ?? failures[0]?.query.trackkey).toBe(track.key);
  // The aborted fetch is the test's own doing; nothing else may fail.
  expect(errors.filter((error) => !error.includes("ERR_FAILED"))).toEqual([]);
});

test("on a phone, play opens the video site's embed address with autoplay", async () => {
  const { page, errors } = await openTrack(viewports.phone);
  await page.getByRole("button", { name: `Play the art track of ${track.title}` }).click();
  await page.waitForURL(`${baseURL}/services/video/embed/${track.key}?autoplay=1`);
  await page.waitForFunction(() => {
    const video = document.querySelector("video");
    return video !== null && !video.paused && video.currentTime > 0.3;
  });
  expect(errors).toEqual([]);
});

test("the preview picture loads lazily and is shown at 520x280's ratio", async () => {
  const { page } = await openTrack(viewports.desktop);
  const image = page.locator("img.video-preview__image");
  await expect(image.getAttribute("loading")).resolves.toBe("lazy");
  await image.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => document.querySelector("img.video-preview__image")?.getAttribute("data-state") === "loaded",
  );
  const box = await image.boundingBox();
  expect(Math.round(((box?.width ?? 0) / (box?.height ?? 1)) * 100) / 100).toBeCloseTo(520 / 280, 1);
});
