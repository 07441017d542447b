import { SiteError, type SiteErrorType } from "#rules/errors.ts";
import { readLimited } from "#rules/http-body.ts";
import type { Answer } from "./cache";
import type { RememberedFailure } from "./failure-memory";
import { answerHeadersOf, forwardedHeaders, isSharedRead } from "./http";
import * as limits from "./limits";
import { raceSignal, sleep, untilAborted } from "./signals";
import type { Upstream } from "./upstream";

// The proxy's side of the upstream: one call, its tries and retries under the timeout, and what
// an upstream result means (an outage, a failure to remember, a failure to retry).

/** One request as the proxy sees it. */
export type Call = {
  method: string;
  /** What the upstream is asked, timestamp included. */
  url: URL;
  /** Path and query: the key of the caches and of the failure memory (a shared call sends nothing else). */
  key: string;
  /** A shared GET (no visitor headers, not no-cache): caches, coalescing and the failure memory apply. */
  cached: boolean;
  headers: Headers;
  body: ArrayBuffer | null;
  redirect: NonNullable<RequestInit["redirect"]>;
  retry: boolean;
  /** Method, key and headers: requests with the same identity are identical. */
  identity: string;
  signal: AbortSignal | undefined;
  waitUntil: ((promise: Promise<unknown>) => void) | undefined;
};

/** An upstream answer (any status), or a failure that has no answer to show. */
export type Result = { answer: Answer } | { failure: RememberedFailure };

/** How the upstream is reached: the function, the timeout of one try, the first pause before a retry. */
export type UpstreamSettings = { upstream: Upstream; timeoutMs: number; retryDelayMs: number };

/** One upstream exchange, with up to 2 retries when the call is flagged retry. */
export async function exchange(
  upstream: UpstreamSettings,
  call: Call,
  signal: AbortSignal | undefined,
): Promise<{ result: Result; upstreamMs: number }> {
  const started = Date.now();
  const tries = call.retry ? limits.maxRetries + 1 : 1;
  let result = await tryOnce(upstream, call, signal);
  for (let retry = 1; retry < tries && isRetryable(result); retry++) {
    await untilAborted(sleep(upstream.retryDelayMs * 2 ** (retry - 1)), signal);
    result = await tryOnce(upstream, call, signal);
  }
  return { result, upstreamMs: Date.now() - started };
}

/** One upstream try, bounded by the configured timeout (whether or not the upstream honours signals). */
async function tryOnce(
  upstream: UpstreamSettings,
  call: Call,
  callerSignal: AbortSignal | undefined,
): Promise<Result> {
  const timeout = AbortSignal.timeout(upstream.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
  try {
    const request = new Request(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      redirect: call.redirect,
      signal,
    });
    const response = await raceSignal(
      Promise.resolve().then(() =>
        upstream.upstream(request, call.waitUntil ? { waitUntil: call.waitUntil } : undefined),
      ),
      signal,
    );
    try {
      const body = await raceSignal(readAnswerBody(response), signal);
      if (body === "too large") {
        const message = `The upstream answer is over ${limits.maxAnswerBytes} bytes`;
        return { failure: { type: "serviceerror", message, status: 502 } };
      }
      return { answer: { status: response.status, headers: answerHeadersOf(response.headers), body } };
    } catch (error) {
      response.body?.cancel().catch(() => {});
      throw error;
    }
  } catch (error) {
    return { failure: failureOfError(error, { timeout, caller: callerSignal }) };
  }
}

/** An answer's body, read up to `maxAnswerBytes` (counted as it streams, whatever it declares). */
async function readAnswerBody(response: Response): Promise<Uint8Array<ArrayBuffer> | "too large"> {
  if (Number(response.headers.get("content-length")) > limits.maxAnswerBytes) {
    await response.body?.cancel();
    return "too large";
  }
  return response.body ? readLimited(response.body, limits.maxAnswerBytes) : new Uint8Array(0);
}

export function failureOfAnswer(answer: Answer): RememberedFailure {
  const type: SiteErrorType = answer.status === 401 ? "unauthorized" : "serviceerror";
  const small = answer.body.byteLength <= limits.failureMemoryLimits.maxBodyBytes;
  return {
    type,
    message: `${answer.status} from upstream`,
    status: answer.status,
    ...(small ? { answer } : {}),
  };
}

/**
 * What an unsuccessful result is, and whether it is the URL's (`shareable`: not the caller's own
 * abort, not a 401, a private answer or one that sets cookies). A shareable failure is shared with
 * the callers coalesced on the URL and remembered, a 404 or other 4xx as well as a 5xx, a network
 * error or a timeout (spec 001 §4 "Failed GET results are remembered", decision 059): only a
 * shared GET gets here, and it sends the upstream its URL alone, so its failure is the URL's and
 * not one client's.
 */
export function failureOfResult(result: Result): { failure: RememberedFailure; shareable: boolean } {
  const failure = "answer" in result ? failureOfAnswer(result.answer) : result.failure;
  const shareable = "answer" in result ? isShareableFailure(result.answer) : failure.type !== "abort";
  return { failure, shareable };
}

/**
 * A failed answer is the URL's, shared with every caller and remembered, unless it belongs to the
 * caller: a 401 (their credentials), one that sets cookies, or one marked private.
 */
export function isShareableFailure(answer: Answer): boolean {
  const headers = new Headers(answer.headers as [string, string][]);
  if (answer.status === 401 || headers.has("set-cookie")) return false;
  return !/(^|,)\s*private\b/i.test(headers.get("cache-control") ?? "");
}

/** Failures a stale copy may answer (stale-if-error): the upstream is down, not saying no. */
export function isOutage(failure: RememberedFailure): boolean {
  if (failure.status !== undefined) return failure.status >= 500;
  return failure.type === "timeout" || failure.type === "network";
}

export function isRetryable(result: Result): boolean {
  if ("answer" in result) return result.answer.status >= 500;
  return result.failure.type === "timeout" || result.failure.type === "network";
}

/** Timeout → timeout, abort → abort, a SiteError as it is, anything else → network (spec 000 §8). */
export function failureOfError(
  error: unknown,
  signals: { timeout?: AbortSignal; caller?: AbortSignal | undefined },
): RememberedFailure {
  if (error instanceof SiteError) return { type: error.type, message: error.message, status: error.status };
  if (signals.timeout?.aborted) return { type: "timeout", message: "The upstream timed out" };
  if (signals.caller?.aborted) return { type: "abort", message: "aborted" };
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  if (name === "TimeoutError") return { type: "timeout", message: "The upstream timed out" };
  if (name === "AbortError") return { type: "abort", message: "aborted" };
  return { type: "network", message: error instanceof Error ? error.message : String(error) };
}

/** A request as the proxy handles it: its cache key, what the upstream is asked, its identity. */
export function callOf(
  input: {
    method: string;
    url: URL;
    headers: Headers;
    body: ArrayBuffer | null;
    retry: boolean;
    noCache: boolean;
    redirect: NonNullable<RequestInit["redirect"]>;
    signal: AbortSignal | undefined;
    waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  },
  now: number,
): Call {
  const method = input.method.toUpperCase();
  const key = input.url.pathname + input.url.search;
  const headers = forwardedHeaders(method, input.url.pathname, input.headers);
  // Stored, coalesced and remembered by URL: a shared read, as its call declares (http.ts).
  const cached =
    method === "GET" && !input.noCache && isSharedRead(method, input.url.pathname, input.headers);
  const url = new URL(input.url);
  if (input.noCache || !["GET", "HEAD"].includes(method)) {
    const stamp = `${limits.timestampParameter}=${now}`;
    url.search = url.search ? `${url.search}&${stamp}` : `?${stamp}`;
  }
  const identity = [`${method} ${key}`, ...[...headers].map(([name, value]) => `${name}: ${value}`)].join(
    "\n",
  );
  return {
    method,
    url,
    key,
    cached,
    headers,
    // A GET or HEAD sends no body: a client's GET with one would make the upstream request throw,
    // a network failure remembered for every visitor of the URL (decision 059).
    body: ["GET", "HEAD"].includes(method) ? null : input.body,
    redirect: input.redirect,
    retry: input.retry,
    identity,
    signal: input.signal,
    waitUntil: input.waitUntil,
  };
}
