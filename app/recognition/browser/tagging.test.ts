import { afterEach, describe, expect, test, vi } from "vitest";
import type { SignatureSample, TagContext } from "#app/bridge/bridge-schema.ts";
import { installBridge } from "#app/bridge/browser/bridge.ts";
import {
  createTagClient,
  createTagTracker,
  initialTagTrackingState,
  isSynced,
  nextTagTrackingState,
  type TagMatch,
  type TagTrackingEvent,
  type TagTrackingState,
  tagMatchOf,
  tagTiming,
  watchVisibility,
} from "#app/recognition/browser/tagging.ts";
import { SiteError } from "#rules/errors.ts";
import { installFakeAppHost } from "#tests/e2e/fake-app-hosts.ts";

afterEach(() => {
  vi.useRealTimers();
});

const about = { os: { APILevel: 30 }, client: { version: "14.2.0" } };

/** A tag made 10 s into track "77": the track started at 1_000_000. */
function tagContext(overrides: Partial<TagContext> = {}): TagContext {
  return {
    timestamp: 1_010_000,
    tagtimestamp: 1_010_000,
    offset: 10_000,
    sessionStart: 1_000_000,
    trackid: "77",
    timeskew: 0,
    frequencyskew: 0,
    isNative: true,
    ...overrides,
  };
}

/** A match of a sample recorded at `timestamp` whose session start is off by `drift` ms. */
function match(timestamp: number, drift = 0, id = "77"): TagMatch {
  return { id, timestamp, timeSkew: 0.001, frequencySkew: 0.002, matchOffset: timestamp - 1_000_000 - drift };
}

function sample(timestamp = 1_016_000): SignatureSample {
  return { signature: "AAAA", timestamp };
}

function failure(type: SiteError["type"]): SiteError {
  return new SiteError(type, type);
}

function tracking(checks: TagTrackingState["checks"] = []): TagTrackingState {
  return { ...initialTagTrackingState, status: "tracking", context: tagContext(), checks };
}

describe("tag client (spec 002 §5)", () => {
  function appBridge(replies: Record<string, { data?: unknown; error?: string }> = {}) {
    const win: Record<string, unknown> = {};
    const host = installFakeAppHost(win, { platform: "android", about, replies });
    return { bridge: installBridge(win, { log: vi.fn() }), sent: host.__bridgeSent };
  }

  test.each([
    ["no partner id", undefined],
    ["an empty partner id", ""],
    ["a blank partner id", "   "],
  ])("init with %s fails with invalidparam 'Invalid partner id'", (_, partnerId) => {
    const { bridge } = appBridge();
    expect(() => createTagClient(bridge).init(partnerId)).toThrow(
      expect.objectContaining({ type: "invalidparam", message: "Invalid partner id" }),
    );
  });

  test("init without bridge support fails with unsupported 'No bridge support'", () => {
    const bridge = installBridge({}, { log: vi.fn() });
    expect(() => createTagClient(bridge).init("partner-1")).toThrow(
      expect.objectContaining({ type: "unsupported", message: "No bridge support" }),
    );
  });

  test.each([
    ["before init", () => {}],
    [
      "after a failed init",
      (client: ReturnType<typeof createTagClient>) => {
        try {
          client.init("");
        } catch {
          // expected
        }
      },
    ],
  ])("requestSig %s fails with 'init unsuccessful or not called'", async (_, prepare) => {
    const { bridge, sent } = appBridge();
    const client = createTagClient(bridge);
    prepare(client);
    await expect(client.requestSig()).rejects.toMatchObject({
      type: "serviceerror",
      message: "init unsuccessful or not called",
    });
    expect(sent.some((message) => message.type === "requestSig")).toBe(false);
  });

  test("requestSig asks the app for a 5000 ms sample and returns its signature", async () => {
    const { bridge, sent } = appBridge({
      requestSig: { data: { signature: "AAAA", timestamp: 1234, sampleMs: 5000 } },
    });
    const client = createTagClient(bridge);
    client.init("partner-1");
    await expect(client.requestSig()).resolves.toEqual({
      signature: "AAAA",
      timestamp: 1234,
      sampleMs: 5000,
    });
    expect(sent.find((message) => message.type === "requestSig")).toMatchObject({
      data: { partnerId: "partner-1", sampleMs: tagTiming.signatureSampleMs },
    });
  });

  test.each([
    ["without data", {}, "serviceerror", "invalid response"],
    ["with null data", { data: null }, "serviceerror", "invalid response"],
    [
      "with a signature that is not base64",
      { data: { signature: "not base64!", timestamp: 1 } },
      "baddata",
      undefined,
    ],
  ])("a signature response %s is refused", async (_, reply, type, message) => {
    const { bridge } = appBridge({ requestSig: reply });
    const client = createTagClient(bridge);
    client.init("partner-1");
    const error = await client.requestSig().catch((thrown: unknown) => thrown);
    expect(error).toMatchObject(message === undefined ? { type } : { type, message });
  });
});

describe("matches", () => {
  test("the first match of the matcher's answer, placed at the sample's recording time", () => {
    const answer = {
      matches: [
        { trackId: "77", weburl: "/track/77/a", offset: 12_500, timeskew: 0.001, frequencyskew: -0.002 },
        { trackId: "88", weburl: "/track/88/b", offset: 1, timeskew: 0, frequencyskew: 0 },
      ],
    };
    expect(tagMatchOf(answer, sample(1_016_000))).toEqual({
      id: "77",
      timestamp: 1_016_000,
      timeSkew: 0.001,
      frequencySkew: -0.002,
      matchOffset: 12_500,
    });
  });

  test("no match is notfound 'No match'", () => {
    expect(() => tagMatchOf({ matches: [] }, sample())).toThrow(
      expect.objectContaining({ type: "notfound", message: "No match" }),
    );
  });

  test.each([
    [0, "77", true],
    [499, "77", true],
    [-499, "77", true],
    [500, "77", false],
    [-500, "77", false],
    [2000, "77", false],
    [0, "78", false],
  ])("drift %d ms on track %s is synced: %s", (drift, id, synced) => {
    expect(isSynced(tagContext(), match(1_016_000, drift, id))).toBe(synced);
  });
});

describe("tag-tracking transitions (spec 002 §4)", () => {
  const interrupted: TagTrackingState = { ...tracking(), status: "interrupted" };
  const stoppedDone: TagTrackingState = { ...tracking(), status: "stopped", stopReason: "done" };
  const newContext = tagContext({ trackid: "88" });

  test.each<[string, TagTrackingState, TagTrackingEvent, Partial<TagTrackingState>]>([
    [
      "idle + start",
      initialTagTrackingState,
      { type: "start", context: newContext },
      { status: "tracking", context: newContext },
    ],
    [
      "stopped + start",
      stoppedDone,
      { type: "start", context: newContext },
      { status: "tracking", context: newContext, stopReason: undefined },
    ],
    [
      "interrupted + start",
      interrupted,
      { type: "start", context: newContext },
      { status: "tracking", context: newContext },
    ],
    [
      "tracking + start",
      tracking([failure("timeout")]),
      { type: "start", context: newContext },
      { status: "tracking", checks: [] },
    ],
    [
      "tracking + stop",
      tracking(),
      { type: "stop" },
      { status: "stopped", stopReason: "done", error: undefined },
    ],
    ["interrupted + stop", interrupted, { type: "stop" }, { status: "stopped", stopReason: "done" }],
    ["idle + stop", initialTagTrackingState, { type: "stop" }, { status: "idle" }],
    ["tracking + background", tracking(), { type: "background" }, { status: "interrupted" }],
    ["interrupted + foreground", interrupted, { type: "foreground" }, { status: "tracking" }],
    ["tracking + foreground", tracking(), { type: "foreground" }, { status: "tracking" }],
    ["idle + background", initialTagTrackingState, { type: "background" }, { status: "idle" }],
    ["stopped + foreground", stoppedDone, { type: "foreground" }, { status: "stopped" }],
    [
      "tracking + synced match",
      tracking(),
      { type: "matched", match: match(1_016_000, 200) },
      { status: "tracking", checks: [undefined] },
    ],
    [
      "tracking + drifted match",
      tracking(),
      { type: "matched", match: match(1_016_000, 500) },
      { status: "stopped", stopReason: "outofsync" },
    ],
    [
      "tracking + other track",
      tracking(),
      { type: "matched", match: match(1_016_000, 0, "99") },
      { status: "stopped", stopReason: "outofsync" },
    ],
    [
      "interrupted + match",
      interrupted,
      { type: "matched", match: match(1_016_000, 900) },
      { status: "interrupted" },
    ],
    [
      "tracking + outofsync error",
      tracking(),
      { type: "failed", error: failure("outofsync") },
      { status: "stopped", stopReason: "outofsync" },
    ],
    [
      "tracking + jserror",
      tracking(),
      { type: "failed", error: failure("jserror") },
      { status: "stopped", stopReason: "jserror" },
    ],
    [
      "tracking + first failure",
      tracking(),
      { type: "failed", error: failure("notfound") },
      { status: "tracking" },
    ],
    [
      "stopped + failure",
      stoppedDone,
      { type: "failed", error: failure("notfound") },
      { status: "stopped", stopReason: "done" },
    ],
  ])("%s", (_, state, event, expected) => {
    expect(nextTagTrackingState(state, event)).toMatchObject(expected);
  });

  test("a synced match updates the context's time and skews, keeping the original session start", () => {
    const next = nextTagTrackingState(tracking(), { type: "matched", match: match(1_016_000, 300) });
    expect(next.context).toMatchObject({
      timestamp: 1_016_000,
      timeskew: 0.001,
      frequencyskew: 0.002,
      sessionStart: 1_000_000,
    });
  });

  test("an out-of-sync stop carries an outofsync error", () => {
    const next = nextTagTrackingState(tracking(), { type: "matched", match: match(1_016_000, -800) });
    expect(next.error).toMatchObject({ type: "outofsync", message: "Session start drifted -800 ms" });
  });

  const ok = undefined;
  const bad = failure("serviceerror");
  test.each<[string, (SiteError | undefined)[], TagTrackingState["status"], number]>([
    ["three failures in a row stop with a sync error", [bad, bad, bad], "stopped", 3],
    ["a synced check between failures keeps tracking", [bad, ok, bad, bad], "tracking", 2],
    ["two failures stay under the threshold", [bad, bad], "tracking", 2],
    ["the oldest outcome is dropped at the threshold", [ok, ok, ok, ok], "tracking", 2],
    ["failures after a dropped success still stop", [ok, bad, bad, bad], "stopped", 3],
  ])("%s", (_, outcomes, status, kept) => {
    let state = tracking();
    for (const outcome of outcomes) {
      state = nextTagTrackingState(
        state,
        outcome === undefined
          ? { type: "matched", match: match(1_016_000) }
          : { type: "failed", error: outcome },
      );
    }
    expect(state.status).toBe(status);
    expect(state.checks).toHaveLength(kept);
    if (status === "stopped") expect(state).toMatchObject({ stopReason: "syncerror", error: bad });
  });

  test("the threshold is the configured error threshold", () => {
    const limits = { driftLimitMs: tagTiming.driftLimitMs, errorThreshold: 2 };
    const once = nextTagTrackingState(tracking(), { type: "failed", error: bad }, limits);
    expect(nextTagTrackingState(once, { type: "failed", error: bad }, limits).status).toBe("stopped");
  });
});

describe("tag tracker (timers)", () => {
  type Step = { sig?: SignatureSample | SiteError | Error; match?: TagMatch | SiteError | Error };

  /** A tracker whose sync checks play `steps` in order, then keep matching in sync. */
  function trackerOf(steps: Step[]) {
    const requestSig = vi.fn(async (): Promise<SignatureSample> => {
      const step = steps[0];
      if (step?.sig instanceof Error) {
        steps.shift();
        throw step.sig;
      }
      return step?.sig ?? sample(Date.now());
    });
    const matchFn = vi.fn(async (signature: SignatureSample): Promise<TagMatch> => {
      const step = steps.shift();
      if (step?.match instanceof Error) throw step.match;
      return step?.match ?? match(signature.timestamp);
    });
    const onChange = vi.fn();
    const onError = vi.fn();
    const tracker = createTagTracker({ requestSig, match: matchFn, onChange, onError });
    return { tracker, requestSig, matchFn, onChange, onError };
  }

  function startAt(time = 1_010_000) {
    vi.useFakeTimers({ now: time });
  }

  test("checks one server interval after start, then every interval while in sync", async () => {
    startAt();
    const { tracker, requestSig } = trackerOf([]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs - 1);
    expect(requestSig).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(requestSig).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs * 2);
    expect(requestSig).toHaveBeenCalledTimes(3);
    expect(tracker.state().status).toBe("tracking");
  });

  test("out of sync stops at once: no further checks, an error reported", async () => {
    startAt();
    const { tracker, requestSig, onError } = trackerOf([{ match: match(1_016_000, 1500) }]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    expect(tracker.state()).toMatchObject({ status: "stopped", stopReason: "outofsync" });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ type: "outofsync" }), "outofsync");
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs * 3);
    expect(requestSig).toHaveBeenCalledTimes(1);
  });

  test("a not-found is retried once after 1 s, and a found retry counts as synced", async () => {
    startAt();
    const { tracker, requestSig } = trackerOf([{ match: failure("notfound") }]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    expect(requestSig).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(tagTiming.syncRetryDelayMs - 1);
    expect(requestSig).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requestSig).toHaveBeenCalledTimes(2);
    expect(tracker.state()).toMatchObject({ status: "tracking", checks: [undefined] });
  });

  test("a second not-found is collected as a failure, not retried again", async () => {
    startAt();
    const { tracker, requestSig } = trackerOf([
      { match: failure("notfound") },
      { match: failure("notfound") },
    ]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs + tagTiming.syncRetryDelayMs);
    expect(requestSig).toHaveBeenCalledTimes(2);
    expect(tracker.state().checks).toEqual([expect.objectContaining({ type: "notfound" })]);
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs - 1);
    expect(requestSig).toHaveBeenCalledTimes(2);
  });

  test("other errors are not retried; three failing checks in a row stop with a sync error", async () => {
    startAt();
    const { tracker, requestSig, onError } = trackerOf([
      { sig: failure("timeout") },
      { sig: failure("serviceerror") },
      { match: failure("network") },
    ]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs * 3);
    expect(requestSig).toHaveBeenCalledTimes(3);
    expect(tracker.state()).toMatchObject({ status: "stopped", stopReason: "syncerror" });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ type: "network" }), "syncerror");
  });

  test("a failure of the page's own code (a plain error) stops tracking as jserror", async () => {
    startAt();
    const { tracker, onError } = trackerOf([{ match: new Error("x is undefined") }]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    expect(tracker.state()).toMatchObject({ status: "stopped", stopReason: "jserror" });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ type: "jserror" }), "jserror");
  });

  test("backgrounding interrupts: the check in flight is discarded and none run until the view reappears", async () => {
    startAt();
    let answer: (value: TagMatch) => void = () => {};
    const { tracker, requestSig, matchFn } = trackerOf([]);
    matchFn.mockImplementationOnce(() => new Promise<TagMatch>((resolve) => (answer = resolve)));
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    tracker.background();
    answer(match(1_016_000, 3000));
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs * 3);
    expect(tracker.state().status).toBe("interrupted");
    expect(requestSig).toHaveBeenCalledTimes(1);

    tracker.foreground();
    await vi.advanceTimersByTimeAsync(0);
    expect(requestSig).toHaveBeenCalledTimes(2);
    expect(tracker.state().status).toBe("tracking");
  });

  test("a background during the not-found retry wait cancels the retry", async () => {
    startAt();
    const { tracker, requestSig } = trackerOf([{ match: failure("notfound") }]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    tracker.background();
    await vi.advanceTimersByTimeAsync(tagTiming.syncRetryDelayMs * 5);
    expect(requestSig).toHaveBeenCalledTimes(1);
  });

  test("stop ends tracking with reason done and no more checks", async () => {
    startAt();
    const { tracker, requestSig, onError, onChange } = trackerOf([]);
    tracker.start(tagContext());
    tracker.stop();
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs * 2);
    expect(tracker.state()).toMatchObject({ status: "stopped", stopReason: "done" });
    expect(requestSig).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
    expect(onChange.mock.calls.map(([state]) => state.status)).toEqual(["tracking", "stopped"]);
  });

  test("a foreground retag restarts a stopped tracker with the new context", async () => {
    startAt();
    const { tracker, requestSig } = trackerOf([{ match: match(1_016_000, 5000) }]);
    tracker.start(tagContext());
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    expect(tracker.state().status).toBe("stopped");
    const retag = tagContext({ sessionStart: Date.now() - 30_000, trackid: "77" });
    tracker.start(retag);
    expect(tracker.state()).toMatchObject({ status: "tracking", context: retag });
    await vi.advanceTimersByTimeAsync(tagTiming.serverIntervalMs);
    expect(requestSig).toHaveBeenCalledTimes(2);
  });

  test("the page's visibility interrupts and resumes tracking", () => {
    const listeners: (() => void)[] = [];
    const source = {
      visibilityState: "visible",
      addEventListener: (_: "visibilitychange", listener: () => void) => listeners.push(listener),
      removeEventListener: vi.fn(),
    };
    const tracker = { background: vi.fn(), foreground: vi.fn() };
    const unsubscribe = watchVisibility(source, tracker);
    source.visibilityState = "hidden";
    for (const listener of listeners) listener();
    source.visibilityState = "visible";
    for (const listener of listeners) listener();
    expect(tracker.background).toHaveBeenCalledTimes(1);
    expect(tracker.foreground).toHaveBeenCalledTimes(1);
    unsubscribe();
    expect(source.removeEventListener).toHaveBeenCalledWith("visibilitychange", listeners[0]);
  });
});
