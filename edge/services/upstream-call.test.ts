import { describe, expect, test, vi } from "vitest";
import { SiteError } from "#rules/errors.ts";
import type { Answer } from "./cache.ts";
import type { RememberedFailure } from "./failure-memory.ts";
import * as limits from "./limits.ts";
import type { Upstream } from "./upstream.ts";
import {
  callOf,
  exchange,
  failureOfAnswer,
  failureOfError,
  failureOfResult,
  isOutage,
  isRetryable,
  isShareableFailure,
  type Result,
} from "./upstream-call.ts";

// What an upstream result means to the proxy (decisions 028, 059): which failures are the URL's (shared
// and remembered), which are the caller's own, which are retried, and how one call is made.

const answer = (status: number, headers: [string, string][] = [], bytes = 2): Answer => ({
  status,
  headers,
  body: new Uint8Array(bytes),
});

describe("failureOfAnswer", () => {
  test.each([
    { status: 401, type: "unauthorized" },
    { status: 404, type: "serviceerror" },
    { status: 503, type: "serviceerror" },
  ])("$status → $type", ({ status, type }) => {
    expect(failureOfAnswer(answer(status))).toMatchObject({
      type,
      status,
      message: `${status} from upstream`,
    });
  });

  test("keeps the answer to replay only while it is small", () => {
    const { maxBodyBytes } = limits.failureMemoryLimits;
    expect(failureOfAnswer(answer(500, [], maxBodyBytes)).answer).toBeDefined();
    expect(failureOfAnswer(answer(500, [], maxBodyBytes + 1)).answer).toBeUndefined();
  });
});

describe("isShareableFailure: a failed answer is the URL's unless it is the caller's", () => {
  test.each<{ case: string; status: number; headers: [string, string][]; shareable: boolean }>([
    { case: "a 500", status: 500, headers: [], shareable: true },
    { case: "a 404", status: 404, headers: [["cache-control", "public, max-age=60"]], shareable: true },
    { case: "a 401 (their credentials)", status: 401, headers: [], shareable: false },
    { case: "one that sets a cookie", status: 500, headers: [["set-cookie", "a=b"]], shareable: false },
    { case: "one marked private", status: 500, headers: [["cache-control", "private"]], shareable: false },
    {
      case: "private after another directive",
      status: 503,
      headers: [["cache-control", "no-store, private"]],
      shareable: false,
    },
    {
      case: "a word holding 'private'",
      status: 500,
      headers: [["cache-control", "x-notprivate"]],
      shareable: true,
    },
  ])("$case → $shareable", ({ status, headers, shareable }) => {
    expect(isShareableFailure(answer(status, headers))).toBe(shareable);
  });
});

describe("isOutage and isRetryable: the upstream is down, not saying no", () => {
  const failure = (type: RememberedFailure["type"], status?: number): Result => ({
    failure: { type, message: type, ...(status === undefined ? {} : { status }) },
  });
  // A body over the limit is an outage a stale copy may answer, but a retry would not shrink it.
  test.each<{ case: string; result: Result; outage: boolean; retried: boolean }>([
    { case: "an answer 500", result: { answer: answer(500) }, outage: true, retried: true },
    { case: "an answer 503", result: { answer: answer(503) }, outage: true, retried: true },
    { case: "an answer 404", result: { answer: answer(404) }, outage: false, retried: false },
    { case: "an answer 429", result: { answer: answer(429) }, outage: false, retried: false },
    { case: "a timeout", result: failure("timeout"), outage: true, retried: true },
    { case: "a network error", result: failure("network"), outage: true, retried: true },
    { case: "the caller's abort", result: failure("abort"), outage: false, retried: false },
    {
      case: "an answer over the limit (502)",
      result: failure("serviceerror", 502),
      outage: true,
      retried: false,
    },
    {
      case: "a service error without status",
      result: failure("serviceerror"),
      outage: false,
      retried: false,
    },
  ])("$case: outage $outage, retried $retried", ({ result, outage, retried }) => {
    expect(isOutage("answer" in result ? failureOfAnswer(result.answer) : result.failure)).toBe(outage);
    expect(isRetryable(result)).toBe(retried);
  });
});

describe("failureOfResult: a shareable failure is the one remembered (decision 059)", () => {
  test.each<{ case: string; result: Result; shareable: boolean }>([
    { case: "an answer 500", result: { answer: answer(500) }, shareable: true },
    { case: "an answer 404", result: { answer: answer(404) }, shareable: true },
    { case: "an answer 401", result: { answer: answer(401) }, shareable: false },
    {
      case: "a private 503",
      result: { answer: answer(503, [["cache-control", "private"]]) },
      shareable: false,
    },
    { case: "a timeout", result: { failure: { type: "timeout", message: "t" } }, shareable: true },
    { case: "the caller's abort", result: { failure: { type: "abort", message: "a" } }, shareable: false },
  ])("$case: shareable $shareable", ({ result, shareable }) => {
    expect(failureOfResult(result)).toMatchObject({ shareable });
  });
});

describe("failureOfError (spec 000 §8)", () => {
  const aborted = AbortSignal.abort();
  const named = (name: string) => new DOMException("x", name);
  test.each<{ case: string; error: unknown; signals: Parameters<typeof failureOfError>[1]; type: string }>([
    {
      case: "a SiteError as it is",
      error: new SiteError("limitexceeded", "over"),
      signals: {},
      type: "limitexceeded",
    },
    {
      case: "the try's timeout fired",
      error: new Error("x"),
      signals: { timeout: aborted },
      type: "timeout",
    },
    { case: "the caller aborted", error: new Error("x"), signals: { caller: aborted }, type: "abort" },
    {
      case: "both: the timeout wins",
      error: new Error("x"),
      signals: { timeout: aborted, caller: aborted },
      type: "timeout",
    },
    { case: "a TimeoutError", error: named("TimeoutError"), signals: {}, type: "timeout" },
    { case: "an AbortError", error: named("AbortError"), signals: {}, type: "abort" },
    { case: "anything else", error: new TypeError("fetch failed"), signals: {}, type: "network" },
    { case: "not even an Error", error: "boom", signals: {}, type: "network" },
  ])("$case → $type", ({ error, signals, type }) => {
    expect(failureOfError(error, signals).type).toBe(type);
  });
});

describe("callOf", () => {
  const input = (method: string, path: string, noCache = false) => ({
    method,
    url: new URL(`https://site.test${path}`),
    headers: new Headers({ cookie: "session=s" }),
    body: null,
    retry: false,
    noCache,
    redirect: "manual" as const,
    signal: undefined,
    waitUntil: undefined,
  });

  test.each([
    {
      case: "a shared GET",
      method: "get",
      path: "/services/charts/locations",
      noCache: false,
      cached: true,
      stamped: false,
    },
    {
      case: "a no-cache GET",
      method: "GET",
      path: "/services/charts/locations",
      noCache: true,
      cached: false,
      stamped: true,
    },
    {
      case: "a POST",
      method: "POST",
      path: "/services/charts/locations?a=1",
      noCache: false,
      cached: false,
      stamped: true,
    },
    {
      case: "a visitor's GET",
      method: "GET",
      path: "/services/account/tags",
      noCache: false,
      cached: false,
      stamped: false,
    },
  ])("$case: cached $cached, time-stamped $stamped", ({ method, path, noCache, cached, stamped }) => {
    const call = callOf(input(method, path, noCache), 1234);
    expect(call.method).toBe(method.toUpperCase());
    expect(call.key).toBe(path);
    expect(call.cached).toBe(cached);
    expect(call.url.searchParams.get(limits.timestampParameter)).toBe(stamped ? "1234" : null);
    expect(call.identity.split("\n")[0]).toBe(`${method.toUpperCase()} ${path}`);
  });

  test("the identity names every forwarded header: calls that differ in them are not identical", () => {
    const call = callOf(input("GET", "/services/account/tags"), 0);
    expect(call.identity).toBe(
      ["GET /services/account/tags", ...[...call.headers].map(([name, value]) => `${name}: ${value}`)].join(
        "\n",
      ),
    );
  });
});

describe("exchange", () => {
  const request = (retry: boolean) =>
    callOf(
      {
        method: "GET",
        url: new URL("https://site.test/services/charts/locations"),
        headers: new Headers(),
        body: null,
        retry,
        noCache: false,
        redirect: "manual",
        signal: undefined,
        waitUntil: undefined,
      },
      0,
    );
  const answering = (...statuses: number[]) => {
    let tries = 0;
    const upstream = vi.fn<Upstream>(
      async () => new Response("{}", { status: statuses[Math.min(tries++, statuses.length - 1)] }),
    );
    return { upstream, timeoutMs: 1_000, retryDelayMs: 0 };
  };
  const statusOf = (result: Result) => ("answer" in result ? result.answer.status : result.failure.type);

  test.each([
    {
      case: "a flagged call retries a 500 until an answer",
      retry: true,
      statuses: [500, 502, 200],
      tries: 3,
      status: 200,
    },
    { case: "at most twice", retry: true, statuses: [500], tries: limits.maxRetries + 1, status: 500 },
    { case: "never a 404", retry: true, statuses: [404], tries: 1, status: 404 },
    { case: "an unflagged call tries once", retry: false, statuses: [500, 200], tries: 1, status: 500 },
  ])("$case", async ({ retry, statuses, tries, status }) => {
    const settings = answering(...statuses);
    const { result } = await exchange(settings, request(retry), undefined);
    expect(statusOf(result)).toBe(status);
    expect(settings.upstream).toHaveBeenCalledTimes(tries);
  });

  test("an answer declared over the limit is a 502 service error, its body not read", async () => {
    const upstream = vi.fn<Upstream>(
      async () => new Response("{}", { headers: { "content-length": String(limits.maxAnswerBytes + 1) } }),
    );
    const { result } = await exchange(
      { upstream, timeoutMs: 1_000, retryDelayMs: 0 },
      request(false),
      undefined,
    );
    expect(result).toEqual({ failure: expect.objectContaining({ type: "serviceerror", status: 502 }) });
  });

  test("an upstream that never answers is a timeout after the try's timeout, signals or not", async () => {
    const upstream = vi.fn<Upstream>(() => new Promise<Response>(() => {}));
    const { result } = await exchange({ upstream, timeoutMs: 5, retryDelayMs: 0 }, request(false), undefined);
    expect(statusOf(result)).toBe("timeout");
  });

  test("the caller's abort ends the call as an abort", async () => {
    const controller = new AbortController();
    const upstream = vi.fn<Upstream>(() => {
      controller.abort();
      return new Promise<Response>(() => {});
    });
    const { result } = await exchange(
      { upstream, timeoutMs: 60_000, retryDelayMs: 0 },
      request(true),
      controller.signal,
    );
    expect(statusOf(result)).toBe("abort");
    expect(upstream).toHaveBeenCalledTimes(1);
  });
});
