/**
 * What the site's pages and its service worker (service-worker.ts) say to each other
 * (docs/decisions/057-heard-offline.md).
 */

/** The Background Sync tag a page registers when it keeps a recording, answered by the worker. */
export const backgroundSyncTag = "heard-offline";

/**
 * The BroadcastChannel on which a sender (a tab, the worker) says it has answered recordings, so
 * that the page in view takes the answers into its list and announces them.
 */
export const answeredChannel = "tunewave-heard-offline";
export const answeredMessage = { type: "heard-offline:answered" } as const;
