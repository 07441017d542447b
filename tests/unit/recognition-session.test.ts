import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { CaptureListener, Microphone } from "#app/recognition/browser/capture.ts";
import { RecognitionFailure } from "#app/recognition/browser/failures.ts";
import type { DecodedFile } from "#app/recognition/browser/file-audio.ts";
import type { TrackLookup } from "#app/recognition/browser/match-service.ts";
import type { StoredMatch } from "#app/recognition/browser/outcome.ts";
import { recentIdentifications } from "#app/recognition/browser/recent-identifications.ts";
import {
  createRecognition,
  type OfflineRecording,
  type RecognitionDeps,
  type RecognitionInput,
  type RecognitionScreen,
} from "#app/recognition/browser/session.ts";
import type { SignatureWorker } from "#app/recognition/browser/signature-worker-client.ts";
import { createSiteStorage } from "#app/shell/browser/storage.ts";
import type { BeaconParams } from "#rules/beacon-params.ts";
import { SiteError } from "#rules/errors.ts";
import type { LanguageKey } from "#rules/languages.ts";
import type { MatchRequestBody, WebrecMatch, WebrecMatchResponse } from "#rules/schemas/webrec.ts";
import { RECORDING_CHECKPOINTS_SECONDS } from "#signature/index.ts";
import { memoryStorage } from "./memory-storage";

/** The latest match the session stored (the interstitial and the track page read it from there). */
function latestMatch(w: { storage: ReturnType<typeof createSiteStorage> }): StoredMatch | undefined {
  const stored = w.storage.get("webrec.fab_match");
  return stored.ok ? (stored.value as StoredMatch) : undefined;
}

// The recognition session's rules with fake timers and fake microphone, worker and services:
// checkpoints at 3, 6, 9 and 12 s, the 12 s one final, and every outcome of spec 002 §4 and §8.

const t0 = 1_700_000_000_000;
/** The first captured sample: a little after the press (permission, AudioContext start). */
const heardAt = t0 + 120;

const track: TrackLookup = {
  key: "503723567",
  alias: "menu-theme-enhanced",
  title: "Menu Theme - Enhanced",
  subtitle: "LupusMechanicus",
  durationMs: 648_008,
  properties: { bkgcolor: "1a2b3c", bkglight: false },
};

function matchOf(overrides: Partial<WebrecMatch> = {}): WebrecMatch {
  return {
    trackId: track.key,
    weburl: `/track/${track.key}/${track.alias}`,
    offset: 95_250,
    timeskew: 0.0012,
    frequencyskew: 0,
    ...overrides,
  };
}

type Answer = WebrecMatchResponse | Error | { after: number; answer: WebrecMatchResponse | Error };

/** A world of fakes; `answers[i]` is the match service's answer to checkpoint i (default: empty). */
function world(
  options: {
    lang?: LanguageKey;
    answers?: Answer[];
    labelled?: boolean;
    microphone?: Error;
    tab?: Error;
    file?: DecodedFile | Error;
    signatureFailsAt?: number;
    lookup?: TrackLookup | Error;
    currentPath?: string;
    audioCapture?: boolean;
    /** Decision 057: where recordings heard offline are kept ("fails": the keeping fails). */
    keep?: "keeps" | "fails";
    online?: () => boolean;
  } = {},
) {
  const screens: RecognitionScreen[] = [];
  const beacons: BeaconParams[] = [];
  const navigations: { href: string; state: unknown }[] = [];
  const matchCalls: { at: number; body: MatchRequestBody }[] = [];
  const returnSigCalls: MatchRequestBody[] = [];
  const kept: OfflineRecording[] = [];
  const pushed: Float32Array[] = [];
  const backing = memoryStorage();
  const storage = createSiteStorage({ storage: () => backing, now: () => Date.now() });
  const state = { microphoneStopped: false, workerTerminated: false, started: 0, signatures: 0, paused: 0 };
  let listening: CaptureListener | undefined;
  // The AudioContext each tap starts: the recognition closes the ones it does not open into.
  const contexts: { closed: boolean }[] = [];
  const openedInto: unknown[] = [];
  const tap = (kind: "microphone" | "tab" = "microphone"): RecognitionInput => {
    const context = {
      closed: false,
      async close() {
        context.closed = true;
      },
    };
    contexts.push(context);
    return { kind, context: context as unknown as AudioContext };
  };

  const worker: SignatureWorker = {
    start(sampleRate) {
      state.started = sampleRate;
    },
    push(samples) {
      pushed.push(samples);
    },
    async signature() {
      const index = state.signatures++;
      if (options.signatureFailsAt === index) throw RecognitionFailure.worker("out of memory");
      return { data: `c2lnbmF0dXJl${index}`, durationMs: (index + 1) * 3000, wav: undefined };
    },
    terminate() {
      state.workerTerminated = true;
    },
  };

  const deps: RecognitionDeps = {
    lang: options.lang ?? "en",
    country: "GB",
    screenname: "identify",
    audioCapture: options.audioCapture ?? false,
    hasLabelledAudioInput: async () => options.labelled ?? true,
    async openTabAudio(context, listener) {
      if (options.tab) throw options.tab;
      return deps.openMicrophone(context, listener);
    },
    async decodeFile() {
      if (options.file instanceof Error || !options.file) throw options.file;
      return options.file;
    },
    async openMicrophone(context, listener) {
      openedInto.push(context);
      if (options.microphone) throw options.microphone;
      listening = listener;
      const microphone: Microphone = {
        sampleRate: 48_000,
        startedAt: () => heardAt,
        stop() {
          state.microphoneStopped = true;
        },
      };
      return microphone;
    },
    createSignatureWorker: () => worker,
    async match(body) {
      const index = matchCalls.length;
      matchCalls.push({ at: Date.now() - t0, body });
      const answer = options.answers?.[index] ?? { matches: [] };
      if (answer instanceof Error) throw answer;
      if ("after" in answer) {
        await new Promise((resolve) => setTimeout(resolve, answer.after));
        if (answer.answer instanceof Error) throw answer.answer;
        return answer.answer;
      }
      return answer;
    },
    async returnSig(body) {
      returnSigCalls.push(body);
      return {
        sampleRate: 8000,
        fftSize: 1024,
        hop: 256,
        frameCount: 94,
        durationMs: 3008,
        peakCount: 0,
        signature: [],
      };
    },
    async lookupTrack() {
      if (options.lookup instanceof Error) throw options.lookup;
      return options.lookup ?? track;
    },
    storage,
    sendBeacon: (params) => void beacons.push(params),
    navigate: (href, navigationState) => void navigations.push({ href, state: navigationState }),
    currentPath: () => options.currentPath ?? "/identify",
    pauseMedia: () => void state.paused++,
    now: () => Date.now(),
    randomId: () => "session-1",
    onScreen: (screen) => void screens.push(screen),
    ...(options.keep
      ? {
          async keepForLater(recording: OfflineRecording) {
            if (options.keep === "fails") throw new Error("no IndexedDB");
            kept.push(recording);
            return true;
          },
        }
      : {}),
    ...(options.online ? { isOnline: options.online } : {}),
  };
  const recognition = createRecognition(deps);
  return {
    recognition,
    deps,
    screens,
    beacons,
    navigations,
    matchCalls,
    returnSigCalls,
    kept,
    pushed,
    storage,
    state,
    tap,
    contexts,
    openedInto,
    feed: (samples: Float32Array) => listening?.samples(samples),
    interrupt: (failure: RecognitionFailure) => listening?.interrupted(failure),
    last: () => screens.at(-1),
    beaconIds: () => beacons.map((beacon) => beacon.beaconId),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: t0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("checkpoints", () => {
  test("a signature is matched at 3, 6, 9 and 12 s, and the 12 s attempt is final", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls.map((call) => call.at)).toEqual(RECORDING_CHECKPOINTS_SECONDS.map((s) => s * 1000));
    expect(w.matchCalls.map((call) => call.body)).toEqual(
      [0, 1, 2, 3].map((index) => ({
        data: `c2lnbmF0dXJl${index}`,
        sessionId: "session-1",
        lang: "en",
        country: "GB",
      })),
    );
  });

  test("the four listening messages follow the checkpoints", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    const messages = () =>
      w.screens.flatMap((screen) => (screen.screen === "listening" ? [screen.message] : []));
    expect(messages()).toEqual(["listening"]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(messages()).toEqual(["listening"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(messages()).toEqual(["listening", "searching"]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(messages().at(-1)).toBe("expanding");
    await vi.advanceTimersByTimeAsync(3000);
    expect(messages().at(-1)).toBe("tough");
  });

  test("the microphone's samples go to the signature worker, started at the capture rate", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    const buffer = new Float32Array(4096).fill(0.25);
    w.feed(buffer);
    w.feed(buffer);
    expect(w.state.started).toBe(48_000);
    expect(w.pushed).toHaveLength(2);
    expect(w.state.paused).toBe(1);
  });

  test("a second press while listening starts nothing new", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    await w.recognition.start(w.tap());
    expect(w.beaconIds().filter((id) => id === "webrec.start")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(w.matchCalls).toHaveLength(1);
  });
});

describe("the AudioContext started by the tap", () => {
  test("is the one the microphone opens into, and a tab's too", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    w.recognition.cancel();
    await w.recognition.start(w.tap("tab"));
    expect(w.openedInto).toEqual(w.contexts);
    // From there the capture owns them (capture.ts closes them with the stream).
    expect(w.contexts.map((context) => context.closed)).toEqual([false, false]);
  });

  test("a second tap while listening has its AudioContext closed", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    await w.recognition.start(w.tap());
    expect(w.contexts.map((context) => context.closed)).toEqual([false, true]);
    expect(w.openedInto).toHaveLength(1);
  });

  test("stopped before the microphone opens, its AudioContext is closed", async () => {
    const w = world({ labelled: false });
    const started = w.recognition.start(w.tap());
    w.recognition.cancel();
    await started;
    expect(w.openedInto).toEqual([]);
    expect(w.contexts.map((context) => context.closed)).toEqual([true]);
  });

  test("a signature worker that cannot start closes it too", async () => {
    const w = world();
    const deps = w.deps;
    deps.createSignatureWorker = () => {
      throw RecognitionFailure.worker("no Worker");
    };
    await createRecognition(deps).start(w.tap());
    expect(w.contexts.map((context) => context.closed)).toEqual([true]);
  });
});

describe("listening stopped by itself", () => {
  test.each([
    ["the page went to the background", "background", "pagehidden"],
    ["the microphone ended", "inputended", "inputended"],
  ] as const)(
    "%s: the interrupted screen, its statistic, nothing more matched",
    async (_, failure, statistic) => {
      const w = world();
      await w.recognition.start(w.tap());
      await vi.advanceTimersByTimeAsync(4000);
      w.interrupt(RecognitionFailure.recording(failure));
      expect(w.last()).toEqual({ screen: "interrupted", failure, input: "microphone" });
      expect(w.recognition.active).toBe(false);
      expect(w.state.workerTerminated).toBe(true);
      const error = w.beacons.find((beacon) => beacon.beaconId === "webrec.error");
      expect(error).toMatchObject({ beaconType: "error", errorcode: "recording", errordesc: statistic });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(w.matchCalls).toHaveLength(1);
      expect(w.beaconIds()).not.toContain("webrec.nomatch");
    },
  );

  test("a tap listens again", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    w.interrupt(RecognitionFailure.recording("background"));
    await w.recognition.start(w.tap());
    expect(w.last()).toEqual({ screen: "listening", message: "listening" });
    await vi.advanceTimersByTimeAsync(12_000);
    expect(w.matchCalls).toHaveLength(4);
  });

  test("a shared tab's end is the tab's interruption", async () => {
    const w = world();
    await w.recognition.start(w.tap("tab"));
    w.interrupt(RecognitionFailure.recording("inputended"));
    expect(w.last()).toEqual({ screen: "interrupted", failure: "inputended", input: "tab" });
    expect(w.beaconIds()).toEqual(["webrec.tab.start", "webrec.tab.error"]);
  });
});

describe("a match", () => {
  test("stops listening, stores the match and opens the track page where the song was heard", async () => {
    const w = world({ answers: [{ matches: [] }, { matches: [matchOf()] }] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(6000);
    expect(w.state.microphoneStopped).toBe(true);
    expect(w.state.workerTerminated).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toHaveLength(2);
    expect(w.navigations).toHaveLength(1);
    const [navigation] = w.navigations;
    const url = new URL(navigation?.href ?? "", "https://tunewave.test");
    expect(url.pathname).toBe(`/track/${track.key}/${track.alias}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startDate: String(heardAt),
      offsetInMilliseconds: "95250",
      trackLength: "648008",
      timeSkew: "0.0012",
    });
    expect(navigation?.state).toEqual({
      origin: "webrec",
      source: "identify",
      id: track.key,
      bkgcolor: "1a2b3c",
      bkglight: false,
      title: track.title,
      artist: track.subtitle,
    });
    expect(latestMatch(w)).toMatchObject({
      trackId: track.key,
      startDate: heardAt,
      offset: 95_250,
      title: track.title,
      trackLength: 648_008,
    });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.match")).toMatchObject({
      beaconType: "userevent",
      trackid: track.key,
      timespent: 6000,
      screenname: "identify",
    });
    expect(w.screens.some((screen) => screen.screen === "matched")).toBe(true);
  });

  test("the track page is in the page's language", async () => {
    const w = world({ lang: "pt-br", answers: [{ matches: [matchOf()] }] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(3000);
    expect(w.navigations[0]?.href).toMatch(new RegExp(`^/pt-br/track/${track.key}/${track.alias}\\?`));
  });

  test("the match it replaces becomes webrec.prev_match", async () => {
    const w = world({ answers: [{ matches: [matchOf()] }] });
    const earlier: StoredMatch = {
      trackId: "111",
      weburl: "/track/111/earlier",
      startDate: t0 - 3_600_000,
      offset: 1000,
      timeskew: 0,
      frequencyskew: 0,
      matchedAt: t0 - 3_590_000,
    };
    w.storage.set("webrec.fab_match", earlier);
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(3000);
    const previous = w.storage.get("webrec.prev_match");
    expect(previous.ok && previous.value).toEqual(earlier);
    expect(latestMatch(w)?.trackId).toBe(track.key);
  });

  test("without the track lookup the page still opens, at the match's position", async () => {
    const w = world({ answers: [{ matches: [matchOf()] }], lookup: new SiteError("network", "offline") });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(3000);
    const url = new URL(w.navigations[0]?.href ?? "", "https://tunewave.test");
    expect(url.searchParams.get("offsetInMilliseconds")).toBe("95250");
    expect(url.searchParams.has("trackLength")).toBe(false);
  });

  test.each([
    ["the same page", `/track/${track.key}/${track.alias}`],
    ["the same page in another language", `/de/track/${track.key}/${track.alias}`],
  ])("on %s it shows the interstitial instead of navigating", async (_name, currentPath) => {
    const w = world({
      lang: currentPath.startsWith("/de/") ? "de" : "en",
      answers: [{ matches: [matchOf()] }],
      currentPath,
    });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(3000);
    expect(w.navigations).toEqual([]);
    const last = w.last();
    expect(last?.screen).toBe("interstitial");
    if (last?.screen === "interstitial") {
      expect(last.track).toMatchObject({ title: track.title, artist: track.subtitle, bkgcolor: "1a2b3c" });
      expect(last.track.href).toContain("offsetInMilliseconds=95250");
    }
  });

  test("an earlier checkpoint's slow match wins over the final empty answer", async () => {
    const w = world({
      answers: [
        { matches: [] },
        { matches: [] },
        { after: 4000, answer: { matches: [matchOf({ offset: 90_000 })] } },
        { matches: [] },
      ],
    });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(12_000);
    expect(w.beaconIds()).not.toContain("webrec.nomatch");
    await vi.advanceTimersByTimeAsync(1000);
    expect(w.navigations).toHaveLength(1);
    expect(w.beaconIds()).not.toContain("webrec.nomatch");
    expect(w.last()?.screen).toBe("matched");
  });

  test("answers that come after a match change nothing", async () => {
    const w = world({
      answers: [
        { after: 10_000, answer: { matches: [matchOf({ trackId: "999", weburl: "/track/999/x" })] } },
        { matches: [matchOf()] },
      ],
    });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(30_000);
    expect(w.navigations).toHaveLength(1);
    expect(w.navigations[0]?.href).toContain(`/track/${track.key}/`);
  });
});

describe("no match", () => {
  test("at 12 s: the no-match statistic, the no-match screen, everything stopped", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(11_999);
    expect(w.beaconIds()).not.toContain("webrec.nomatch");
    await vi.advanceTimersByTimeAsync(1);
    expect(w.last()).toEqual({ screen: "nomatch" });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.nomatch")).toMatchObject({
      beaconType: "userevent",
      timespent: 12_000,
    });
    expect(w.state.microphoneStopped).toBe(true);
    expect(w.state.workerTerminated).toBe(true);
    expect(w.navigations).toEqual([]);
  });

  test("waits for every checkpoint's answer before saying so", async () => {
    const w = world({
      answers: [{ matches: [] }, { matches: [] }, { after: 5000, answer: { matches: [] } }],
    });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(12_000);
    expect(w.last()?.screen).toBe("listening");
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.last()).toEqual({ screen: "nomatch" });
  });

  test("Try again starts a new session", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(12_000);
    expect(w.recognition.active).toBe(false);
    await w.recognition.start(w.tap());
    expect(w.recognition.active).toBe(true);
    expect(w.beaconIds().filter((id) => id === "webrec.start")).toHaveLength(2);
  });
});

describe("errors", () => {
  test("without a labelled audio input, the permission screen shows while the browser asks", async () => {
    const w = world({ labelled: false });
    await w.recognition.start(w.tap());
    expect(w.screens.map((screen) => screen.screen)).toEqual(["permission", "listening"]);
  });

  test("with a labelled audio input, listening starts at once", async () => {
    const w = world({ labelled: true });
    await w.recognition.start(w.tap());
    expect(w.screens.map((screen) => screen.screen)).toEqual(["listening"]);
  });

  test.each([
    [
      "a refused microphone",
      new DOMException("denied", "NotAllowedError"),
      { screen: "permission", denied: true },
      "microphonedenied",
    ],
    [
      "no microphone",
      new DOMException("none", "NotFoundError"),
      { screen: "error", failure: "nomicrophone", input: "microphone" },
      "nomicrophone",
    ],
    [
      "a microphone in use",
      new DOMException("busy", "NotReadableError"),
      { screen: "error", failure: "microphoneunavailable", input: "microphone" },
      "microphoneunavailable",
    ],
    [
      "no audio support",
      RecognitionFailure.recording("unsupported"),
      { screen: "error", failure: "unsupported", input: "microphone" },
      "audiounsupported",
    ],
  ])("%s: its screen and the recording error statistic", async (_name, error, screen, statistic) => {
    const w = world({ microphone: error });
    await w.recognition.start(w.tap());
    expect(w.last()).toEqual(screen);
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.error")).toMatchObject({
      beaconType: "error",
      errorcode: "recording",
      errordesc: statistic,
    });
    expect(w.state.workerTerminated).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toEqual([]);
  });

  test("a worker failure: the error screen and 'workerfailure'", async () => {
    const w = world({ signatureFailsAt: 1 });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(6000);
    expect(w.last()).toEqual({ screen: "error", failure: "worker", input: "microphone" });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.error")?.errordesc).toBe("workerfailure");
    expect(w.state.microphoneStopped).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toHaveLength(1);
  });

  test.each([
    [
      "an error answer",
      new SiteError("serviceerror", "POST: 400", {
        status: 400,
        body: JSON.stringify({ error: "invalidparam", message: "Invalid sessionId" }),
      }),
      "service-error:invalidparam",
    ],
    [
      "an answer that is not JSON",
      new SiteError("serviceerror", "POST: 502", { status: 502, body: "<html>" }),
      "service-error:serviceerror502",
    ],
    ["a timeout", new SiteError("timeout", "POST timed out"), "service-error:timeout"],
    ["a network failure", new SiteError("network", "POST failed"), "service-error:network"],
    [
      "an unexpected answer",
      new SiteError("baddata", "POST: unexpected", { status: 200 }),
      "service-error:baddata200",
    ],
  ])("a match service failure (%s): the error screen and '%s'", async (_name, error, statistic) => {
    const w = world({ answers: [{ matches: [] }, error] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(6000);
    expect(w.last()).toEqual({ screen: "error", failure: "service", input: "microphone" });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.error")).toMatchObject({
      beaconType: "error",
      errorcode: "serviceerror",
      errordesc: statistic,
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toHaveLength(2);
  });
});

describe("cancel", () => {
  test("records the time spent and stops everything", async () => {
    const w = world();
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(4500);
    w.recognition.cancel();
    expect(w.last()).toEqual({ screen: "idle" });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.cancel")).toMatchObject({
      beaconType: "userevent",
      timespent: 4500,
    });
    expect(w.state.microphoneStopped).toBe(true);
    expect(w.state.workerTerminated).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toHaveLength(1);
    expect(w.beaconIds()).not.toContain("webrec.nomatch");
  });

  test("an answer in flight when cancelled is ignored", async () => {
    const w = world({ answers: [{ after: 2000, answer: { matches: [matchOf()] } }] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(4000);
    w.recognition.cancel();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.navigations).toEqual([]);
    expect(w.last()).toEqual({ screen: "idle" });
  });

  test("does nothing when not listening", () => {
    const w = world();
    w.recognition.cancel();
    expect(w.beacons).toEqual([]);
  });
});

test("audiocapture=1 also posts every checkpoint's body to returnSig", async () => {
  const w = world({ audioCapture: true });
  await w.recognition.start(w.tap());
  await vi.advanceTimersByTimeAsync(12_000);
  expect(w.returnSigCalls).toEqual(w.matchCalls.map((call) => call.body));
  expect(w.returnSigCalls).toHaveLength(4);
});

test("without audiocapture nothing goes to returnSig", async () => {
  const w = world();
  await w.recognition.start(w.tap());
  await vi.advanceTimersByTimeAsync(12_000);
  expect(w.returnSigCalls).toEqual([]);
});

describe("recent identifications", () => {
  test("each match joins the device's list, under its recognition's session id", async () => {
    const w = world({ answers: [{ matches: [matchOf()] }] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(3000);
    expect(recentIdentifications(w.storage, Date.now())).toEqual([
      {
        sessionId: "session-1",
        trackId: track.key,
        weburl: `/track/${track.key}/${track.alias}`,
        title: track.title,
        artist: track.subtitle,
        matchedAt: t0 + 3000,
      },
    ]);
  });
});

describe("a file", () => {
  const file = new Blob(["audio"]);
  const decoded = (seconds: number): DecodedFile => ({
    samples: new Float32Array(seconds * 8000).fill(0.1),
    sampleRate: 8000,
  });

  test("its first 3, 6, 9 and 12 s are matched at once, one after the other, without the microphone", async () => {
    const w = world({ file: decoded(40) });
    await w.recognition.start({ kind: "file", file });
    expect(w.matchCalls.map((call) => call.at)).toEqual([0, 0, 0, 0]);
    expect(w.state.started).toBe(8000);
    expect(w.pushed.map((samples) => samples.length)).toEqual([24_000, 24_000, 24_000, 24_000]);
    expect(w.last()).toEqual({ screen: "nomatch" });
    expect(w.beaconIds()).toEqual(["webrec.file.start", "webrec.file.nomatch"]);
  });

  test("a file shorter than 12 s is tried at the checkpoints it holds, then whole", async () => {
    const w = world({ file: decoded(7) });
    await w.recognition.start({ kind: "file", file });
    expect(w.pushed.map((samples) => samples.length)).toEqual([24_000, 24_000, 8000]);
    expect(w.last()).toEqual({ screen: "nomatch" });
  });

  test("a match stops at its checkpoint, counted as the file's", async () => {
    const w = world({ file: decoded(40), answers: [{ matches: [] }, { matches: [matchOf()] }] });
    await w.recognition.start({ kind: "file", file });
    await vi.advanceTimersByTimeAsync(0);
    expect(w.matchCalls).toHaveLength(2);
    expect(w.navigations).toHaveLength(1);
    expect(w.beaconIds()).toEqual(["webrec.file.start", "webrec.file.match"]);
  });

  test("an undecodable file: its error screen and statistic, nothing matched", async () => {
    const w = world({ file: RecognitionFailure.recording("fileunreadable", "EncodingError") });
    await w.recognition.start({ kind: "file", file });
    expect(w.last()).toEqual({ screen: "error", failure: "fileunreadable", input: "file" });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.file.error")?.errordesc).toBe(
      "fileunreadable",
    );
    expect(w.matchCalls).toEqual([]);
  });
});

describe("this browser's audio", () => {
  test("a shared tab is heard as the microphone is, at the same checkpoints, counted apart", async () => {
    const w = world();
    await w.recognition.start(w.tap("tab"));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls.map((call) => call.at)).toEqual(RECORDING_CHECKPOINTS_SECONDS.map((s) => s * 1000));
    expect(w.beaconIds()).toEqual(["webrec.tab.start", "webrec.tab.nomatch"]);
  });

  test.each([
    ["a refused share", new DOMException("denied", "NotAllowedError"), "tabdenied", "tabaudiodenied"],
    ["a share without sound", RecognitionFailure.recording("notabaudio"), "notabaudio", "notabaudio"],
  ])(
    "%s: its error screen, not the microphone's permission screen",
    async (_name, error, failure, statistic) => {
      const w = world({ tab: error });
      await w.recognition.start(w.tap("tab"));
      expect(w.last()).toEqual({ screen: "error", failure, input: "tab" });
      expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.tab.error")?.errordesc).toBe(statistic);
    },
  );
});

describe("heard offline (decision 057)", () => {
  const networkDown = () => new SiteError("network", "POST /services/webrec/match failed: Failed to fetch");

  test("offline from the start: nothing is sent, the last signature is kept under the session's id", async () => {
    const w = world({ keep: "keeps", online: () => false });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toEqual([]);
    expect(w.kept).toEqual([{ id: "session-1", data: "c2lnbmF0dXJl3", lang: "en", country: "GB", heardAt }]);
    expect(w.last()).toEqual({ screen: "kept" });
    expect(w.beaconIds()).toEqual(["webrec.start", "webrec.kept"]);
    expect(w.state.microphoneStopped).toBe(true);
    expect(w.state.workerTerminated).toBe(true);
  });

  test("the network lost at a checkpoint: listening goes on to the end, nothing more is sent", async () => {
    const w = world({ keep: "keeps", answers: [{ matches: [] }, networkDown()] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toHaveLength(2);
    expect(w.kept.map((recording) => recording.data)).toEqual(["c2lnbmF0dXJl3"]);
    expect(w.last()).toEqual({ screen: "kept" });
    expect(w.beaconIds()).not.toContain("webrec.error");
  });

  test("a file heard offline is kept at its last checkpoint", async () => {
    const w = world({
      keep: "keeps",
      online: () => false,
      file: { samples: new Float32Array(40 * 8000).fill(0.1), sampleRate: 8000 },
    });
    await w.recognition.start({ kind: "file", file: new Blob(["audio"]) });
    expect(w.matchCalls).toEqual([]);
    expect(w.kept).toHaveLength(1);
    expect(w.last()).toEqual({ screen: "kept" });
  });

  test("an earlier checkpoint's match still wins over the network lost after it", async () => {
    const w = world({
      keep: "keeps",
      answers: [{ after: 4000, answer: { matches: [matchOf()] } }, networkDown()],
    });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.kept).toEqual([]);
    expect(w.navigations).toHaveLength(1);
  });

  test("stopped while offline: nothing is kept", async () => {
    const w = world({ keep: "keeps", online: () => false });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(7000);
    w.recognition.cancel();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.kept).toEqual([]);
    expect(w.last()).toEqual({ screen: "idle" });
  });

  test("where nothing can be kept, the network failure is the service error it always was", async () => {
    const w = world({ keep: "fails", answers: [networkDown()] });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.matchCalls).toHaveLength(1);
    expect(w.last()).toEqual({ screen: "error", failure: "service", input: "microphone" });
    expect(w.beacons.find((beacon) => beacon.beaconId === "webrec.error")).toMatchObject({
      errorcode: "serviceerror",
      errordesc: "service-error:network",
    });
  });

  test("an error answer is no reason to keep: it is the service error", async () => {
    const w = world({
      keep: "keeps",
      answers: [new SiteError("serviceerror", "POST: 503", { status: 503 })],
    });
    await w.recognition.start(w.tap());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.kept).toEqual([]);
    expect(w.last()).toEqual({ screen: "error", failure: "service", input: "microphone" });
  });
});
