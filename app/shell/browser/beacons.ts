import {
  type BeaconParams,
  beaconFailureId,
  beaconFailureParams,
  buildBeacon,
  metricRoute,
  metricsUrl,
} from "#rules/beacon-params.ts";
import { SiteError } from "#rules/errors.ts";

/**
 * The browser's statistics sender (spec 000 §3, §4, §7, §8). Beacons are built by the shared rules
 * of rules/beacon-params.ts and loaded as an image from `/services/metrics/{route}/{time}`, or
 * handed to the native bridge inside the app. Nothing here touches `window` until a beacon is sent.
 */

/** Spec 000 §7: "Outbound links wait 500 ms for their beacon." */
export const outboundBeaconWaitMs = 500;
/** Spec 000 §4, §9: "A navigation-timeout statistic is sent if the page is not complete within 2500 ms." */
export const navigationTimeoutMs = 2500;
export const navigationTimeoutId = "global.navigation-timeout";
export const preloadId = "global.preload";

export type BeaconOutcome = "sent" | "suppressed" | "failed";

/** A beacon handed to the native bridge: the metric route, the time and the sanitised parameters. */
export type BridgeBeacon = { route: string; time: number; query: Record<string, string> };

export type BeaconSenderOptions = {
  /** Spec 000 §6: bots and AMP pages send no beacon at all. The server's `beaconsSuppressed`. */
  suppressed: boolean;
  /** Parameters every beacon carries (lang, inid, webId, newuser, browser...); a beacon's own win. */
  defaults?: () => BeaconParams;
  /** Visitor country; IE impressions drop webId (spec 000 §7). */
  country?: string;
  /** Inside the app: deliver through the native bridge instead of an image. Default: none. */
  sendOverBridge?: (beacon: BridgeBeacon) => void | Promise<void>;
  /** Loads the beacon image; rejects when it fails. Default: an `Image` element. */
  loadImage?: (url: string) => Promise<void>;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** IANA time zone for IE impressions. Default: the browser's, from `Intl`. */
  timeZone?: () => string;
  /**
   * Spec 000 §2 `stats-window-listener`: each beacon, once delivered, is also handed here (the
   * runtime dispatches it as a `stats` event on the window, for tools that watch the statistics).
   */
  onSent?: (beacon: BridgeBeacon) => void;
};

export type BeaconSender = {
  /** Sends one beacon. A failure sends one `global.ue-exception` error beacon, never more. */
  send(params: BeaconParams): Promise<BeaconOutcome>;
  /** For outbound links: sends, then navigates as soon as the beacon is done or 500 ms passed. */
  sendThenNavigate(params: BeaconParams, navigate: () => void): Promise<void>;
};

export function createBeaconSender(options: BeaconSenderOptions): BeaconSender {
  const now = options.now ?? Date.now;
  const loadImage = options.loadImage ?? loadImageBeacon;

  async function deliver(params: BeaconParams) {
    const merged = { ...withoutUndefined(options.defaults?.() ?? {}), ...withoutUndefined(params) };
    // buildBeacon keeps the time zone only where the spec asks for it (IE impressions).
    merged.timezone ??= (options.timeZone ?? browserTimeZone)();
    const beacon = buildBeacon(merged, { country: options.country });
    const time = now();
    if (options.sendOverBridge) {
      await options.sendOverBridge({ route: metricRoute(beacon), time, query: beacon.query });
    } else {
      await loadImage(metricsUrl(beacon, time));
    }
    options.onSent?.({ route: metricRoute(beacon), time, query: beacon.query });
  }

  async function send(params: BeaconParams): Promise<BeaconOutcome> {
    if (options.suppressed) return "suppressed";
    try {
      await deliver(params);
      return "sent";
    } catch (error) {
      if (params.beaconId !== beaconFailureId) {
        try {
          await deliver(beaconFailureParams(error, params));
        } catch {
          // The failure report failed too; reporting that would loop.
        }
      }
      return "failed";
    }
  }

  return {
    send,
    async sendThenNavigate(params, navigate) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, outboundBeaconWaitMs);
      });
      await Promise.race([send(params), waited]);
      clearTimeout(timer);
      navigate();
    },
  };
}

function withoutUndefined(params: BeaconParams): BeaconParams {
  return Object.fromEntries(
    Object.entries(params).filter(([, value]) => value !== undefined),
  ) as BeaconParams;
}

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function loadImageBeacon(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const image = new Image(1, 1);
    image.onload = () => resolve();
    image.onerror = () => reject(new SiteError("network", `beacon image failed: ${url}`));
    image.src = url;
  });
}

export type NavigationWatch = {
  /** The page is complete: no timeout statistic for it. */
  complete(): void;
};

/**
 * Starts the 2500 ms clock of one page load. If neither `complete()` was called nor `isComplete()`
 * holds by then, an error statistic `global.navigation-timeout` is sent for the page.
 */
export function watchNavigation(
  sender: BeaconSender,
  page: { screenname?: string; path?: string; isComplete?: () => boolean },
): NavigationWatch {
  let done = false;
  const timer = setTimeout(() => {
    if (done || page.isComplete?.()) return;
    done = true;
    void sender.send({
      beaconType: "error",
      beaconId: navigationTimeoutId,
      errorcode: "timeout",
      screenname: page.screenname,
      path: page.path,
      timespent: navigationTimeoutMs,
    });
  }, navigationTimeoutMs);
  return {
    complete() {
      done = true;
      clearTimeout(timer);
    },
  };
}

/** The page view statistic of one page (per-page metric route `web.pageview.{screenname}`). */
export function pageviewParams(page: {
  screenname: string;
  path?: string;
  cached?: boolean;
  exp_name?: string;
}): BeaconParams {
  return {
    beaconType: "pageview",
    screenname: page.screenname,
    path: page.path,
    cached: page.cached,
    exp_name: page.exp_name,
  };
}

/** Spec 000 §4: "then a preload statistic is sent" — how long start-up took until ready. */
export function preloadParams(timespent: number, screenname: string): BeaconParams {
  return { beaconType: "userevent", beaconId: preloadId, timespent, screenname };
}

/**
 * A first-show impression (spec 000 §4: "The first time a frame becomes visible a first-show
 * impression is sent"). `section` is a code-chosen name such as "track.lyrics".
 */
export function firstShowParams(section: string, screenname?: string): BeaconParams {
  return { beaconType: "impression", beaconId: `firstshow.${section}`, screenname };
}
