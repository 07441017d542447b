import type { SignatureSample, TagContext } from "#app/bridge/bridge-schema.ts";
import type { Bridge } from "#app/bridge/browser/bridge.ts";
import { SiteError } from "#rules/errors.ts";
import type { WebrecMatchResponse } from "#rules/schemas/webrec.ts";

/**
 * Native tagging support and tag tracking (spec 002 §3 tag context and match, §4 "Tag tracking
 * (native)", §5, §8, §9): inside the app the page keeps a tag (an identified song) in sync with
 * what is playing. The app records audio samples and answers with their signatures over the
 * bridge; each signature is matched by the site's matcher (server mode: a client worker that matches
 * in the page is not built, decision 046) and the match tells where
 * in the track the music is. Tracking stops when the music is out of sync or matching keeps failing.
 */

/** Spec 002 §9 "Tag timing". */
export const tagTiming = {
  /** "offset adjustment 150 ms": added to the computed track position (sample-to-screen latency). */
  offsetAdjustmentMs: 150,
  /** "server interval 6000 ms": between sync checks matched by the server. */
  serverIntervalMs: 6000,
  /** "drift limit 500 ms" (002 §5: synced only if the session start differs by less). */
  driftLimitMs: 500,
  /** "error threshold 3" (002 §4 errorThreshold). */
  errorThreshold: 3,
  /** "signature sample default 5000 ms". */
  signatureSampleMs: 5000,
  /** "sync retry 1 attempt after 1 s" (002 §4: a server not-found is retried once after 1 s). */
  syncRetries: 1,
  syncRetryDelayMs: 1000,
} as const;

// --- Tag client: signatures from the app --------------------------------------------------------

export type TagClient = {
  /** Spec 002 §5: needs a partner id and bridge support; throws `SiteError` otherwise. */
  init(partnerId: string | undefined): void;
  /** Asks the app for the signature of a fresh audio sample. */
  requestSig(): Promise<SignatureSample>;
};

export function createTagClient(
  bridge: Pick<Bridge, "isSupported" | "request">,
  options: { sampleMs?: number } = {},
): TagClient {
  let partner: string | undefined;
  return {
    init(partnerId) {
      partner = undefined;
      if (partnerId === undefined || partnerId.trim() === "") {
        throw new SiteError("invalidparam", "Invalid partner id");
      }
      if (!bridge.isSupported()) throw new SiteError("unsupported", "No bridge support");
      partner = partnerId.trim();
    },
    async requestSig() {
      if (partner === undefined) throw new SiteError("serviceerror", "init unsuccessful or not called");
      const sample = await bridge.request("requestSig", {
        partnerId: partner,
        sampleMs: options.sampleMs ?? tagTiming.signatureSampleMs,
      });
      if (sample === undefined) throw new SiteError("serviceerror", "invalid response");
      return sample;
    },
  };
}

// --- Matches -------------------------------------------------------------------------------------

/** Spec 002 §3 "Match (tagging): id, timestamp, timeSkew, frequencySkew, matchOffset" (ms). */
export type TagMatch = {
  /** The matched track's id. */
  id: string;
  /** When the matched sample's recording started, epoch ms. */
  timestamp: number;
  timeSkew: number;
  frequencySkew: number;
  /** Position in the track at `timestamp`, ms. */
  matchOffset: number;
};

/**
 * The tag match of the site's matcher's answer (POST /services/webrec/match, the same matcher as
 * web recognition): its first match, placed at the moment the app's sample started recording.
 * `notfound` ('No match') when there is none.
 */
export function tagMatchOf(response: WebrecMatchResponse, sample: SignatureSample): TagMatch {
  const first = response.matches[0];
  if (first === undefined) throw new SiteError("notfound", "No match");
  return {
    id: first.trackId,
    timestamp: sample.timestamp,
    timeSkew: first.timeskew,
    frequencySkew: first.frequencyskew,
    matchOffset: first.offset,
  };
}

/** Spec 002 §5: "synced only if the session start differs from the original by less than driftLimit". */
export function isSynced(
  context: TagContext,
  match: TagMatch,
  driftLimitMs: number = tagTiming.driftLimitMs,
): boolean {
  if (match.id !== context.trackid) return false;
  return Math.abs(match.timestamp - match.matchOffset - context.sessionStart) < driftLimitMs;
}

// --- The tag-tracking state machine --------------------------------------------------------------

export type TagTrackingStatus = "idle" | "tracking" | "interrupted" | "stopped";
/** Spec 002 §4: stopped with reason done, or on an out-of-sync error; ours: after the sync error or a worker jserror. */
export type TagStopReason = "done" | "outofsync" | "syncerror" | "jserror";

export type TagTrackingState = {
  status: TagTrackingStatus;
  context: TagContext | undefined;
  /** Latest sync checks, oldest first: undefined for a synced check, its error for a failing one. */
  checks: readonly (SiteError | undefined)[];
  stopReason: TagStopReason | undefined;
  error: SiteError | undefined;
};

export type TagTrackingEvent =
  | { type: "start"; context: TagContext }
  | { type: "stop" }
  | { type: "background" }
  | { type: "foreground" }
  | { type: "matched"; match: TagMatch }
  | { type: "failed"; error: SiteError };

export const initialTagTrackingState: TagTrackingState = {
  status: "idle",
  context: undefined,
  checks: [],
  stopReason: undefined,
  error: undefined,
};

function stopped(state: TagTrackingState, stopReason: TagStopReason, error?: SiteError): TagTrackingState {
  return { ...state, status: "stopped", stopReason, error };
}

/**
 * Spec 002 §4 "errors are collected, and when their count reaches errorThreshold all failing leads
 * to a sync error and stop, else the oldest is dropped": every check's outcome is collected; at the
 * threshold either all are failures (stop) or the oldest is dropped. So tracking stops after
 * `errorThreshold` failing checks in a row, and a synced check in between keeps it going.
 */
function recordCheck(
  checks: readonly (SiteError | undefined)[],
  outcome: SiteError | undefined,
  errorThreshold: number,
): { checks: (SiteError | undefined)[]; syncError: boolean } {
  const next = [...checks, outcome];
  if (next.length < errorThreshold) return { checks: next, syncError: false };
  if (next.every((check) => check !== undefined)) return { checks: next, syncError: true };
  return { checks: next.slice(1), syncError: false };
}

export type TagTrackingLimits = { driftLimitMs: number; errorThreshold: number };

/**
 * The transitions (a pure function; `createTagTracker` runs it):
 * - start: any state → tracking with the new tag context and no collected checks (a foreground retag
 *   restarts a stopped or interrupted tracker with the app's new tag).
 * - stop: tracking or interrupted → stopped (done).
 * - background: tracking → interrupted. foreground: interrupted → tracking.
 * - matched while tracking: out of sync (other track, or drift at or over the limit) → stopped
 *   (outofsync) at once; else the check is collected and the context takes the match's time and skews.
 * - failed while tracking: outofsync → stopped at once; jserror (the page's own failure) → stopped;
 *   any other error is collected, and the threshold rule may stop with syncerror.
 * Everything else leaves the state as it is (a late result after an interruption or stop is ignored).
 */
export function nextTagTrackingState(
  state: TagTrackingState,
  event: TagTrackingEvent,
  limits: TagTrackingLimits = tagTiming,
): TagTrackingState {
  switch (event.type) {
    case "start":
      return { ...initialTagTrackingState, status: "tracking", context: event.context };
    case "stop":
      return state.status === "tracking" || state.status === "interrupted" ? stopped(state, "done") : state;
    case "background":
      return state.status === "tracking" ? { ...state, status: "interrupted" } : state;
    case "foreground":
      return state.status === "interrupted" ? { ...state, status: "tracking" } : state;
    case "matched": {
      if (state.status !== "tracking" || state.context === undefined) return state;
      const { context } = state;
      if (!isSynced(context, event.match, limits.driftLimitMs)) {
        const { match } = event;
        const reason =
          match.id !== context.trackid
            ? `Track ${match.id} playing instead of ${context.trackid}`
            : `Session start drifted ${Math.round(match.timestamp - match.matchOffset - context.sessionStart)} ms`;
        return stopped(state, "outofsync", new SiteError("outofsync", reason));
      }
      const recorded = recordCheck(state.checks, undefined, limits.errorThreshold);
      return {
        ...state,
        checks: recorded.checks,
        context: {
          ...context,
          timestamp: event.match.timestamp,
          timeskew: event.match.timeSkew,
          frequencyskew: event.match.frequencySkew,
        },
      };
    }
    case "failed": {
      if (state.status !== "tracking") return state;
      if (event.error.type === "outofsync") return stopped(state, "outofsync", event.error);
      if (event.error.type === "jserror") return stopped(state, "jserror", event.error);
      const recorded = recordCheck(state.checks, event.error, limits.errorThreshold);
      if (recorded.syncError) return stopped({ ...state, checks: recorded.checks }, "syncerror", event.error);
      return { ...state, checks: recorded.checks };
    }
  }
}

export type TagTrackerOptions = {
  requestSig: () => Promise<SignatureSample>;
  /** Matches a sample; throws `SiteError` notfound ('No match') when nothing matches. */
  match: (sample: SignatureSample) => Promise<TagMatch>;
  /** Called after every change of state. */
  onChange?: (state: TagTrackingState) => void;
  /** Called when tracking stops with an error, for the error statistic (spec 002 §8). */
  onError?: (error: SiteError, reason: TagStopReason) => void;
  limits?: Partial<TagTrackingLimits>;
};

export type TagTracker = {
  state(): TagTrackingState;
  start(context: TagContext): void;
  stop(): void;
  /** The app went to the background (or the page was hidden). */
  background(): void;
  /** The view reappeared: an interrupted tracker checks again at once. */
  foreground(): void;
  dispose(): void;
};

function asSiteError(error: unknown): SiteError {
  if (error instanceof SiteError) return error;
  return new SiteError("jserror", error instanceof Error ? error.message : String(error));
}

/**
 * Runs the state machine: a sync check (signature, match) every interval while tracking; the
 * first check one interval after start, at once after the view reappears. A check whose state was
 * left in the meantime (stop, background, new start) is discarded.
 */
export function createTagTracker(options: TagTrackerOptions): TagTracker {
  const limits: TagTrackingLimits = { ...tagTiming, ...options.limits };
  const intervalMs = tagTiming.serverIntervalMs;
  let state = initialTagTrackingState;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function cancel(): void {
    generation += 1;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }

  function dispatch(event: TagTrackingEvent): void {
    const before = state;
    state = nextTagTrackingState(state, event, limits);
    if (state === before) return;
    if (state.status !== "tracking") cancel();
    options.onChange?.(state);
    if (state.status === "stopped" && state.error !== undefined && state.stopReason !== undefined) {
      options.onError?.(state.error, state.stopReason);
    }
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    });
  }

  async function check(): Promise<TagTrackingEvent> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const sample = await options.requestSig();
        return { type: "matched", match: await options.match(sample) };
      } catch (thrown) {
        const error = asSiteError(thrown);
        if (error.type !== "notfound" || attempt >= tagTiming.syncRetries) return { type: "failed", error };
      }
      await wait(tagTiming.syncRetryDelayMs);
    }
  }

  function schedule(delayMs: number): void {
    cancel();
    const current = generation;
    timer = setTimeout(async () => {
      const event = await check();
      if (current !== generation) return;
      dispatch(event);
      if (current === generation && state.status === "tracking") schedule(intervalMs);
    }, delayMs);
  }

  return {
    state: () => state,
    start(context) {
      cancel();
      dispatch({ type: "start", context });
      schedule(intervalMs);
    },
    stop() {
      dispatch({ type: "stop" });
    },
    background() {
      dispatch({ type: "background" });
    },
    foreground() {
      const wasInterrupted = state.status === "interrupted";
      dispatch({ type: "foreground" });
      if (wasInterrupted && state.status === "tracking") schedule(0);
    },
    dispose() {
      cancel();
    },
  };
}

/** The part of `document` the visibility watch needs. */
export type VisibilitySource = {
  readonly visibilityState: string;
  addEventListener(type: "visibilitychange", listener: () => void): void;
  removeEventListener(type: "visibilitychange", listener: () => void): void;
};

/** Interrupts tracking while the page is hidden and resumes it when it reappears; returns the unsubscribe. */
export function watchVisibility(
  source: VisibilitySource,
  tracker: Pick<TagTracker, "background" | "foreground">,
) {
  const listener = () => (source.visibilityState === "hidden" ? tracker.background() : tracker.foreground());
  source.addEventListener("visibilitychange", listener);
  return () => source.removeEventListener("visibilitychange", listener);
}
