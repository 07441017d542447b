// The site's service worker (docs/decisions/057-heard-offline.md). Bundled on its own by
// scripts/build-service-worker.mjs into public/sw.js, with the build's version and the list of
// assets the offline page needs.
import { lookupTrack, requestMatch } from "#app/recognition/browser/match-service.ts";
import { deliverKept } from "./deliver";
import { announcementOf, notificationOf } from "./kept-recordings";
import { openKeptStore } from "./kept-store";
import {
  answeredChannel,
  answeredMessage,
  backgroundSyncTag,
  isAmpPath,
  isOfflinePageMessage,
  isOfflinePagePath,
} from "./service-worker-protocol";

/**
 * What it does, and all it does:
 * - keeps the build's content-hashed assets the offline page and the recognition need (the list
 *   the build wrote), and answers them from that copy: the same URL is the same file for everyone;
 * - keeps one page, the offline page of the language a page asked for, fetched without cookies
 *   (so nobody's own page), and answers it to a navigation the network fails, after a redirect to
 *   its address so that the page hydrates as itself;
 * - never keeps anything else: no page (no signed-in visitor's HTML), no /services answer, no
 *   /amp page; everything else goes to the network as if it were not there;
 * - sends the recordings heard offline on Background Sync, and announces their answers with a
 *   notification only where the person already allowed them.
 * A new build is a new script (its version is in it): it takes over at once (skipWaiting,
 * clients.claim) and drops the older builds' caches.
 */

declare const __TUNEWAVE_SERVICE_WORKER__: { version: string; precache: string[] };

type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  /** The navigation's own request, started while the worker starts (navigation preload). */
  preloadResponse: Promise<Response | undefined>;
  respondWith(response: Promise<Response> | Response): void;
};
type SyncEvent = ExtendableEvent & { tag: string };
type MessageEventLike = ExtendableEvent & { data: unknown };
type NotificationEventLike = ExtendableEvent & {
  notification: { data: unknown; close(): void };
};
type WindowClient = { url: string; focus(): Promise<unknown>; navigate(url: string): Promise<unknown> };
type Scope = {
  location: Location;
  registration: ServiceWorkerRegistration & { navigationPreload?: { enable(): Promise<void> } };
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled?: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: string, listener: (event: never) => void): void;
};

const scope = self as unknown as Scope;
const { version, precache } = __TUNEWAVE_SERVICE_WORKER__;
const cachePrefix = "tunewave-";
const cacheName = `${cachePrefix}${version}`;

/** A precached asset from an older build's cache, else the network. */
async function fetchAsset(url: string): Promise<Response> {
  const kept = await caches.match(url);
  if (kept?.ok) return kept;
  const response = await fetch(url, { credentials: "omit" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response;
}

scope.addEventListener("install", (event: ExtendableEvent) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheName);
      await Promise.all(
        precache.map(async (url) => {
          if (!(await cache.match(url))) await cache.put(url, await fetchAsset(url));
        }),
      );
      await scope.skipWaiting();
    })(),
  );
});

scope.addEventListener("activate", (event: ExtendableEvent) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(cachePrefix) && name !== cacheName) await caches.delete(name);
      }
      // A page's request starts with the worker's start-up, not after it: no slower than without one.
      await scope.registration.navigationPreload?.enable().catch(() => undefined);
      await scope.clients.claim();
    })(),
  );
});

/** The offline page's copy for this path, or the one kept (the last language a page asked for). */
async function offlinePage(): Promise<{ path: string; response: Response } | undefined> {
  const cache = await caches.open(cacheName);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (!isOfflinePagePath(path)) continue;
    const response = await cache.match(request);
    if (response) return { path, response };
  }
  return undefined;
}

/** How long a kept offline page serves before a page's visit fetches it again (its country, its flags). */
const offlinePageLifetimeMs = 86_400_000;
/** When the worker kept the offline page, on its copy (epoch ms). */
const keptAtHeader = "x-tunewave-kept-at";

/**
 * Keeps the offline page of `path`, fetched without cookies: the anonymous page every visitor of
 * that language gets. One language at a time; the assets its HTML names are kept with it.
 */
async function keepOfflinePage(path: string): Promise<void> {
  const cache = await caches.open(cacheName);
  const kept = await offlinePage();
  const keptAt = Number(kept?.response.headers.get(keptAtHeader));
  if (kept?.path === path && Date.now() - keptAt < offlinePageLifetimeMs) return;
  const response = await fetch(path, { credentials: "omit", redirect: "error" });
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !type.startsWith("text/html")) return;
  const html = await response.clone().text();
  // What the page's HTML loads of the build (its route modules, the Remix manifest), if the list
  // missed any: the same build made both.
  const assets = new Set(html.match(/\/build\/[A-Za-z0-9_./()$-]+\.(?:js|css)/g) ?? []);
  await Promise.all(
    [...assets].map(async (url) => {
      if (!(await cache.match(url))) await cache.put(url, await fetchAsset(url)).catch(() => undefined);
    }),
  );
  const headers = new Headers(response.headers);
  headers.set(keptAtHeader, String(Date.now()));
  await cache.put(path, new Response(await response.blob(), { status: response.status, headers }));
  if (kept && kept.path !== path) await cache.delete(kept.path);
}

scope.addEventListener("message", (event: MessageEventLike) => {
  if (isOfflinePageMessage(event.data))
    event.waitUntil(keepOfflinePage(event.data.path).catch(() => undefined));
});

/** A navigation: the network's answer, else (no network) the offline page. */
async function navigate(event: FetchEvent): Promise<Response> {
  const { request } = event;
  try {
    return (await event.preloadResponse) ?? (await fetch(request));
  } catch (error) {
    const kept = await offlinePage();
    if (!kept) throw error;
    const path = new URL(request.url).pathname;
    // Elsewhere, the browser goes to the offline page's address: served as another address, the
    // page would hydrate as the wrong route.
    return path === kept.path ? kept.response : Response.redirect(kept.path, 302);
  }
}

scope.addEventListener("fetch", (event: FetchEvent) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin) return;
  if (isAmpPath(url.pathname) || url.pathname.startsWith("/services/")) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
    return;
  }
  if (url.pathname.startsWith("/build/")) {
    event.respondWith(
      caches.open(cacheName).then(async (cache) => (await cache.match(request)) ?? fetch(request)),
    );
  }
});

/** Sends what waits; a run left with recordings (no network yet) fails, so the browser tries again. */
async function deliver(): Promise<void> {
  const store = openKeptStore();
  if (!store) return;
  const announces = typeof Notification !== "undefined" && Notification.permission === "granted";
  const outcome = await deliverKept({
    store,
    match: (body) => requestMatch(body),
    lookupTrack: (recording, trackId) =>
      lookupTrack({ lang: recording.lang, country: recording.country, trackId }, { timeoutMs: 5000 }),
    now: Date.now,
    token: crypto.randomUUID(),
    announces,
  });
  // Written with `announced` set when this worker announces them, so that no page does again;
  // the answers stay in the store for a page to list.
  for (const answer of outcome.answered) {
    if (!answer.announced) continue;
    const { title, options } = notificationOf(answer, announcementOf(answer));
    await scope.registration.showNotification(title, options).catch(() => undefined);
  }
  if (outcome.answered.length > 0 && typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(answeredChannel);
    channel.postMessage(answeredMessage);
    channel.close();
  }
  if (outcome.waiting > 0 && outcome.offline) throw new Error("still offline");
}

scope.addEventListener("sync", (event: SyncEvent) => {
  if (event.tag === backgroundSyncTag) event.waitUntil(deliver());
});

scope.addEventListener("notificationclick", (event: NotificationEventLike) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const url = typeof data?.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil(
    (async () => {
      const [client] = await scope.clients.matchAll({ type: "window" });
      if (client) {
        await client.navigate(url).catch(() => undefined);
        await client.focus();
      } else {
        await scope.clients.openWindow(url);
      }
    })(),
  );
});
