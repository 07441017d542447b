import * as v from "valibot";
import { SiteError, type SiteErrorType, statusOfError } from "./errors";
import { createFailureMemory, type RememberedFailure } from "./failure-memory";
import {
  type Answer,
  type CachedAnswer,
  cachedAnswerOf,
  createMemoryTier,
  createSharedTier,
  type MemoryTierLimits,
  planStorage,
  type SharedTier,
} from "./services-cache";
import * as limits from "./services-constants";
import type { Upstream } from "./upstream";

/**
 * The one services proxy (spec 001 §4 "Request caching and retry", 000 §7 generic helpers, §8).
 * `worker/` hands it the browser's `/services/*` requests (`handle`) and loaders call `getJson`
 * in-process (never an HTTP hop to our own origin). It is created once per isolate, so every piece
 * of its state is bounded: the memory tier by entries and bytes, the failure memory by URLs, the
 * in-flight map by the requests in progress.
 *
 * A GET without no-cache goes: fresh copy in memory → join an identical request in flight →
 * fresh copy in the Cache API → remembered failure (or `limitexceeded`) → the upstream. Successful
 * answers are stored as the upstream's Cache-Control allows (see services-cache.ts); failures are
 * counted (see failure-memory.ts). When the upstream is down (a timeout, a network error or a 5xx,
 * fresh or remembered, even past `limitexceeded`) and a copy past its lifetime is still held, that
 * copy answers (stale-if-error); a 4xx is an answer, not an outage, and is passed on.
 *
 * POST, PUT (any method but GET and HEAD) and no-cache requests get the timestamp parameter, go
 * straight to the upstream and are never stored or counted. HEAD passes through unstored.
 *
 * Every browser answer carries `x-cache`: `hit` (a stored copy), `miss` (not answered from stored
 * state: asked the upstream, or refused by the proxy), `coalesced` (shared the answer of an
 * identical request in flight), `stale` (an old copy because the upstream failed), `failure` (a
 * remembered failure or `limitexceeded`), and `Server-Timing` with the proxy's and the upstream's
 * durations.
 */

/** Where an answer came from, as the `x-cache` header says. */
export type CacheSource = "hit" | "miss" | "coalesced" | "stale" | "failure";

export type ServicesCallOptions = {
  /** Retry up to 2 times after a timeout, a network failure or a 5xx answer. Default false. */
  retry?: boolean;
  /** Skip the caches: the call gets the timestamp parameter and its answer is not stored. Default false. */
  noCache?: boolean;
  /** Ends this caller's wait with `abort`; an upstream call shared with others goes on. Default none. */
  signal?: AbortSignal;
  /** Lets a Cache API write finish after the answer. Default none: the write is awaited. */
  waitUntil?: (promise: Promise<unknown>) => void;
};

export type ServicesProxy = {
  /** Answers a browser's `/services/*` request. Upstream statuses pass through; proxy errors are JSON. */
  handle(request: Request, context?: { waitUntil(promise: Promise<unknown>): void }): Promise<Response>;
  /** GETs `path` (e.g. `/services/charts/locations`) and parses it; failures throw `SiteError`. */
  // No `const` modifier here: Remix's esbuild (0.17.6) rejects it on a method signature, and a
  // schema argument gains nothing from it.
  getJson<S extends v.GenericSchema>(
    path: string,
    schema: S,
    options?: ServicesCallOptions,
  ): Promise<v.InferOutput<S>>;
};

export type ServicesProxyOptions = {
  /** Where `/services` answers come from. */
  upstream: Upstream;
  /** Timeout of one upstream try in ms; the spec leaves the value to configuration. */
  timeoutMs: number;
  /** Upstream path prefixes forwarded; a prefix without a trailing slash also matches itself. Default: the site's. */
  allowedPrefixes?: readonly string[];
  /** Bounds of the per-isolate memory tier. Default 500 entries, 8 MiB, 1 MiB per entry. */
  memory?: Partial<MemoryTierLimits>;
  /** The Cache API tier; null turns it off. Default `caches.default` where it exists. */
  cache?: Cache | null;
  /** Origin of the Cache API keys (path and query are appended). Default `https://services.internal`. */
  cacheKeyBase?: string;
  /** Lifetime of a successful answer without Cache-Control, for requests without credentials. Default 60 s. */
  defaultTtlSeconds?: number;
  /** How long past its lifetime a copy may answer when the upstream fails. Default 1 day. */
  staleIfErrorSeconds?: number;
  /** How long a remembered failure lasts. Default 30 s. */
  failureCooldownMs?: number;
  /** First pause before a retry, doubled for the next. Default 100 ms. */
  retryDelayMs?: number;
  /** Largest request body forwarded; larger ones answer 413. Default 256 KiB. */
  maxRequestBodyBytes?: number;
  /** The clock of lifetimes, cool-downs and timestamps. Default `Date.now`. */
  now?: () => number;
};

const internalBase = "https://services.internal";

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded in either direction. */
const hopByHopHeaders = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** Statuses whose Response must have no body. */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** One request as the proxy sees it. */
type Call = {
  method: string;
  /** What the upstream is asked, timestamp included. */
  url: URL;
  /** Path and query: the key of the caches and of the failure memory. */
  key: string;
  /** A GET without no-cache: caches, coalescing and the failure memory apply. */
  cached: boolean;
  headers: Headers;
  body: ArrayBuffer | null;
  redirect: NonNullable<RequestInit["redirect"]>;
  retry: boolean;
  /** Method, key and headers: requests with the same identity are identical. */
  identity: string;
  hasCookie: boolean;
  hasAuthorization: boolean;
  signal: AbortSignal | undefined;
  waitUntil: ((promise: Promise<unknown>) => void) | undefined;
};

/** An upstream answer (any status), or a failure that has no answer to show. */
type Result = { answer: Answer } | { failure: RememberedFailure };

type Served = {
  source: CacheSource;
  result: Result;
  tier?: "memory" | "cacheapi";
  storedAt?: number;
  upstreamMs?: number;
  retryAfterMs?: number;
};

/** A resolved GET, and whether callers with other headers may share it. */
type Flown = { served: Served; shareable: boolean; identity: string };

type StaleCandidate = { copy: CachedAnswer; tier: "memory" | "cacheapi" };

export function createServicesProxy(options: ServicesProxyOptions): ServicesProxy {
  const clock = options.now ?? Date.now;
  const allowedPrefixes = options.allowedPrefixes ?? limits.defaultAllowedPrefixes;
  const defaultTtlSeconds = options.defaultTtlSeconds ?? limits.defaultTtlSeconds;
  const staleIfErrorSeconds = options.staleIfErrorSeconds ?? limits.staleIfErrorSeconds;
  const retryDelayMs = options.retryDelayMs ?? limits.retryDelayMs;
  const maxRequestBodyBytes = options.maxRequestBodyBytes ?? limits.maxRequestBodyBytes;
  const memory = createMemoryTier({ ...limits.memoryTierLimits, ...options.memory });
  const cache = options.cache === undefined ? defaultCache() : options.cache;
  const shared: SharedTier | undefined = cache
    ? createSharedTier(cache, options.cacheKeyBase ?? internalBase)
    : undefined;
  const failures = createFailureMemory({
    rememberedAfterTries: limits.rememberedFailureAfterTries,
    maxTries: limits.maxTries,
    cooldownMs: options.failureCooldownMs ?? limits.failureCooldownMs,
    maxEntries: limits.failureMemoryLimits.maxEntries,
    now: clock,
  });
  const inFlight = new Map<string, { identity: string; promise: Promise<Flown> }>();

  /**
   * How long a follower waits for a flight before asking on its own. A flight always settles
   * within its tries' timeouts and pauses, unless the request that started it was cancelled (the
   * Workers runtime then drops that request's timers and I/O, and the flight with them).
   */
  function flightDeadlineMs(retry: boolean): number {
    const tries = retry ? limits.maxRetries + 1 : 1;
    return (tries + 1) * options.timeoutMs + retryDelayMs * (2 ** (tries - 1) - 1);
  }

  async function serve(call: Call): Promise<Served> {
    if (!call.cached) return { source: "miss", ...(await exchange(call, call.signal)) };
    const inMemory = memory.get(call.key, clock());
    if (inMemory && clock() < inMemory.freshUntil) return hitOf(inMemory, "memory");

    const flight = inFlight.get(call.key);
    if (flight) {
      const flown = await untilAborted(
        withDeadline(flight.promise, flightDeadlineMs(call.retry)),
        call.signal,
      );
      if (flown && (flown.shareable || flown.identity === call.identity)) return followerOf(flown.served);
      if (flown) return (await resolve(call)).served;
      if (inFlight.get(call.key) === flight) inFlight.delete(call.key);
    }
    const promise = resolve(call);
    const entry = { identity: call.identity, promise };
    inFlight.set(call.key, entry);
    const settle = () => {
      if (inFlight.get(call.key) === entry) inFlight.delete(call.key);
    };
    promise.then(settle, settle);
    return (await untilAborted(promise, call.signal)).served;
  }

  /** A cached GET past the memory tier: Cache API, failure memory, then the upstream. */
  async function resolve(call: Call): Promise<Flown> {
    const flownOf = (served: Served, shareable: boolean): Flown => ({
      served,
      shareable,
      identity: call.identity,
    });
    const stale = await staleCandidateOf(call.key);
    if (stale && clock() < stale.copy.freshUntil) {
      if (stale.tier === "cacheapi") memory.set(call.key, stale.copy);
      return flownOf(hitOf(stale.copy, stale.tier), true);
    }

    const verdict = failures.check(call.key);
    if (verdict.verdict !== "ask" && stale && isOutage(verdict.failure)) return flownOf(staleOf(stale), true);
    if (verdict.verdict === "limitexceeded") {
      const failure = { type: "limitexceeded", message: `More than ${limits.maxTries} tries` } as const;
      return flownOf({ source: "failure", result: { failure }, retryAfterMs: verdict.retryAfterMs }, true);
    }
    if (verdict.verdict === "remembered") {
      return flownOf({ source: "failure", result: { failure: verdict.failure } }, true);
    }

    const exchanged = await exchange(call, undefined);
    const { result, upstreamMs } = exchanged;
    if ("answer" in result && result.answer.status < 400) {
      failures.forget(call.key);
      const headers = new Headers(result.answer.headers as [string, string][]);
      const plan = planStorage({
        status: result.answer.status,
        headers,
        requestHasCookie: call.hasCookie,
        requestHasAuthorization: call.hasAuthorization,
        defaultTtlSeconds,
        staleIfErrorSeconds,
      });
      if (plan.store) await store(call, cachedAnswerOf(result.answer, plan, clock()));
      return flownOf({ source: "miss", ...exchanged }, plan.store);
    }

    const failure = "answer" in result ? failureOfAnswer(result.answer) : result.failure;
    const shareable = "answer" in result ? isShareableFailure(result.answer) : failure.type !== "abort";
    if (shareable) failures.record(call.key, failure);
    if (stale && isOutage(failure)) return flownOf({ ...staleOf(stale), upstreamMs }, true);
    return flownOf({ source: "miss", ...exchanged }, shareable);
  }

  /** The freshest copy held in either tier (fresh or within its stale-if-error window). */
  async function staleCandidateOf(key: string): Promise<StaleCandidate | undefined> {
    const inMemory = memory.get(key, clock());
    const inCache = shared ? await shared.get(key, clock()) : undefined;
    if (inCache && (!inMemory || inCache.storedAt > inMemory.storedAt))
      return { copy: inCache, tier: "cacheapi" };
    return inMemory ? { copy: inMemory, tier: "memory" } : undefined;
  }

  async function store(call: Call, copy: CachedAnswer) {
    memory.set(call.key, copy);
    if (!shared) return;
    const written = shared.put(call.key, copy);
    if (call.waitUntil) call.waitUntil(written);
    else await written;
  }

  async function evict(call: Call) {
    memory.delete(call.key);
    if (!shared) return;
    const deleted = shared.delete(call.key);
    if (call.waitUntil) call.waitUntil(deleted);
    else await deleted;
  }

  /** One upstream exchange, with up to 2 retries when the call is flagged retry. */
  async function exchange(
    call: Call,
    signal: AbortSignal | undefined,
  ): Promise<{ result: Result; upstreamMs: number }> {
    const started = Date.now();
    const tries = call.retry ? limits.maxRetries + 1 : 1;
    let result = await tryOnce(call, signal);
    for (let retry = 1; retry < tries && isRetryable(result); retry++) {
      await untilAborted(sleep(retryDelayMs * 2 ** (retry - 1)), signal);
      result = await tryOnce(call, signal);
    }
    return { result, upstreamMs: Date.now() - started };
  }

  /** One upstream try, bounded by the configured timeout (whether or not the upstream honours signals). */
  async function tryOnce(call: Call, callerSignal: AbortSignal | undefined): Promise<Result> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
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
        Promise.resolve().then(() => options.upstream(request)),
        signal,
      );
      try {
        const body = new Uint8Array(await raceSignal(response.arrayBuffer(), signal));
        return { answer: { status: response.status, headers: answerHeadersOf(response.headers), body } };
      } catch (error) {
        response.body?.cancel().catch(() => {});
        throw error;
      }
    } catch (error) {
      return { failure: failureOfError(error, { timeout, caller: callerSignal }) };
    }
  }

  function callOf(input: {
    method: string;
    url: URL;
    headers: Headers;
    body: ArrayBuffer | null;
    retry: boolean;
    noCache: boolean;
    redirect: NonNullable<RequestInit["redirect"]>;
    signal: AbortSignal | undefined;
    waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  }): Call {
    const method = input.method.toUpperCase();
    const key = input.url.pathname + input.url.search;
    const cached = method === "GET" && !input.noCache;
    const url = new URL(input.url);
    if (input.noCache || !["GET", "HEAD"].includes(method)) {
      const stamp = `${limits.timestampParameter}=${clock()}`;
      url.search = url.search ? `${url.search}&${stamp}` : `?${stamp}`;
    }
    const headers = forwardedHeaders(input.headers);
    const identity = [`${method} ${key}`, ...[...headers].map(([name, value]) => `${name}: ${value}`)].join(
      "\n",
    );
    return {
      method,
      url,
      key,
      cached,
      headers,
      body: input.body,
      redirect: input.redirect,
      retry: input.retry,
      identity,
      hasCookie: headers.has("cookie"),
      hasAuthorization: headers.has("authorization"),
      signal: input.signal,
      waitUntil: input.waitUntil,
    };
  }

  function isAllowedPath(pathname: string): boolean {
    // Encoded separators could reach another path once an upstream decodes them.
    if (/%2f|%5c|\\/i.test(pathname)) return false;
    return allowedPrefixes.some((prefix) =>
      prefix.endsWith("/")
        ? pathname.startsWith(prefix)
        : pathname === prefix || pathname.startsWith(`${prefix}/`),
    );
  }

  return {
    async handle(request, context) {
      const started = Date.now();
      const url = new URL(request.url);
      const method = request.method.toUpperCase();
      if (!isAllowedPath(url.pathname)) {
        await request.body?.cancel();
        return errorResponse({ type: "notfound", message: "No such service" }, 404, started);
      }
      const body = await readBody(request, maxRequestBodyBytes);
      if (body === "too large") {
        const message = `Request body over ${maxRequestBodyBytes} bytes`;
        return errorResponse({ type: "invalidparam", message }, 413, started);
      }
      const call = callOf({
        method,
        url,
        headers: request.headers,
        body,
        retry: request.headers.get(limits.retryHeader) === "1",
        noCache: asksNoCache(request.headers),
        redirect: "manual",
        signal: request.signal,
        waitUntil: context ? (promise) => context.waitUntil(promise) : undefined,
      });
      let served: Served;
      try {
        served = await serve(call);
      } catch (error) {
        const failure = failureOfError(error, {});
        return errorResponse(failure, statusOfError(failure.type), started);
      }
      return responseOf(served, method, started);
    },

    async getJson(path, schema, callOptions = {}) {
      const url = new URL(path, internalBase);
      if (!isAllowedPath(url.pathname)) throw new SiteError("notfound", `No such service: ${url.pathname}`);
      const call = callOf({
        method: "GET",
        url,
        headers: new Headers({ accept: "application/json" }),
        body: null,
        retry: callOptions.retry ?? false,
        noCache: callOptions.noCache ?? false,
        redirect: "follow",
        signal: callOptions.signal,
        waitUntil: callOptions.waitUntil,
      });
      const served = await serve(call);
      if ("failure" in served.result) throw siteErrorOf(served.result.failure);
      const { answer } = served.result;
      const text = new TextDecoder().decode(answer.body);
      if (answer.status === 401) {
        throw new SiteError("unauthorized", `401 from ${url.pathname}`, { status: 401, body: text });
      }
      if (answer.status >= 400) {
        throw new SiteError("serviceerror", `${answer.status} from ${url.pathname}`, {
          status: answer.status,
          body: text,
        });
      }
      if (answer.status >= 300) {
        const location = new Headers(answer.headers as [string, string][]).get("location") ?? undefined;
        throw new SiteError("redirect", `${answer.status} from ${url.pathname}`, {
          status: answer.status,
          args: { location },
        });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        if (call.cached) await evict(call);
        throw new SiteError("serviceerror", `Invalid JSON from ${url.pathname}`, {
          status: answer.status,
          body: text,
        });
      }
      const parsed = v.safeParse(schema, json);
      if (!parsed.success) {
        if (call.cached) await evict(call);
        throw new SiteError(
          "baddata",
          `Unexpected data from ${url.pathname}: ${v.summarize(parsed.issues)}`,
          {
            status: answer.status,
          },
        );
      }
      return parsed.output;
    },
  };

  function responseOf(served: Served, method: string, started: number): Response {
    const { result } = served;
    const answer = "answer" in result ? result.answer : result.failure.answer;
    if (!answer) {
      const { failure } = result as { failure: RememberedFailure };
      return errorResponse(failure, statusOfError(failure.type, failure.status), started, served);
    }
    const headers = new Headers(answer.headers as [string, string][]);
    if (served.storedAt !== undefined && (served.source === "hit" || served.source === "stale")) {
      const upstreamAge = Number(headers.get("age")) || 0;
      headers.set("age", String(upstreamAge + Math.max(0, Math.floor((clock() - served.storedAt) / 1000))));
    }
    decorate(headers, served, started);
    const body = method === "HEAD" || nullBodyStatuses.has(answer.status) ? null : answer.body;
    return new Response(body, { status: answer.status, headers });
  }

  function errorResponse(
    failure: Pick<RememberedFailure, "type" | "message">,
    status: number,
    started: number,
    served: Omit<Served, "result"> = { source: "miss" },
  ): Response {
    const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store" });
    if (served.retryAfterMs !== undefined)
      headers.set("retry-after", String(Math.ceil(served.retryAfterMs / 1000)));
    decorate(headers, served, started);
    return new Response(JSON.stringify({ error: failure.type, message: failure.message }), {
      status,
      headers,
    });
  }
}

// Durations use Date.now(): in workerd, performance.now() does not move across Cache API calls.
function decorate(headers: Headers, served: Omit<Served, "result">, started: number) {
  headers.set("x-cache", served.source);
  const description = served.tier ? `${served.source} ${served.tier}` : served.source;
  headers.append("server-timing", `proxy;desc="${description}";dur=${Date.now() - started}`);
  if (served.upstreamMs !== undefined) headers.append("server-timing", `upstream;dur=${served.upstreamMs}`);
}

function defaultCache(): Cache | null {
  // The DOM lib's CacheStorage type hides the Workers-only `default`; plain Node has no `caches`.
  if (typeof caches === "undefined" || !("default" in caches)) return null;
  return (caches as CacheStorage & { default: Cache }).default;
}

function hitOf(copy: CachedAnswer, tier: "memory" | "cacheapi"): Served {
  return { source: "hit", tier, result: { answer: copy.answer }, storedAt: copy.storedAt };
}

function staleOf(stale: StaleCandidate): Served {
  return {
    source: "stale",
    tier: stale.tier,
    result: { answer: stale.copy.answer },
    storedAt: stale.copy.storedAt,
  };
}

/** What a caller that joined a flight reports: a miss it shared is `coalesced`, the rest as is. */
function followerOf(served: Served): Served {
  return served.source === "miss" ? { ...served, source: "coalesced" } : served;
}

function failureOfAnswer(answer: Answer): RememberedFailure {
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
 * A failed answer is the URL's, shared with every caller and remembered, unless it belongs to the
 * caller: a 401 (their credentials), one that sets cookies, or one marked private.
 */
function isShareableFailure(answer: Answer): boolean {
  const headers = new Headers(answer.headers as [string, string][]);
  if (answer.status === 401 || headers.has("set-cookie")) return false;
  return !/(^|,)\s*private\b/i.test(headers.get("cache-control") ?? "");
}

/** Failures a stale copy may answer (stale-if-error): the upstream is down, not saying no. */
function isOutage(failure: RememberedFailure): boolean {
  if (failure.status !== undefined) return failure.status >= 500;
  return failure.type === "timeout" || failure.type === "network";
}

function isRetryable(result: Result): boolean {
  if ("answer" in result) return result.answer.status >= 500;
  return result.failure.type === "timeout" || result.failure.type === "network";
}

/** Timeout → timeout, abort → abort, a SiteError as it is, anything else → network (spec 000 §8). */
function failureOfError(
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

function siteErrorOf(failure: RememberedFailure): SiteError {
  const body = failure.answer ? new TextDecoder().decode(failure.answer.body) : undefined;
  return new SiteError(failure.type, failure.message, {
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

function asksNoCache(headers: Headers): boolean {
  const control = (headers.get("cache-control") ?? "").toLowerCase();
  return /\bno-cache\b|\bno-store\b/.test(control) || /\bno-cache\b/i.test(headers.get("pragma") ?? "");
}

/** Request headers sent upstream: no hop-by-hop ones, no proxy controls, no length (recomputed). */
function forwardedHeaders(incoming: Headers): Headers {
  const headers = new Headers(incoming);
  for (const name of connectionListed(incoming)) headers.delete(name);
  for (const name of [...hopByHopHeaders, "host", "content-length", limits.retryHeader]) headers.delete(name);
  return headers;
}

/** Upstream headers kept with an answer: the body is held decoded, so no encoding or length. */
function answerHeadersOf(incoming: Headers): [string, string][] {
  const dropped = new Set([
    ...hopByHopHeaders,
    ...connectionListed(incoming),
    "content-length",
    "content-encoding",
  ]);
  return [...incoming].filter(([name]) => !dropped.has(name));
}

function connectionListed(headers: Headers): string[] {
  return (headers.get("connection") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

/** The request body, read up to `limit` bytes (a body of unknown length is counted as it streams). */
async function readBody(request: Request, limit: number): Promise<ArrayBuffer | null | "too large"> {
  if (!request.body) return null;
  const declared = Number(request.headers.get("content-length"));
  if (declared > limit) {
    await request.body.cancel();
    return "too large";
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return "too large";
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body.buffer;
}

/** Settles with the promise, or rejects with `abort` as soon as the caller's signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return raceSignal(promise, signal).catch((error: unknown) => {
    throw signal.aborted ? new SiteError("abort", "aborted") : error;
  });
}

/** Settles with the promise, or with undefined once `ms` have passed. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Rejects with the signal's reason as soon as it aborts (an upstream may ignore signals). */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
