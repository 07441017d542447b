import type { BeaconParams } from "../../../rules/beacon-params";
import { SiteError } from "../../../rules/errors";
import type { LanguageKey } from "../../../rules/languages";
import type { WebrecMatch, WebrecMatchResponse, WebrecSignatureSummary } from "../../../rules/schemas/webrec";
import { type MatchRequestBody, matchRequestBody } from "../../../rules/schemas/webrec";
import { RECORDING_CHECKPOINTS_SECONDS } from "../../../signature/index";
import type { SiteStorage } from "../storage";
import type { Microphone } from "./capture";
import { microphoneFailure, RecognitionFailure } from "./failures";
import type { TrackLookup } from "./match-service";
import {
  isOnTrackPage,
  navigationStateOf,
  type StoredMatch,
  storedMatchOf,
  storeMatch,
  trackPageHref,
  type WebrecNavigationState,
} from "./outcome";
import type { SignatureWorker } from "./signature-worker-client";

/**
 * One web recognition at a time (spec 002 §4 Recording, 001 §4 web recognition screen states):
 * press → (microphone permission needed) → listening, with a signature and a match request at each
 * checkpoint (3, 6, 9, 12 s; the 12 s one is final) → the track page, the interstitial, no match or
 * an error. Everything outside (microphone, worker, network, storage, beacons, navigation, clock)
 * is handed in, so the rules run in tests with fake timers.
 */

/** The four progressive listening messages: one more after each checkpoint but the last. */
export const listeningMessages = ["listening", "searching", "expanding", "tough"] as const;
export type ListeningMessage = (typeof listeningMessages)[number];

export type MatchedTrack = StoredMatch & { href: string };

export type RecognitionScreen =
  | { screen: "idle" }
  /** Spec: "microphone permission needed"; `denied` once the visitor or the browser said no. */
  | { screen: "permission"; denied: boolean }
  | { screen: "listening"; message: ListeningMessage }
  /** A match, while the track page opens. */
  | { screen: "matched"; track: MatchedTrack }
  /** A match of the track page the visitor is on (spec 002 §2 /track/webrec/interstitial). */
  | { screen: "interstitial"; track: MatchedTrack }
  | { screen: "nomatch" }
  | { screen: "error"; failure: RecognitionFailure["kind"] };

/** With audiocapture=1: the audio of a checkpoint and what returnSig made of its signature. */
export type CapturedCheckpoint = {
  seconds: number;
  wav: Uint8Array | undefined;
  summary: WebrecSignatureSummary;
};

export type RecognitionDeps = {
  lang: LanguageKey;
  country: string;
  /** Beacon screenname and navigation `source` (the page the button is on). */
  screenname: string;
  audioCapture: boolean;
  hasLabelledAudioInput(): Promise<boolean>;
  openMicrophone(onSamples: (samples: Float32Array) => void): Promise<Microphone>;
  createSignatureWorker(): SignatureWorker;
  match(body: MatchRequestBody, signal: AbortSignal): Promise<WebrecMatchResponse>;
  returnSig(body: MatchRequestBody, signal: AbortSignal): Promise<WebrecSignatureSummary>;
  lookupTrack(trackId: string, signal: AbortSignal): Promise<TrackLookup>;
  storage: Pick<SiteStorage, "get" | "set"> | undefined;
  sendBeacon(params: BeaconParams): void;
  navigate(href: string, state: WebrecNavigationState): void;
  /** The current location's pathname, for "already on that track page". */
  currentPath(): string;
  pauseMedia(): void;
  now(): number;
  randomId(): string;
  onScreen(screen: RecognitionScreen): void;
  onCapture?(checkpoint: CapturedCheckpoint): void;
};

export type Recognition = {
  /** Starts listening (ignored while a recognition runs). */
  start(): Promise<void>;
  /** Stops listening; records the time spent. */
  cancel(): void;
  /** Stops everything without a statistic (the page goes away). */
  dispose(): void;
  readonly active: boolean;
};

const lastCheckpoint = RECORDING_CHECKPOINTS_SECONDS.length - 1;

export function createRecognition(deps: RecognitionDeps): Recognition {
  let run: Run | undefined;

  type Run = {
    sessionId: string;
    pressedAt: number;
    finished: boolean;
    microphone: Microphone | undefined;
    worker: SignatureWorker | undefined;
    timers: ReturnType<typeof setTimeout>[];
    abort: AbortController;
    pending: number;
    finalAnswered: boolean;
    openedAt: number;
  };

  function beacon(params: BeaconParams) {
    deps.sendBeacon({ screenname: deps.screenname, ...params });
  }

  /** Stops capture, worker, timers and requests of a run; true when it was still going. */
  function finish(current: Run): boolean {
    if (current.finished) return false;
    current.finished = true;
    for (const timer of current.timers) clearTimeout(timer);
    current.microphone?.stop();
    current.worker?.terminate();
    current.abort.abort();
    if (run === current) run = undefined;
    return true;
  }

  function fail(current: Run, error: unknown) {
    if (!finish(current)) return;
    const failure = error instanceof RecognitionFailure ? error : RecognitionFailure.service(error);
    beacon({
      beaconType: "error",
      beaconId: "webrec.error",
      errorcode: failure.kind === "service" ? "serviceerror" : "recording",
      errordesc: failure.statistic,
      timespent: deps.now() - current.pressedAt,
    });
    deps.onScreen(
      failure.kind === "microphonedenied"
        ? { screen: "permission", denied: true }
        : { screen: "error", failure: failure.kind },
    );
  }

  function noMatch(current: Run) {
    if (!finish(current)) return;
    beacon({
      beaconType: "userevent",
      beaconId: "webrec.nomatch",
      timespent: deps.now() - current.pressedAt,
    });
    deps.onScreen({ screen: "nomatch" });
  }

  async function matched(current: Run, match: WebrecMatch) {
    const startDate = current.microphone?.startedAt() ?? current.openedAt;
    if (!finish(current)) return;
    const matchedAt = deps.now();
    beacon({
      beaconType: "userevent",
      beaconId: "webrec.match",
      trackid: match.trackId,
      timespent: matchedAt - current.pressedAt,
    });
    const first = storedMatchOf(match, { startDate, matchedAt }, undefined);
    deps.onScreen({ screen: "matched", track: { ...first, href: trackPageHref(deps.lang, first) } });
    // The lookup only adds the title, colours and length: the track page opens without them too.
    const track = await deps.lookupTrack(match.trackId, AbortSignal.timeout(5000)).catch(() => undefined);
    const stored = storedMatchOf(match, { startDate, matchedAt }, track);
    if (deps.storage) storeMatch(deps.storage, stored);
    const result = { ...stored, href: trackPageHref(deps.lang, stored) };
    if (isOnTrackPage(deps.currentPath(), deps.lang, match.weburl)) {
      deps.onScreen({ screen: "interstitial", track: result });
    } else {
      deps.navigate(result.href, navigationStateOf(stored, deps.screenname));
    }
  }

  async function checkpoint(current: Run, index: number) {
    if (current.finished || !current.worker) return;
    const seconds = RECORDING_CHECKPOINTS_SECONDS[index] as number;
    const final = index === lastCheckpoint;
    deps.onScreen({
      screen: "listening",
      message: listeningMessages[Math.min(index + 1, lastCheckpoint)] ?? "tough",
    });
    current.pending++;
    try {
      const signature = await current.worker.signature({ wav: deps.audioCapture });
      // The final signature holds all there is to hear.
      if (final) current.microphone?.stop();
      if (current.finished) return;
      const body = matchRequestBody(signature.data, {
        sessionId: current.sessionId,
        lang: deps.lang,
        country: deps.country,
      });
      if (deps.audioCapture) {
        deps
          .returnSig(body, current.abort.signal)
          .then((summary) => deps.onCapture?.({ seconds, wav: signature.wav, summary }))
          .catch(() => {});
      }
      const answer = await deps.match(body, current.abort.signal);
      if (current.finished) return;
      const [match] = answer.matches;
      if (match) {
        await matched(current, match);
        return;
      }
    } catch (error) {
      if (!current.finished && !(error instanceof SiteError && error.type === "abort")) fail(current, error);
      return;
    } finally {
      current.pending--;
      if (final) current.finalAnswered = true;
    }
    if (current.finalAnswered && current.pending === 0) noMatch(current);
  }

  return {
    get active() {
      return run !== undefined;
    },

    async start() {
      if (run) return;
      const current: Run = {
        sessionId: deps.randomId(),
        pressedAt: deps.now(),
        finished: false,
        microphone: undefined,
        worker: undefined,
        timers: [],
        abort: new AbortController(),
        pending: 0,
        finalAnswered: false,
        openedAt: 0,
      };
      run = current;
      beacon({ beaconType: "userevent", beaconId: "webrec.start" });
      deps.pauseMedia();
      try {
        current.worker = deps.createSignatureWorker();
      } catch (error) {
        fail(current, error instanceof RecognitionFailure ? error : RecognitionFailure.worker(String(error)));
        return;
      }
      if (!(await deps.hasLabelledAudioInput())) {
        if (current.finished) return;
        deps.onScreen({ screen: "permission", denied: false });
      }
      if (current.finished) return;
      let microphone: Microphone;
      try {
        microphone = await deps.openMicrophone((samples) => {
          if (!current.finished) current.worker?.push(samples);
        });
      } catch (error) {
        fail(current, microphoneFailure(error));
        return;
      }
      if (current.finished) {
        microphone.stop();
        return;
      }
      current.microphone = microphone;
      current.openedAt = deps.now();
      current.worker.start(microphone.sampleRate);
      deps.onScreen({ screen: "listening", message: listeningMessages[0] });
      current.timers = RECORDING_CHECKPOINTS_SECONDS.map((seconds, index) =>
        setTimeout(() => void checkpoint(current, index), seconds * 1000),
      );
    },

    cancel() {
      const current = run;
      if (!current || !finish(current)) return;
      beacon({
        beaconType: "userevent",
        beaconId: "webrec.cancel",
        timespent: deps.now() - current.pressedAt,
      });
      deps.onScreen({ screen: "idle" });
    },

    dispose() {
      if (run) finish(run);
    },
  };
}
