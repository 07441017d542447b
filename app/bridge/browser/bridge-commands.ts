import type { ShareData, TagContext } from "#app/bridge/bridge-schema.ts";
import type { BridgeBeacon } from "#app/shell/browser/beacons.ts";
import { trackPath } from "#rules/addresses.ts";
import { SiteError } from "#rules/errors.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import type { Bridge } from "./bridge";

/**
 * What the page does for the app's commands, and the requests it makes of the app (spec 000 §2
 * /track/{id} and /share, §7 beacons; spec 002 §1, §5, §7). The page's own side effects are
 * injected, so the rules run the same in unit tests, in Chromium and inside the apps.
 */

export type SharePopup = {
  /** Language-prefixed `/share` or `/share/{screenname}`. */
  path: string;
  fullscreen: true;
  data: ShareData;
};

export type AppCommandHost = {
  /** Interface language of the page: its prefix starts the paths the commands open. */
  langKey: LanguageKey;
  /** A track view is on the page: a track result then navigates in-page. */
  hasTrackView: () => boolean;
  /** In-page (client-side) navigation to a path. */
  navigate: (path: string) => void;
  /** Sets the parent window's location (the app's top frame) to a path. */
  setParentLocation: (path: string) => void;
  /** Opens a pop-up over the page. */
  openPopup: (popup: SharePopup) => void;
  /** Foreground retagging and view state go to the tag tracker; without one they answer `unsupported`. */
  tagTracker?: { start(context: TagContext): void; background(): void; foreground(): void };
  /** A tag the app made (foreground retagging), for a signed-in person's library. */
  onAppTag?: (context: TagContext) => void;
};

/** Spec 000 §2 "/share with optional /{screenname}". */
export function sharePath(langKey: LanguageKey, screenname: string | undefined): string {
  return localizedPath(
    langKey,
    screenname === undefined ? "/share" : `/share/${encodeURIComponent(screenname)}`,
  );
}

/** Registers the handlers of the app's commands; returns the unregister. */
export function registerAppCommands(bridge: Pick<Bridge, "handle">, host: AppCommandHost): () => void {
  const unregister = [
    // Spec 000 §2: "If a track frame exists the site navigates in-page; otherwise the parent window
    // location becomes the language-prefixed path."
    bridge.handle("trackResult", ({ trackId }) => {
      const path = localizedPath(host.langKey, trackPath(trackId));
      if (host.hasTrackView()) host.navigate(path);
      else host.setParentLocation(path);
    }),
    bridge.handle("shareSheet", ({ screenname, share }) => {
      host.openPopup({ path: sharePath(host.langKey, screenname), fullscreen: true, data: share });
    }),
  ];
  const tracker = host.tagTracker;
  if (tracker || host.onAppTag) {
    unregister.push(
      bridge.handle("foregroundRetag", (context) => {
        host.onAppTag?.(context);
        tracker?.start(context);
      }),
    );
  }
  if (tracker) {
    unregister.push(
      bridge.handle("viewState", ({ state }) =>
        state === "background" ? tracker.background() : tracker.foreground(),
      ),
    );
  }
  return () => {
    for (const remove of unregister) remove();
  };
}

// --- Requests to the app -----------------------------------------------------------------------

/** Spec 002 §5: "Opening a web view needs both a url and a title" (an `invalidparam` otherwise). */
export async function openNewWebView(
  bridge: Pick<Bridge, "request">,
  url: string,
  title: string,
): Promise<void> {
  await bridge.request("newWebView", { url, title });
}

/**
 * Spec 000 §7: in the app a beacon is "a bridge message" instead of an image request. The result
 * is the `sendOverBridge` option of `createBeaconSender` (beacons.ts); it throws when the message
 * cannot go (no app host, or parameters the schema refuses), so the sender reports the failure.
 */
export function beaconOverBridge(bridge: Pick<Bridge, "notify">): (beacon: BridgeBeacon) => void {
  return (beacon) => {
    const sent = bridge.notify("beacon", {
      route: beacon.route,
      time: Math.round(beacon.time),
      params: beacon.query,
    });
    if (!sent) throw new SiteError("unsupported", "Beacon not sent over the bridge");
  };
}
