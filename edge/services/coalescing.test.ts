import { afterEach, describe, expect, test, vi } from "vitest";
import { SiteError } from "#rules/errors.ts";
import { deferred } from "#tests/deferred.ts";
import type { Outcome } from "./coalescing.ts";
import {
  asCoalesced,
  type CacheSource,
  createInFlight,
  flightDeadlineMs,
  type Resolved,
} from "./coalescing.ts";

// Identical cached GETs in flight at once share one upstream call, unless the answer belongs to
// the caller who asked, and nobody waits on a flight past its deadline.

afterEach(() => {
  vi.useRealTimers();
});

const outcomeFrom = (source: CacheSource): Outcome => ({
  source,
  result: { failure: { type: "serviceerror", message: source } },
});

describe("asCoalesced: what a caller that joined a flight reports", () => {
  test.each<[CacheSource, CacheSource]>([
    ["miss", "coalesced"],
    ["hit", "hit"],
    ["stale", "stale"],
    ["failure", "failure"],
    ["coalesced", "coalesced"],
  ])("%s → %s", (source, reported) => {
    expect(asCoalesced(outcomeFrom(source)).source).toBe(reported);
  });
});

describe("flightDeadlineMs: every try's timeout and pause, and one timeout more", () => {
  test.each([
    { retry: false, timeoutMs: 1_000, retryDelayMs: 100, deadline: 2 * 1_000 },
    // Three tries (two retries), pausing 100 then 200 ms between them.
    { retry: true, timeoutMs: 1_000, retryDelayMs: 100, deadline: 4 * 1_000 + 100 + 200 },
    { retry: true, timeoutMs: 5_000, retryDelayMs: 0, deadline: 4 * 5_000 },
  ])("retry $retry, timeout $timeoutMs, first pause $retryDelayMs → $deadline ms", (row) => {
    expect(flightDeadlineMs(row.retry, row)).toBe(row.deadline);
  });
});

describe("createInFlight", () => {
  const joined = (outcome: string) => `${outcome} (joined)`;
  const call = (identity: string, signal?: AbortSignal) => ({ key: "/services/x", identity, signal });
  const resolved = (outcome: string, shareable: boolean, identity: string): Resolved<string> => ({
    outcome,
    shareable,
    identity,
  });

  test.each([
    { case: "shareable, another identity", shareable: true, second: "b", shared: true },
    { case: "not shareable, the same identity", shareable: false, second: "a", shared: true },
    { case: "not shareable, another identity", shareable: false, second: "b", shared: false },
  ])("a call joining a flight ($case) shares it: $shared", async ({ shareable, second, shared }) => {
    const flights = createInFlight(joined);
    const first = deferred<Resolved<string>>();
    const own = vi.fn(async () => resolved("own", true, second));
    const a = flights.join(call("a"), 1_000, () => first.promise);
    const b = flights.join(call(second), 1_000, own);
    first.resolve(resolved("first", shareable, "a"));
    expect(await a).toBe("first");
    expect(await b).toBe(shared ? "first (joined)" : "own");
    expect(own).toHaveBeenCalledTimes(shared ? 0 : 1);
  });

  test("a settled flight is gone: the next call asks again", async () => {
    const flights = createInFlight(joined);
    const resolve = vi.fn(async () => resolved("answer", true, "a"));
    await flights.join(call("a"), 1_000, resolve);
    expect(await flights.join(call("a"), 1_000, resolve)).toBe("answer");
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  test("a flight past its deadline is dropped: the waiting call asks on its own, and later calls join it", async () => {
    vi.useFakeTimers();
    const flights = createInFlight(joined);
    void flights.join(call("a"), 1_000, () => new Promise<Resolved<string>>(() => {}));
    const second = deferred<Resolved<string>>();
    const waiting = flights.join(call("b"), 1_000, () => second.promise);
    await vi.advanceTimersByTimeAsync(1_000);
    const third = vi.fn(async () => resolved("third", true, "c"));
    const joining = flights.join(call("c"), 1_000, third);
    second.resolve(resolved("second", true, "b"));
    expect(await waiting).toBe("second");
    expect(await joining).toBe("second (joined)");
    expect(third).not.toHaveBeenCalled();
  });

  test("a caller that aborts stops waiting; the flight goes on for the others", async () => {
    const flights = createInFlight(joined);
    const first = deferred<Resolved<string>>();
    const controller = new AbortController();
    const leaving = flights.join(call("a", controller.signal), 1_000, () => first.promise);
    const staying = flights.join(call("b"), 1_000, async () => resolved("own", true, "b"));
    controller.abort();
    const error = await leaving.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).type).toBe("abort");
    first.resolve(resolved("first", true, "a"));
    expect(await staying).toBe("first (joined)");
  });
});
