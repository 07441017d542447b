import {
  createTagClient,
  createTagTracker,
  tagMatchOf,
  watchVisibility,
} from "#app/recognition/browser/tagging.ts";
import type { BeaconSender, BridgeBeacon } from "#app/shell/browser/beacons.ts";
import type { SiteStorage } from "#app/shell/browser/storage.ts";
import type { LoginState } from "#rules/account.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { type Bridge, installBridge } from "./bridge";
import { beaconOverBridge, registerAppCommands, type SharePopup } from "./bridge-commands";

/**
 * The runtime's part inside the app's webview: the bridge and its entry point, statistics over the
 * bridge (spec 000 §7), the app's commands (spec 000 §4) and tag tracking (spec 002 §4). The
 * runtime loads it beside itself only where the app's host object is (app-host.ts): the website
 * never downloads the bridge, its protocol schemas or the tag tracker (decision 027, part 5).
 */

/** Marks a track view: a track result from the app then navigates in-page (spec 000 §2). */
const trackViewSelector = "[data-track-view]";

/** The site's partner id for the app's signature requests (spec 002 §5 "Tagging init requires a partner id"). */
const tagPartnerId = "tunewave-web";

export type InAppRuntime = {
  bridge: Bridge;
  /** Statistics go over the bridge inside the app, never as image beacons. */
  sendBeacon: (beacon: BridgeBeacon) => void;
  /** The app's commands and tag tracking, once the runtime's beacons exist; returns their cleanups. */
  start(parts: AppParts): (() => void)[];
};

export type AppParts = {
  lang: LanguageKey;
  country: string;
  account: LoginState | null;
  beacons: BeaconSender;
  storage: SiteStorage;
  navigate: (path: string) => void;
  openPopup: (popup: SharePopup) => void;
  /** The browser's part of a sign-out: a saved tag answered that the session has ended. */
  signOut: () => void;
};

/** Creates the bridge, installs its entry point and sends the handshake (call from an effect). */
export function installInAppRuntime(win: Window): InAppRuntime {
  const bridge = installBridge(win);
  return {
    bridge,
    sendBeacon: beaconOverBridge(bridge),
    start: (parts) => startAppParts(bridge, parts),
  };
}

function startAppParts(bridge: Bridge, parts: AppParts): (() => void)[] {
  const tagTracker = startTagTracking(bridge, parts);
  return [
    registerAppCommands(bridge, {
      langKey: parts.lang,
      hasTrackView: () => document.querySelector(trackViewSelector) !== null,
      navigate: parts.navigate,
      setParentLocation: (path) => {
        (window.top ?? window).location.href = path;
      },
      openPopup: parts.openPopup,
      tagTracker,
      // Signed in to the account service: the app's tags go to the library; a 456 signs out. The
      // library client loads with the first tag (decision 027, part 4); a failed load is a failed save.
      onAppTag: parts.account
        ? (context) =>
            void import("#app/library/browser/library.ts")
              .then(
                ({ saveAppTag }) => saveAppTag((input, init) => fetch(input, init), context),
                () => ({ outcome: "failed" as const }),
              )
              .then((saved) => {
                if (saved.outcome === "signedout") parts.signOut();
                if (saved.outcome === "saved") parts.storage.set("shazamcount", saved.count);
              })
        : undefined,
    }),
    watchVisibility(document, tagTracker),
    () => tagTracker.dispose(),
    () => bridge.dispose(),
  ];
}

/**
 * Spec 002 §4 tag tracking inside the app: the app's signatures are matched by the site's own
 * matcher (POST /services/webrec/match, as web recognition is), one session id per tag.
 */
function startTagTracking(bridge: Bridge, parts: AppParts) {
  const client = createTagClient(bridge);
  client.init(tagPartnerId);
  let sessionId = crypto.randomUUID();
  const tracker = createTagTracker({
    requestSig: () => client.requestSig(),
    match: async (sample) => {
      // Only the app's tags are matched here: the match service loads with the first one (decision 027, part 4).
      const { requestMatch } = await import("#app/recognition/browser/match-service.ts");
      const answer = await requestMatch({
        data: sample.signature,
        sessionId,
        lang: parts.lang,
        country: parts.country,
      });
      return tagMatchOf(answer, sample);
    },
    onChange: (state) => {
      document.documentElement.dataset.tagTracking = state.status;
    },
    // Spec 002 §8: a stop on an error sends an error statistic.
    onError: (error, reason) =>
      void parts.beacons.send({
        beaconType: "error",
        beaconId: "tagging",
        errorcode: reason,
        errordesc: error.message,
      }),
  });
  return {
    ...tracker,
    start(context: Parameters<typeof tracker.start>[0]) {
      sessionId = crypto.randomUUID();
      tracker.start(context);
    },
  };
}
