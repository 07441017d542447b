import { afterEach, describe, expect, test, vi } from "vitest";
import { SiteError } from "#rules/errors.ts";
import { deferred } from "#tests/deferred.ts";
import { raceSignal, sleep, untilAborted, withDeadline } from "./signals.ts";

// The proxy's waits: a caller's abort ends them at once, a deadline ends them quietly.

afterEach(() => {
  vi.useRealTimers();
});

describe("untilAborted", () => {
  test("without a signal it is the promise itself", () => {
    const promise = Promise.resolve(1);
    expect(untilAborted(promise, undefined)).toBe(promise);
  });

  test("settles with the promise while the signal has not aborted", async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.resolve("answer"), controller.signal)).resolves.toBe("answer");
    await expect(untilAborted(Promise.reject(new Error("down")), controller.signal)).rejects.toThrow("down");
  });

  test("rejects with an abort SiteError as soon as the signal aborts, the promise still pending", async () => {
    const controller = new AbortController();
    const pending = deferred<string>();
    const waiting = untilAborted(pending.promise, controller.signal);
    controller.abort(new Error("the caller left"));
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).type).toBe("abort");
  });

  test("a signal aborted before the call rejects at once", async () => {
    const error = await untilAborted(new Promise(() => {}), AbortSignal.abort()).catch((caught) => caught);
    expect((error as SiteError).type).toBe("abort");
  });
});

describe("withDeadline", () => {
  test("settles with the promise before the deadline, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const pending = deferred<string>();
    const waiting = withDeadline(pending.promise, 1_000);
    pending.resolve("answer");
    await expect(waiting).resolves.toBe("answer");
    expect(vi.getTimerCount()).toBe(0);
  });

  test("passes a rejection on, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const pending = deferred<string>();
    const waiting = withDeadline(pending.promise, 1_000);
    pending.reject(new Error("down"));
    await expect(waiting).rejects.toThrow("down");
    expect(vi.getTimerCount()).toBe(0);
  });

  test("settles with undefined once the deadline has passed, not a millisecond before", async () => {
    vi.useFakeTimers();
    let settled: string | undefined | "pending" = "pending";
    void withDeadline(new Promise<string>(() => {}), 1_000).then((value) => {
      settled = value;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeUndefined();
  });
});

describe("raceSignal", () => {
  test("rejects with the signal's own reason (not a SiteError: the caller decides what it means)", async () => {
    const controller = new AbortController();
    const reason = new Error("timed out");
    const waiting = raceSignal(new Promise(() => {}), controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  test("an already aborted signal rejects at once", async () => {
    const reason = new Error("gone");
    await expect(raceSignal(new Promise(() => {}), AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  test("settles with the promise, and a later abort changes nothing", async () => {
    const controller = new AbortController();
    const waiting = raceSignal(Promise.resolve("answer"), controller.signal);
    await expect(waiting).resolves.toBe("answer");
    controller.abort();
    await expect(waiting).resolves.toBe("answer");
  });
});

test("sleep resolves after its milliseconds, not before", async () => {
  vi.useFakeTimers();
  let slept = false;
  void sleep(100).then(() => {
    slept = true;
  });
  await vi.advanceTimersByTimeAsync(99);
  expect(slept).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(slept).toBe(true);
});
