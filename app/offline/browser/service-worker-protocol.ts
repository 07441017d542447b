import { isLanguageKey } from "#rules/languages.ts";

/**
 * What the site's pages and its service worker (service-worker.ts) say to each other
 * (docs/decisions/057-heard-offline.md).
 */

/** The worker's script, at the site's root so that its scope is the whole site without a header. */
export const serviceWorkerUrl = "/sw.js";

/** The Background Sync tag a page registers when it keeps a recording, answered by the worker. */
export const backgroundSyncTag = "heard-offline";

/**
 * The BroadcastChannel on which a sender (a tab, the worker) says it has answered recordings, so
 * that the page in view takes the answers into its list and announces them.
 */
export const answeredChannel = "tunewave-heard-offline";
export const answeredMessage = { type: "heard-offline:answered" } as const;

/** What a page posts to the worker: keep the offline page of this path (the page's language). */
export type OfflinePageMessage = { type: "offline-page"; path: string };

/** The offline page's path in a language: /offline (English), /fr/offline... */
export function isOfflinePagePath(path: string): boolean {
  const match = /^(?:\/([^/]+))?\/offline$/.exec(path);
  return match !== null && (match[1] === undefined || (isLanguageKey(match[1]) && match[1] !== "en"));
}

/**
 * An AMP page's path (spec 000 §2: /amp before or after the language prefix): the worker leaves
 * those to the network, offline or not; they are for AMP caches and their viewers.
 */
export function isAmpPath(path: string): boolean {
  return /^\/(?:[^/]+\/)?amp(?:\/|$)/.test(path);
}

export function isOfflinePageMessage(data: unknown): data is OfflinePageMessage {
  if (typeof data !== "object" || data === null) return false;
  const { type, path } = data as { type?: unknown; path?: unknown };
  return type === "offline-page" && typeof path === "string" && isOfflinePagePath(path);
}
