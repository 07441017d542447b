import { lookupTrack, requestMatch } from "#app/recognition/browser/match-service.ts";
import { addRecentIdentification } from "#app/recognition/browser/recent-identifications.ts";
import type { OfflineRecording } from "#app/recognition/browser/session.ts";
import type { InfoMessage } from "#app/shell/browser/info-bar.ts";
import type { SiteStorage } from "#app/shell/browser/storage.ts";
import { deliverKept } from "./deliver";
import {
  announcementOf,
  type HeardAnswer,
  heardOfflineHint,
  notificationOf,
  type OfflineTexts,
} from "./kept-recordings";
import { openKeptStore } from "./kept-store";
import { backgroundSyncTag } from "./service-worker-protocol";

/**
 * The page's part of "heard offline, identified later" (docs/decisions/057-heard-offline.md),
 * loaded only when a recording is kept or waits: keeping one, sending what waits when the page is
 * online, and taking the answers into the recent list, announced by a notification when the person
 * has allowed them, else by the info bar.
 */

export type HeardOfflinePage = {
  keep(recording: OfflineRecording & { texts: OfflineTexts }): Promise<boolean>;
  /** Sends what waits (online only), then takes the answers; one run at a time in this tab. */
  run(): Promise<void>;
};

type Deps = {
  storage: SiteStorage;
  showInfo(message: InfoMessage): void;
  /** The recent identifications changed under the page. */
  onRecent(): void;
  /** The page is in view: it takes the answers (a hidden tab's info bar would tell nobody). */
  visible(): boolean;
  /** Tells the other tabs that answers wait (the one in view takes them). */
  tellOthers(): void;
};

/** The service worker's registration, where one controls the site; never asks for one. */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  try {
    return (await navigator.serviceWorker?.getRegistration()) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Background Sync, where the browser has it: the service worker sends when the network is back. */
async function askForSync(): Promise<void> {
  const found = (await registration()) as
    | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
    | undefined;
  await found?.sync?.register(backgroundSyncTag).catch(() => undefined);
}

function notificationsAllowed(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

/** A notification, only where the person already allowed them (never a prompt); false if none shown. */
async function notify(answer: HeardAnswer): Promise<boolean> {
  if (!notificationsAllowed()) return false;
  const { title, options } = notificationOf(answer, announcementOf(answer));
  try {
    const found = await registration();
    if (found) await found.showNotification(title, options);
    else new Notification(title, options);
    return true;
  } catch {
    return false;
  }
}

function infoOf(answer: HeardAnswer): InfoMessage {
  if (answer.outcome === "unidentified") return { key: "heardOffline.unidentified" };
  if (answer.title === undefined) return { key: "heardOffline.identifiedUntitled" };
  return { key: "heardOffline.identified", values: { title: answer.title } };
}

export function createHeardOfflinePage(deps: Deps): HeardOfflinePage {
  const store = openKeptStore();
  let running: Promise<void> | undefined;
  let again = false;

  async function take() {
    if (!store) return;
    // Out of view, only a notification would reach the person: the answers wait for a page in view.
    if (!deps.visible() && !notificationsAllowed()) return;
    const answers = await store.takeAnswers(Date.now());
    for (const answer of answers) {
      if (answer.outcome === "matched") {
        addRecentIdentification(deps.storage, {
          sessionId: answer.id,
          trackId: answer.trackId,
          weburl: answer.weburl,
          title: answer.title,
          artist: answer.artist,
          matchedAt: answer.answeredAt,
        });
      }
      if (!answer.announced && !(await notify(answer))) deps.showInfo(infoOf(answer));
    }
    if (answers.length > 0) deps.onRecent();
    const left = await store.counts();
    if (left.kept === 0 && left.answers === 0) deps.storage.remove(heardOfflineHint);
  }

  async function runOnce() {
    if (!store) return;
    if (navigator.onLine) {
      const outcome = await deliverKept({
        store,
        match: (body) => requestMatch(body),
        lookupTrack: (recording, trackId) =>
          lookupTrack({ lang: recording.lang, country: recording.country, trackId }, { timeoutMs: 5000 }),
        now: Date.now,
        token: crypto.randomUUID(),
        announces: false,
      });
      if (outcome.answered.length > 0) deps.tellOthers();
    }
    await take();
  }

  return {
    async keep(recording) {
      if (!store) return false;
      try {
        await store.keep(recording, Date.now());
      } catch {
        return false;
      }
      deps.storage.set(heardOfflineHint, true);
      await askForSync();
      return true;
    },

    run() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await runOnce().catch(() => undefined);
        } while (again);
      })().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
