import type { SiteStorage } from "#app/shell/browser/storage.ts";
import type { BeaconParams } from "#rules/beacon-params.ts";
import { SiteError } from "#rules/errors.ts";
import type { LanguageKey } from "#rules/languages.ts";
import type { WebrecMatch, WebrecMatchResponse, WebrecSignatureSummary } from "#rules/schemas/webrec.ts";
import { type MatchRequestBody, matchRequestBody } from "#rules/schemas/webrec.ts";
import { RECORDING_CHECKPOINTS_SECONDS } from "#signature/constants.ts";
import type { CaptureListener, Microphone } from "./capture";
import {
  type FailureKind,
  microphoneFailure,
  RecognitionFailure,
  serviceStatistic,
  tabAudioFailure,
} from "./failures";
import { type DecodedFile, fileCheckpointSeconds } from "./file-audio";
import { closeAudioContext } from "./input-support";
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
import { addRecentIdentification } from "./recent-identifications";
import type { SignatureWorker } from "./signature-worker-client";

/**
 * One web recognition at a time (spec 002 §4 Recording, 001 §4 web recognition screen states):
 * press → (microphone permission needed) → listening, with a signature and a match request at each
 * checkpoint (3, 6, 9, 12 s; the 12 s one is final) → the track page, the interstitial, no match,
 * an error, or interrupted (the page hidden or the input ended while listening). Everything
 * outside (microphone, worker, network, storage, beacons, navigation, clock) is handed in, so the
 * rules run in tests with fake timers.
 */

/** The four progressive listening messages: one more after each checkpoint but the last. */
export const listeningMessages = ["listening", "searching", "expanding", "tough"] as const;
export type ListeningMessage = (typeof listeningMessages)[number];

export type MatchedTrack = StoredMatch & { href: string };

/**
 * Where the audio comes from: the microphone, this browser's audio (a shared tab), or a
 * file, which is heard at the same checkpoints without waiting for them. The microphone and a tab
 * come with the AudioContext their tap started (input-support.ts audioContextInGesture), which the
 * recognition owns: it is closed whatever becomes of the start.
 */
export type RecognitionInput =
  | { kind: "microphone"; context: AudioContext }
  | { kind: "tab"; context: AudioContext }
  | { kind: "file"; file: Blob };
export type RecognitionInputKind = RecognitionInput["kind"];

/**
 * The statistics of each input count apart: the microphone keeps the spec's `webrec.*` ids, the
 * others add their kind (`webrec.file.match`, `webrec.tab.error`...).
 */
export function recognitionBeaconId(kind: RecognitionInputKind, event: string): string {
  return kind === "microphone" ? `webrec.${event}` : `webrec.${kind}.${event}`;
}

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
  /** Heard without a network: kept on the device, to be identified once back online (decision 057). */
  | { screen: "kept" }
  /** Listening stopped by itself: the page went to the background, or the input ended. */
  | { screen: "interrupted"; failure: InterruptionKind; input: RecognitionInputKind }
  | { screen: "error"; failure: RecognitionFailure["kind"]; input: RecognitionInputKind };

export type InterruptionKind = Extract<FailureKind, "background" | "inputended">;

function isInterruption(kind: FailureKind): kind is InterruptionKind {
  return kind === "background" || kind === "inputended";
}

/**
 * A recording the network was down for (docs/decisions/057-heard-offline.md): its id is the
 * session's, its signature the last checkpoint's, which holds everything heard.
 */
export type OfflineRecording = { id: string; data: string; lang: string; country: string; heardAt: number };

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
  /** Open the input into the tap's AudioContext, and own it from the call on. */
  openMicrophone(context: AudioContext, listener: CaptureListener): Promise<Microphone>;
  openTabAudio(context: AudioContext, listener: CaptureListener): Promise<Microphone>;
  decodeFile(file: Blob): Promise<DecodedFile>;
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
  /**
   * Decision 057: where recordings heard offline are kept (true once kept). Without it, a network
   * failure at a checkpoint is the service error it always was.
   */
  keepForLater?(recording: OfflineRecording): Promise<boolean>;
  /** `navigator.onLine`: false, a checkpoint's signature is kept rather than sent. */
  isOnline?(): boolean;
};

export type Recognition = {
  /** Starts listening to the input (ignored while a recognition runs). */
  start(input: RecognitionInput): Promise<void>;
  /** Stops listening; records the time spent. */
  cancel(): void;
  /** Stops everything without a statistic (the page goes away). */
  dispose(): void;
  readonly active: boolean;
};

const lastCheckpoint = RECORDING_CHECKPOINTS_SECONDS.length - 1;

/** The screen a failure ends on: a refused microphone asks for it, an interruption says so. */
function screenOfFailure(kind: FailureKind, input: RecognitionInputKind): RecognitionScreen {
  if (kind === "microphonedenied") return { screen: "permission", denied: true };
  if (isInterruption(kind)) return { screen: "interrupted", failure: kind, input };
  return { screen: "error", failure: kind, input };
}

/** The tap's AudioContext, when nothing is opened into it. */
function releaseInput(input: RecognitionInput): void {
  if (input.kind !== "file") closeAudioContext(input.context);
}

export function createRecognition(deps: RecognitionDeps): Recognition {
  let run: Run | undefined;

  type Run = {
    input: RecognitionInputKind;
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
    /**
     * Decision 057: the network was down at a checkpoint. Nothing more is sent; the latest
     * checkpoint's signature (by index) is what is kept at the end.
     */
    offline: { index: number; data: string } | undefined;
  };

  function beacon(current: Run, event: string, params: Omit<BeaconParams, "beaconId">) {
    deps.sendBeacon({
      screenname: deps.screenname,
      beaconId: recognitionBeaconId(current.input, event),
      ...params,
    });
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
    beacon(current, "error", {
      beaconType: "error",
      errorcode: failure.kind === "service" ? "serviceerror" : "recording",
      errordesc: failure.statistic,
      timespent: deps.now() - current.pressedAt,
    });
    deps.onScreen(screenOfFailure(failure.kind, current.input));
  }

  function noMatch(current: Run) {
    if (!finish(current)) return;
    beacon(current, "nomatch", {
      beaconType: "userevent",
      timespent: deps.now() - current.pressedAt,
    });
    deps.onScreen({ screen: "nomatch" });
  }

  /** Decision 057: a checkpoint without network; its signature is kept if it is the latest one. */
  function heardOffline(current: Run, index: number, data: string) {
    if (!current.offline || current.offline.index < index) current.offline = { index, data };
  }

  /** Decision 057: the recording heard offline is kept for later, or fails as a service error. */
  async function keep(current: Run) {
    const heard = current.offline;
    const startDate = current.microphone?.startedAt() ?? current.openedAt;
    if (!heard || !finish(current)) return;
    const kept = await (
      deps.keepForLater?.({
        id: current.sessionId,
        data: heard.data,
        lang: deps.lang,
        country: deps.country,
        heardAt: Math.round(startDate),
      }) ?? Promise.resolve(false)
    ).catch(() => false);
    const timespent = deps.now() - current.pressedAt;
    if (kept) {
      beacon(current, "kept", { beaconType: "userevent", timespent });
      deps.onScreen({ screen: "kept" });
      return;
    }
    beacon(current, "error", {
      beaconType: "error",
      errorcode: "serviceerror",
      errordesc: serviceStatistic("network"),
      timespent,
    });
    deps.onScreen({ screen: "error", failure: "service", input: current.input });
  }

  /** Whether a failed request is the network's absence (a fetch TypeError), with somewhere to keep it. */
  function isOffline(error: unknown): boolean {
    return deps.keepForLater !== undefined && error instanceof SiteError && error.type === "network";
  }

  async function matched(current: Run, match: WebrecMatch) {
    const startDate = current.microphone?.startedAt() ?? current.openedAt;
    if (!finish(current)) return;
    const matchedAt = deps.now();
    beacon(current, "match", {
      beaconType: "userevent",
      trackid: match.trackId,
      timespent: matchedAt - current.pressedAt,
    });
    const first = storedMatchOf(match, { startDate, matchedAt }, undefined);
    deps.onScreen({ screen: "matched", track: { ...first, href: trackPageHref(deps.lang, first) } });
    // The lookup only adds the title, colours and length: the track page opens without them too.
    const track = await deps.lookupTrack(match.trackId, AbortSignal.timeout(5000)).catch(() => undefined);
    const stored = storedMatchOf(match, { startDate, matchedAt }, track);
    if (deps.storage) {
      storeMatch(deps.storage, stored);
      addRecentIdentification(deps.storage, {
        sessionId: current.sessionId,
        trackId: stored.trackId,
        weburl: stored.weburl,
        title: stored.title,
        artist: stored.artist,
        matchedAt: Math.round(matchedAt),
      });
    }
    const result = { ...stored, href: trackPageHref(deps.lang, stored) };
    if (isOnTrackPage(deps.currentPath(), deps.lang, match.weburl)) {
      deps.onScreen({ screen: "interstitial", track: result });
    } else {
      deps.navigate(result.href, navigationStateOf(stored, deps.screenname));
    }
  }

  async function checkpoint(current: Run, index: number, seconds: number, final: boolean) {
    if (current.finished || !current.worker) return;
    deps.onScreen({
      screen: "listening",
      message: listeningMessages[Math.min(index + 1, lastCheckpoint)] ?? "tough",
    });
    current.pending++;
    let body: MatchRequestBody | undefined;
    try {
      const signature = await current.worker.signature({ wav: deps.audioCapture });
      // The final signature holds all there is to hear.
      if (final) current.microphone?.stop();
      if (current.finished) return;
      body = matchRequestBody(signature.data, {
        sessionId: current.sessionId,
        lang: deps.lang,
        country: deps.country,
      });
      // Decision 057: offline, or offline since an earlier checkpoint, the signature is kept, not sent.
      if (current.offline || (deps.keepForLater && deps.isOnline?.() === false)) {
        heardOffline(current, index, body.data);
      } else {
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
      }
    } catch (error) {
      if (body && !current.finished && isOffline(error)) {
        heardOffline(current, index, body.data);
      } else {
        if (!current.finished && !(error instanceof SiteError && error.type === "abort"))
          fail(current, error);
        return;
      }
    } finally {
      current.pending--;
      if (final) current.finalAnswered = true;
    }
    if (current.finished || !current.finalAnswered || current.pending > 0) return;
    if (current.offline) await keep(current);
    else noMatch(current);
  }

  /** A file: decoded, then its checkpoints one after the other, as soon as each answers. */
  async function hearFile(current: Run, worker: SignatureWorker, file: Blob) {
    deps.onScreen({ screen: "listening", message: listeningMessages[0] });
    let decoded: DecodedFile;
    try {
      decoded = await deps.decodeFile(file);
    } catch (error) {
      fail(
        current,
        error instanceof RecognitionFailure ? error : RecognitionFailure.recording("fileunreadable"),
      );
      return;
    }
    if (current.finished) return;
    current.openedAt = deps.now();
    worker.start(decoded.sampleRate);
    const lengths = fileCheckpointSeconds(decoded.samples.length / decoded.sampleRate);
    let pushed = 0;
    for (const [index, seconds] of lengths.entries()) {
      if (current.finished) return;
      const end = Math.min(decoded.samples.length, Math.round(seconds * decoded.sampleRate));
      worker.push(decoded.samples.slice(pushed, end));
      pushed = end;
      await checkpoint(current, index, seconds, index === lengths.length - 1);
    }
  }

  return {
    get active() {
      return run !== undefined;
    },

    async start(input) {
      if (run) {
        releaseInput(input);
        return;
      }
      const current: Run = {
        input: input.kind,
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
        offline: undefined,
      };
      run = current;
      beacon(current, "start", { beaconType: "userevent" });
      deps.pauseMedia();
      try {
        current.worker = deps.createSignatureWorker();
      } catch (error) {
        releaseInput(input);
        fail(current, error instanceof RecognitionFailure ? error : RecognitionFailure.worker(String(error)));
        return;
      }
      if (input.kind === "file") {
        await hearFile(current, current.worker, input.file);
        return;
      }
      if (input.kind === "microphone" && !(await deps.hasLabelledAudioInput()) && !current.finished) {
        deps.onScreen({ screen: "permission", denied: false });
      }
      if (current.finished) {
        releaseInput(input);
        return;
      }
      let microphone: Microphone;
      const listener: CaptureListener = {
        samples(samples) {
          if (!current.finished) current.worker?.push(samples);
        },
        interrupted: (failure) => fail(current, failure),
      };
      try {
        microphone =
          input.kind === "tab"
            ? await deps.openTabAudio(input.context, listener)
            : await deps.openMicrophone(input.context, listener);
      } catch (error) {
        fail(current, input.kind === "tab" ? tabAudioFailure(error) : microphoneFailure(error));
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
        setTimeout(() => void checkpoint(current, index, seconds, index === lastCheckpoint), seconds * 1000),
      );
    },

    cancel() {
      const current = run;
      if (!current || !finish(current)) return;
      beacon(current, "cancel", {
        beaconType: "userevent",
        timespent: deps.now() - current.pressedAt,
      });
      deps.onScreen({ screen: "idle" });
    },

    dispose() {
      if (run) finish(run);
    },
  };
}
