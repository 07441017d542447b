import { readFileSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import enCommon from "#locales/en/common.json";
import enRecognition from "#locales/en/recognition.json";
import { trackSchema } from "#rules/schemas/track.ts";
import { signInByEmail, uniqueAddress } from "./accounts";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { catalogueExcerpt, microphoneFlags, pressListen, previewTrack } from "./microphone";
import { screenshot } from "./screenshot";

// Heard offline, identified later, and the service worker (docs/decisions/057-heard-offline.md),
// in Chromium with its service worker allowed: offline (Playwright's setOffline, which takes the
// network from the pages and the worker alike) a recording is kept on the device and said so;
// back online it is identified once, whichever of the tabs and the worker comes first, and
// listed without a reload. After one visit, a navigation without a network gets the offline page,
// whose listen button still works. The microphone is a catalogue excerpt no other test
// identifies; a file is a preview no other test drops.

const baseURL = inject("baseURL");

const withServiceWorker: BrowserContextOptions = {
  viewport: viewports.desktop,
  userAgent: personUserAgent,
  serviceWorkers: "allow",
};

async function trackOf(key: string) {
  const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${key}`);
  return v.parse(trackSchema, await response.json());
}

/** Until the service worker controls the page and keeps the offline page (what one visit leaves). */
async function serviceWorkerReady(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 30_000,
  });
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          for (const name of await caches.keys()) {
            if (await (await caches.open(name)).match("/offline")) return true;
          }
          return false;
        }),
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** The recordings the page keeps in IndexedDB (app/offline/browser/kept-store.ts). */
function keptRecordings(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ id: string; lang: string; data: string; claim?: unknown }[]>((resolve, reject) => {
        const opening = indexedDB.open("tunewave-heard-offline");
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const database = opening.result;
          if (!database.objectStoreNames.contains("kept")) {
            database.close();
            resolve([]);
            return;
          }
          const all = database.transaction("kept").objectStore("kept").getAll();
          all.onsuccess = () => {
            database.close();
            resolve(all.result);
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

/**
 * Every match request of the context that reached the site (its pages' and its service worker's):
 * one the missing network failed was never sent.
 */
function watchMatches(page: Page) {
  const bodies: { sessionId: string; data: string; from: "page" | "worker" }[] = [];
  page.context().on("requestfinished", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/services/webrec/match")
      bodies.push({
        ...JSON.parse(request.postData() ?? "{}"),
        from: request.serviceWorker() ? "worker" : "page",
      });
  });
  return bodies;
}

/**
 * The page's errors but what the missing network fails: requests (statistics beacons among them),
 * and Remix's own report that it could not fetch the routes of the links on screen (lazy route
 * discovery, `/__manifest`).
 */
function unexpected(errors: string[]): string[] {
  return errors.filter(
    (error) =>
      !/Failed to load resource|ERR_INTERNET_DISCONNECTED|^Failed to fetch manifest patches/.test(error),
  );
}

const status = (page: Page) => page.locator("#recognition-status").textContent();
const recentList = (page: Page) => page.locator(".recognition__recent-list");

/** Drops a file on the page's file inputs, as a person dragging it from their desktop would. */
async function dropFile(page: Page, name: string, bytes: Buffer, type: string) {
  const inputs = page.getByRole("group", { name: "Other ways to identify" });
  await inputs.waitFor();
  await expect.poll(() => page.getByText("Choose a file").isEnabled(), { timeout: 10_000 }).toBe(true);
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type }));
      return transfer;
    },
    { base64: bytes.toString("base64"), name, type },
  );
  await inputs.dispatchEvent("dragover", { dataTransfer });
  await inputs.dispatchEvent("drop", { dataTransfer });
}

describe("heard offline, identified later", () => {
  let browser: Browser;
  let excerpt: Awaited<ReturnType<typeof catalogueExcerpt>>;

  beforeAll(async () => {
    excerpt = await catalogueExcerpt(0.6);
    browser = await launchBrowser(microphoneFlags(excerpt.wavFile));
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("offline, a recording is kept and said so; back online it is identified once and listed without a reload", async () => {
    const track = await trackOf(excerpt.key);
    const { page, errors } = await openPage(browser, withServiceWorker);
    const matches = watchMatches(page);
    await page.goto(`${baseURL}/identify`);
    await serviceWorkerReady(page);
    // A second tab of the site: a second sender once the network is back, with the worker a third.
    const other = await page.context().newPage();
    await other.goto(`${baseURL}/charts`);
    await other.waitForFunction(() => document.documentElement.dataset.ready !== undefined);

    await page.context().setOffline(true);
    await pressListen(page);
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(enRecognition.offline.kept);
    await screenshot(page, "heard-offline-kept-desktop");
    expect(matches).toEqual([]);
    const kept = await keptRecordings(page);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ lang: "en", data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
    // The listen button stays for another song.
    expect(await page.getByRole("button", { name: "Tap to listen" }).isEnabled()).toBe(true);

    await page.context().setOffline(false);
    await expect.poll(() => recentList(page).textContent(), { timeout: 30_000 }).toContain(track.title);
    // The promise is kept: the status line has nothing more to say.
    await expect.poll(() => status(page)).toBe("");
    const announced = enCommon.heardOffline.identified.replace("{{title}}", track.title);
    await expect
      .poll(async () => [
        await page.locator(".info-bar").textContent(),
        await other.locator(".info-bar").textContent(),
      ])
      .toContain(announced);
    await screenshot(page, "heard-offline-identified-desktop");
    await expect.poll(() => keptRecordings(page)).toEqual([]);
    // Once: one request, the recording's signature under its own id.
    expect(matches).toEqual([
      {
        data: kept[0]?.data,
        sessionId: kept[0]?.id,
        lang: "en",
        country: expect.any(String),
        from: expect.stringMatching(/^(page|worker)$/),
      },
    ]);
    const listed = await page.evaluate(() => JSON.parse(localStorage.getItem("webrec.recent") ?? "{}").data);
    expect(listed).toEqual([expect.objectContaining({ sessionId: kept[0]?.id, trackId: track.key })]);
    expect(unexpected(errors)).toEqual([]);
    await page.context().close();
  });

  test("with no page open, the service worker sends it on Background Sync and notifies where allowed; the next visit lists it", async () => {
    const track = await trackOf(excerpt.key);
    const { page, errors } = await openPage(browser, withServiceWorker);
    const context = page.context();
    // Granting some permissions refuses the others (CDP): Background Sync is named with the notifications.
    await context.grantPermissions(["notifications", "background-sync"], { origin: baseURL });
    const matches = watchMatches(page);
    await page.goto(`${baseURL}/identify`);
    await serviceWorkerReady(page);
    await context.setOffline(true);
    await pressListen(page);
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(enRecognition.offline.kept);
    expect(unexpected(errors)).toEqual([]);
    await page.close();

    await context.setOffline(false);
    await expect.poll(() => matches.map((match) => match.from), { timeout: 30_000 }).toEqual(["worker"]);
    const next = await context.newPage();
    await next.goto(`${baseURL}/identify`);
    await expect.poll(() => recentList(next).textContent(), { timeout: 30_000 }).toContain(track.title);
    const announced = enCommon.heardOffline.identified.replace("{{title}}", track.title);
    const notifications = await next.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => shown.body),
    );
    expect(notifications).toEqual([announced]);
    // Announced once: the page that lists it does not say it again.
    expect(await next.locator(".info-bar").textContent()).not.toContain(announced);
    await context.close();
  });
});

describe("the service worker", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("offline after one visit, a navigation gets the offline page, whose listen button still keeps a song", async () => {
    const preview = previewTrack(0.2);
    const track = await trackOf(preview.key);
    const { page, errors } = await openPage(browser, withServiceWorker);
    await page.goto(`${baseURL}/`);
    await serviceWorkerReady(page);

    await page.context().setOffline(true);
    const response = await page.goto(`${baseURL}/charts`);
    expect(new URL(page.url()).pathname).toBe("/offline");
    expect(response?.fromServiceWorker()).toBe(true);
    await expect.poll(() => page.locator("h1").textContent()).toBe(enRecognition.offline.title);
    await screenshot(page, "offline-page-desktop");
    await dropFile(page, `${preview.key}.ogg`, readFileSync(preview.file), "audio/ogg");
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(enRecognition.offline.kept);

    await page.context().setOffline(false);
    await expect.poll(() => recentList(page).textContent(), { timeout: 30_000 }).toContain(track.title);
    // The promise is kept: the status line has nothing more to say.
    await expect.poll(() => status(page)).toBe("");
    expect(unexpected(errors)).toEqual([]);
    await page.context().close();
  });

  test("signed in, a song heard offline is in the library once back online, as a live match would be", async () => {
    const preview = previewTrack(0.35);
    const track = await trackOf(preview.key);
    const { page, errors } = await openPage(browser, withServiceWorker);
    await signInByEmail(page, "/identify", uniqueAddress("heard-offline"));
    await serviceWorkerReady(page);
    await page.context().setOffline(true);
    await dropFile(page, `${preview.key}.ogg`, readFileSync(preview.file), "audio/ogg");
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(enRecognition.offline.kept);

    await page.context().setOffline(false);
    await expect.poll(() => keptRecordings(page), { timeout: 30_000 }).toEqual([]);
    await page.goto(`${baseURL}/myshazam`);
    const rows = page.locator(".library-row");
    await expect.poll(() => rows.filter({ hasText: track.title }).count()).toBe(1);
    expect(unexpected(errors)).toEqual([]);
    await page.context().close();
  });

  test("it keeps no page but the offline page and no services answer; its script is checked on every visit", async () => {
    const { page } = await openPage(browser, withServiceWorker);
    await page.goto(`${baseURL}/identify`);
    await serviceWorkerReady(page);
    await page.goto(`${baseURL}/charts`);
    await page.goto(`${baseURL}/search?term=love`);
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(kept.filter((path) => !path.startsWith("/build/"))).toEqual(["/offline"]);
    // What a recognition loads is there, the signature worker included.
    expect(kept.some((path) => path.startsWith("/build/_recognition/signature-worker-"))).toBe(true);
    expect(kept.some((path) => /\/page-recognition-[A-Z0-9]+\.js$/.test(path))).toBe(true);
    const script = await fetch(`${baseURL}/sw.js`);
    expect(script.headers.get("cache-control")).toBe("no-cache");
    expect(script.headers.get("content-security-policy")).toBe("default-src 'self'");
    await page.context().close();
  });

  test("inside the app's webview none is registered, and one registered before is removed", async () => {
    const { page } = await openPage(browser, withServiceWorker);
    await page.goto(`${baseURL}/identify`);
    await serviceWorkerReady(page);
    await page
      .context()
      .addCookies([
        { name: "appconfig", value: encodeURIComponent(JSON.stringify({ country: "DE" })), url: baseURL },
      ]);
    await page.reload();
    await page.getByText(enRecognition.inApp).waitFor();
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), {
        timeout: 10_000,
      })
      .toBe(0);
    await page.context().close();
  });
});
