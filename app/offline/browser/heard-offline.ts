import type { OfflineRecording } from "#app/recognition/browser/session.ts";
import type { InfoMessage } from "#app/shell/browser/info-bar.ts";
import type { SiteStorage, StorageKey } from "#app/shell/browser/storage.ts";
import type { HeardOfflinePage } from "./heard-offline-page";
import { heardOfflineHint, type OfflineTexts } from "./kept-recordings";
import { answeredChannel, answeredMessage } from "./service-worker-protocol";

/**
 * The runtime's part of "heard offline, identified later" (docs/decisions/057-heard-offline.md),
 * on every page: it loads the page's part (heard-offline-page.ts: IndexedDB and the sending) only
 * when a recording is kept, or when the hint says something waits and a chance comes to send it
 * or to list its answer: this visit, the browser's `online` event, the page coming into view, the
 * word of another tab or the service worker that it has answered.
 */

export type HeardOffline = {
  /** Keeps a recording heard offline; true once kept (false: no IndexedDB, or it failed). */
  keep(recording: OfflineRecording & { texts: OfflineTexts }): Promise<boolean>;
  /**
   * Loads the page's part while the network is there (the recognition's code calls it as it
   * loads), so that a page without a service worker can still keep a recording offline.
   */
  prepare(): void;
};

type Target = Pick<Window, "addEventListener" | "removeEventListener"> & {
  document: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
};

/** The device's recent identifications (app/recognition/browser/recent-identifications.ts), named here to watch them. */
const recentKey = "webrec.recent" satisfies StorageKey;

export function startHeardOffline(deps: {
  storage: SiteStorage;
  window: Target;
  showInfo(message: InfoMessage): void;
  onRecent(): void;
}): { heardOffline: HeardOffline; stop(): void } {
  const channel = typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(answeredChannel);
  let part: Promise<HeardOfflinePage> | undefined;
  const load = () => {
    part ??= import("./heard-offline-page").then(
      ({ createHeardOfflinePage }) =>
        createHeardOfflinePage({
          storage: deps.storage,
          showInfo: deps.showInfo,
          onRecent: deps.onRecent,
          visible: () => deps.window.document.visibilityState !== "hidden",
          tellOthers: () => channel?.postMessage(answeredMessage),
        }),
      (error: unknown) => {
        part = undefined;
        throw error;
      },
    );
    return part;
  };
  const waiting = () => {
    const hint = deps.storage.get(heardOfflineHint);
    return hint.ok && hint.value === true;
  };
  const run = () => {
    if (!waiting()) return;
    void load()
      .then((page) => page.run())
      .catch(() => undefined);
  };
  const onVisible = () => {
    if (deps.window.document.visibilityState === "visible") run();
  };
  const onAnswered = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === answeredMessage.type) run();
  };
  // Another tab that took an answer into the list: this page's list reads it again.
  const onStorage = (event: StorageEvent) => {
    if (event.key === recentKey) deps.onRecent();
  };

  run();
  deps.window.addEventListener("online", run);
  deps.window.addEventListener("storage", onStorage);
  deps.window.document.addEventListener("visibilitychange", onVisible);
  channel?.addEventListener("message", onAnswered);
  return {
    heardOffline: {
      keep: (recording) =>
        load().then(
          (page) => page.keep(recording),
          () => false,
        ),
      prepare: () => void load().catch(() => undefined),
    },
    stop() {
      deps.window.removeEventListener("online", run);
      deps.window.removeEventListener("storage", onStorage);
      deps.window.document.removeEventListener("visibilitychange", onVisible);
      channel?.close();
    },
  };
}
