import ogs from "open-graph-scraper";
import type { Browser, Page } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import enTrack from "#locales/en/track.json";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { syncedLyricsSchema } from "#rules/schemas/lyrics.ts";
import { relatedTracksSchema, trackSchema } from "#rules/schemas/track.ts";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";
import { recordAudioElements } from "./site-data";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function getJson<const S extends v.GenericSchema>(path: string, schema: S): Promise<v.InferOutput<S>> {
  const response = await fetch(`${baseURL}${path}`);
  expect(response.status, path).toBe(200);
  return v.parse(schema, await response.json());
}

/** A track of the world chart with lyrics, found through the site's own services. */
async function aTrackWithLyrics() {
  const chart = await getJson(
    "/services/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=200",
    playlistTracksDocumentSchema,
  );
  const song = chart.data.find((entry) => entry.attributes.hasLyrics);
  if (!song) throw new Error("no song of the world chart has lyrics");
  const track = await getJson(`/services/track/v1/en/GB/web/${song.attributes.shazamKey}`, trackSchema);
  const related = await getJson(
    `/services/track/v1/en/GB/web/${track.key}/related?limit=10`,
    relatedTracksSchema,
  );
  const synced = await getJson(
    `/services/lyrics/v1/gb/songs/${track.trackadamid}/synced`,
    syncedLyricsSchema,
  );
  return { track, related: related.tracks, synced, path: `/track/${track.key}/${track.alias}` };
}

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    return audio ? { src: audio.src, paused: audio.paused, time: audio.currentTime } : undefined;
  });
}

/**
 * Records the page's layout shifts not caused by input (Cumulative Layout Shift), from its start,
 * with the elements each one moved, so a failure says what moved.
 */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = { total: 0, moved: [] as string[] };
    (window as unknown as { shifts: typeof record }).shifts = record;
    const describe = (node: Node | null) => {
      if (!(node instanceof Element)) return node?.nodeName ?? "?";
      const classes = [...node.classList].map((name) => `.${name}`).join("");
      return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}${classes}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        record.total += entry.value;
        const nodes = (entry.sources ?? []).map((source) => describe(source.node)).join(", ");
        record.moved.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${nodes}`);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shifts' sum, and each shift with what it moved (for a failure's message). */
function layoutShifts(page: Page): Promise<{ total: number; moved: string }> {
  return page.evaluate(() => {
    const { total, moved } = (window as unknown as { shifts: { total: number; moved: string[] } }).shifts;
    return { total, moved: moved.join("; ") };
  });
}

test.each(Object.entries(viewports))(
  "the track page at %s size: laid out, hydrated, no console errors",
  async (name, viewport) => {
    const { track, path } = await aTrackWithLyrics();
    const { page, errors } = await openPage(browser, { viewport, userAgent: personUserAgent });
    await recordLayoutShifts(page);
    await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
    expect(await page.locator("h1").textContent()).toBe(track.title);
    // Hydrated: the play control is a button now, not the link to the file.
    await expect(page.locator("button.play-button--main").count()).resolves.toBe(1);
    const cover = page.locator("img.track-hero__cover");
    expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // The play and share buttons share a row, or stack aligned as the hero's text is (centred on a
    // phone, at the start from a tablet up): never offset from each other.
    const box = async (selector: string) =>
      (await page.locator(selector).boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    const play = await box("button.play-button--main");
    const share = await box(".track-hero__actions [aria-haspopup=menu]");
    if (Math.abs(play.y + play.height / 2 - (share.y + share.height / 2)) > 1) {
      expect(share.y).toBeGreaterThan(play.y + play.height);
      if (name === "phone")
        expect(Math.abs(play.x + play.width / 2 - (share.x + share.width / 2))).toBeLessThanOrEqual(1);
      else expect(Math.abs(play.x - share.x)).toBeLessThanOrEqual(1);
    }
    // Nothing wider than the screen, and no layout shift from images.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const shifts = await layoutShifts(page);
    expect(shifts.total, shifts.moved).toBeLessThan(0.05);
    await screenshot(page, `track-e2e-${name}`, { fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  },
);

test("on a slow network, what the page's script adds after the first paint moves nothing", async () => {
  // The script arrives seconds after the first paint (400 ms latency, 50 KB/s), as on a cheap phone
  // far from a mast: the streaming-connection section it renders once started took its place above
  // the listen button then (0.03 of layout shift at tablet width, every time). Where the
  // page's blocks are once the HTML is parsed, before any script ran (readyState "interactive"
  // comes before deferred and module scripts run), is where they are once the section is there.
  const { path } = await aTrackWithLyrics();
  const { page, errors } = await openPage(browser, {
    viewport: viewports.tablet,
    userAgent: personUserAgent,
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 400,
    downloadThroughput: 50_000,
    uploadThroughput: 50_000,
  });
  const blocks = [
    ".track-hero",
    ".track-hero__cover",
    ".play-button--main",
    ".track-columns__listen",
    ".connect, .connect-pending",
    ".recognition",
    ".site-footer",
  ];
  await page.addInitScript((selectors: string[]) => {
    const where = () =>
      selectors.map((selector) => {
        const box = document.querySelector(selector)?.getBoundingClientRect();
        return `${selector} ${box ? `at ${Math.round(box.top + window.scrollY)}, ${Math.round(box.height)} high` : "missing"}`;
      });
    const record = window as unknown as {
      where: typeof where;
      beforeScript?: string[];
      sectionThen?: boolean;
    };
    record.where = where;
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      record.beforeScript = where();
      record.sectionThen = document.querySelector(".connect") !== null;
    });
  }, blocks);
  await recordLayoutShifts(page);
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  await page.getByRole("button", { name: "Connect to Apple Music" }).waitFor();
  const { beforeScript, sectionThen, withSection } = await page.evaluate(() => {
    const record = window as unknown as {
      where: () => string[];
      beforeScript?: string[];
      sectionThen?: boolean;
    };
    return {
      beforeScript: record.beforeScript,
      sectionThen: record.sectionThen,
      withSection: record.where(),
    };
  });
  // The first look came before the section was rendered (its place was kept by then).
  expect(sectionThen).toBe(false);
  expect(beforeScript).toEqual(withSection);
  expect(withSection.filter((line) => line.endsWith("missing"))).toEqual([]);
  // What moves while the HTML itself arrives is the browser's partial paints, not the script's.
  const shifts = await layoutShifts(page);
  expect(shifts.total, shifts.moved).toBeLessThan(0.05);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("the play button plays the preview and pauses it; the playlist moves on at the end of a track", async () => {
  const { track, related, path } = await aTrackWithLyrics();
  const { page, errors } = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: personUserAgent,
  });
  await recordAudioElements(page);
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  const button = page.locator("button.play-button--main");
  // Named by the words it shows (label in name): the song's title is the page's heading beside it.
  expect(await button.getAttribute("aria-label")).toBeNull();
  expect(await button.textContent()).toBe(enTrack.playPreview);

  await button.click();
  await page.waitForFunction(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    return audio !== undefined && !audio.paused && audio.currentTime > 0.2;
  });
  expect(await button.getAttribute("data-state")).toBe("playing");
  expect(await button.textContent()).toBe(enTrack.pausePreview);
  expect((await audioState(page))?.src).toBe(`${baseURL}/media/previews/${track.key}.ogg`);
  await expect(page.locator(".now-playing__title").textContent()).resolves.toBe(track.title);

  await button.click();
  expect(await button.getAttribute("data-state")).toBe("idle");
  expect((await audioState(page))?.paused).toBe(true);

  // Resume, then hurry to the end: the first related track follows.
  await button.click();
  await page.waitForFunction(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    return audio !== undefined && !audio.paused && Number.isFinite(audio.duration);
  });
  await page.evaluate(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    // Fast to the end (the local asset server does not answer ranges, so previews cannot seek);
    // loading the next track resets the rate.
    if (audio) audio.playbackRate = 16;
  });
  const next = related.find((entry) => entry.previewurl);
  await page.waitForFunction(
    (title) => document.querySelector(".now-playing__title")?.textContent === title,
    next?.title,
  );
  await page.waitForFunction(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    return audio !== undefined && !audio.paused;
  });
  expect((await audioState(page))?.src).toBe(`${baseURL}/media/previews/${next?.key}.ogg`);
  expect(await button.getAttribute("data-state")).toBe("idle");
  expect(await page.locator("button.play-button[data-state=playing]").count()).toBe(1);

  // The player bar's previous goes back to the main track.
  await page.getByRole("button", { name: "Previous song" }).click();
  await page.waitForFunction(
    (title) => document.querySelector(".now-playing__title")?.textContent === title,
    track.title,
  );
  expect(errors).toEqual([]);
  await page.context().close();
});

test("after the last related track the playlist wraps to the main track", async () => {
  const { track, related, path } = await aTrackWithLyrics();
  const playable = related.filter((entry) => entry.previewurl);
  const last = playable[playable.length - 1];
  const { page, errors } = await openPage(browser, {
    viewport: viewports.tablet,
    userAgent: personUserAgent,
  });
  await recordAudioElements(page);
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  await page.locator(`button[aria-label="Play the preview of ${last?.title}"]`).click();
  await page.waitForFunction(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    return audio !== undefined && !audio.paused && Number.isFinite(audio.duration);
  });
  await page.evaluate(() => {
    const audio = (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio[0];
    // Fast to the end (the local asset server does not answer ranges, so previews cannot seek);
    // loading the next track resets the rate.
    if (audio) audio.playbackRate = 16;
  });
  await page.waitForFunction(
    (title) => document.querySelector(".now-playing__title")?.textContent === title,
    track.title,
  );
  expect(await page.locator("button.play-button--main").getAttribute("data-state")).toBe("playing");
  expect(errors).toEqual([]);
  await page.context().close();
});

test("synced lyrics follow the song from where it was heard, the highlight moving line by line", async () => {
  const { track, synced, path } = await aTrackWithLyrics();
  const [, second, third] = synced.syncedtext;
  if (!second || !third) throw new Error("the synced lyrics have fewer than three lines");
  const { page, errors } = await openPage(browser, {
    viewport: viewports.phone,
    userAgent: personUserAgent,
    reducedMotion: "reduce",
  });
  // Heard 1.5 s before the second line: the first line is current, then the second.
  const query = `startDate=${Date.now()}&offsetInMilliseconds=${second.offset - 1500}&trackLength=${track.durationMs}`;
  await page.goto(`${baseURL}${path}?${query}`, { waitUntil: "networkidle" });
  const current = page.locator(".synced-lyrics [aria-current=true]");
  await page.waitForFunction(
    (text) => document.querySelector(".synced-lyrics [aria-current=true]")?.textContent === text,
    second.text,
    { timeout: 5_000 },
  );
  expect(await page.locator(".synced-lyrics li.is-past").count()).toBe(1);
  expect(await current.count()).toBe(1);
  await screenshot(page.locator(".track-lyrics"), "track-e2e-synced");

  // Long after the song ended the plain lyrics are shown instead.
  await page.goto(
    `${baseURL}${path}?startDate=${Date.now() - 3_600_000}&offsetInMilliseconds=1000&trackLength=${track.durationMs}`,
    { waitUntil: "networkidle" },
  );
  expect(await page.locator(".synced-lyrics").count()).toBe(0);
  expect(await page.locator(".track-lyrics__text").count()).toBe(1);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("with JavaScript off the play control is a link to the preview file", async () => {
  const { track, path } = await aTrackWithLyrics();
  const { page } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
  await page.goto(`${baseURL}${path}`);
  const link = page.locator("a.play-button--main");
  expect(await link.getAttribute("href")).toBe(`/media/previews/${track.key}.ogg`);
  const preview = await fetch(`${baseURL}/media/previews/${track.key}.ogg`);
  expect(preview.status).toBe(200);
  expect(new Uint8Array(await preview.arrayBuffer()).slice(0, 4)).toEqual(new TextEncoder().encode("OggS"));
  await page.context().close();
});

test.each([
  ["on", true],
  ["off", false],
] as const)("with JavaScript %s a person meets one share control", async (_, javaScriptEnabled) => {
  const { path } = await aTrackWithLyrics();
  const { page } = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: personUserAgent,
    javaScriptEnabled,
  });
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  if (javaScriptEnabled) await page.locator("button.play-button--main").waitFor();
  // Visible controls and headings named "Share this song": the hero's menu button with the script,
  // the share links' section without it; never both, never none.
  const shares = page.getByText(enTrack.share, { exact: true });
  const visible = await shares.evaluateAll((nodes) => nodes.filter((node) => node.checkVisibility()).length);
  expect(visible).toBe(1);
  const menuButton = page.getByRole("button", { name: enTrack.share });
  const twitterLink = page.getByRole("link", { name: enTrack.shareTwitter });
  expect(await menuButton.isVisible()).toBe(javaScriptEnabled);
  expect(await twitterLink.isVisible()).toBe(!javaScriptEnabled);
  if (javaScriptEnabled) {
    // The menu still carries both ways to share.
    await menuButton.click();
    await page.getByRole("menuitem", { name: enTrack.shareTwitter }).waitFor();
    expect(await page.getByRole("menuitem", { name: enTrack.shareEmail }).isVisible()).toBe(true);
  }
  await page.context().close();
});

test("a social-card scraper reads the track's meta without running JavaScript", async () => {
  const { track, path } = await aTrackWithLyrics();
  const response = await fetch(`${baseURL}${path}`, { headers: { "user-agent": "Twitterbot/1.0" } });
  expect(response.status).toBe(200);
  const { error, result } = await ogs({ html: await response.text() });
  expect(error).toBe(false);
  expect(result.ogTitle).toContain(track.title);
  expect(result.ogType).toBe("music.song");
  expect(result.ogDescription).toContain(track.title);
  expect(result.ogUrl).toBe(`${baseURL}${path}`);
  expect(String(result.ogImage?.[0]?.width)).toBe("800");
  expect(String(result.ogImage?.[0]?.height)).toBe("800");
  expect(result.ogImage?.[0]?.url).toMatch(/\/800x800\.jpg$/);
  expect(result.twitterCard).toBe("summary_large_image");
  expect(result.alIosUrl).toBe(`tunewave:/${path}`);
  expect(result.jsonLD?.[0]).toMatchObject({ "@type": "MusicRecording", name: track.title });
  const image = await fetch(result.ogImage?.[0]?.url ?? "");
  expect(image.status).toBe(200);
});

test("its scripts load without a redirect, on a first visit and on a client navigation to it", async () => {
  // A route module is named after its route's parameters (`($lang).track.$key`): asked for by
  // any other spelling than the assets server's own, every load of it would be a 307 first.
  const { path } = await aTrackWithLyrics();
  const open = async () => {
    const opened = await openPage(browser, { viewport: viewports.phone, userAgent: personUserAgent });
    const notServed: string[] = [];
    opened.page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/build/") && response.status() !== 200)
        notServed.push(`${response.url()} ${response.status()}`);
    });
    return { ...opened, notServed };
  };
  const first = await open();
  await first.page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  await first.page.waitForSelector("html[data-ready]");
  // From the home page, in a browser that has not loaded the track page's modules yet.
  const navigated = await open();
  await navigated.page.goto(`${baseURL}/`, { waitUntil: "networkidle" });
  await navigated.page.waitForSelector("html[data-ready]");
  await navigated.page.locator('a[href^="/track/"]').first().click();
  await navigated.page.waitForURL((url) => url.pathname.startsWith("/track/"));
  await navigated.page.waitForSelector(".track-hero");
  const routeModules = await navigated.page.evaluate(
    () =>
      performance.getEntriesByType("resource").filter((entry) => entry.name.includes("/build/routes/"))
        .length,
  );
  expect(routeModules).toBeGreaterThan(1);
  expect([...first.notServed, ...navigated.notServed]).toEqual([]);
  expect([...first.errors, ...navigated.errors]).toEqual([]);
});
