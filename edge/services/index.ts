import type * as v from "valibot";
import { SiteError, statusOfError } from "#rules/errors.ts";
import { readBody } from "#rules/http-body.ts";
import { errorResponse, responseOf } from "./answers";
import {
  cachedAnswerOf,
  createCacheTiers,
  defaultCache,
  type HeldCopy,
  type MemoryTierLimits,
  planStorage,
} from "./cache";
import { asCoalesced, createInFlight, flightDeadlineMs, type Outcome, type ResolvedGet } from "./coalescing";
import { createFailureMemory, type FailureVerdict } from "./failure-memory";
import { isAllowedPath } from "./http";
import { parseAnswer, successfulAnswer } from "./json";
import * as limits from "./limits";
import type { Upstream } from "./upstream";
import { type Call, callOf, exchange, failureOfError, failureOfResult, isOutage } from "./upstream-call";

/**
 * The one services proxy (spec 001 §4 "Request caching and retry", 000 §7 generic helpers, §8).
 * `worker/` hands it the browser's `/services/*` requests (`handle`) and loaders call `getJson`
 * in-process (never an HTTP hop to our own origin). It is created once per isolate, so every piece
 * of its state is bounded: the memory tier by entries and bytes, the failure memory by URLs, the
 * in-flight map by the requests in progress.
 *
 * A GET without no-cache goes: fresh copy in memory → join an identical request in flight →
 * fresh copy in the Cache API → remembered failure (or `limitexceeded`) → the upstream. Successful
 * answers are stored as the upstream's Cache-Control allows (see cache.ts); failures, a 4xx
 * included, are counted by URL (see failure-memory.ts, decision 059). When the upstream is down (a
 * timeout, a network error or a 5xx, fresh or remembered, even past `limitexceeded`) and a copy
 * past its lifetime is still held, that copy answers (stale-if-error); a 4xx is the upstream
 * saying no, not an outage, and is passed on (fresh or remembered), never covered by a stale copy.
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

// The document cache (edge/document-cache.ts) keeps rendered pages in the same tiers and
// coalesces renders the same way: the proxy's entry lends it both.
export { type Answer, type CacheTier, createCacheTiers, defaultCache, planStorage } from "./cache";
export type { CacheSource } from "./coalescing";
export { createInFlight } from "./coalescing";
export { answerHeadersOf, makesIdentifications } from "./http";
export { remoteUpstream, type Upstream } from "./upstream";

export type ServicesCallOptions = {
  /** Retry up to 2 times after a timeout, a network failure or a 5xx answer. Default false. */
  retry?: boolean;
  /** Skip the caches: the call gets the timestamp parameter and its answer is not stored. Default false. */
  noCache?: boolean;
  /** Ends this caller's wait with `abort`; an upstream call shared with others goes on. Default none. */
  signal?: AbortSignal;
  /** Lets a Cache API write finish after the answer. Default none: the write is awaited. */
  waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * Told how many ms the answer stays fresh in the caches (0: not stored, or served stale): the
   * document cache keeps a page no longer than the data it shows (edge/document-cache.ts).
   */
  freshFor?: (ms: number) => void;
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

/**
 * Validated values of stored answers, by the answer's bytes and the schema: a loader that reads an
 * answer the memory tier holds gets the value made the first time instead of decoding, parsing and
 * validating it again (6–13 % of a page's render, docs/decisions/056-cheaper-renders.md). Weak on
 * both sides: a value lives as long as its bytes are held. Frozen, so that no request can change
 * what another one reads.
 */
const parsedAnswers = new WeakMap<Uint8Array, WeakMap<object, unknown>>();

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

export function createServicesProxy(options: ServicesProxyOptions): ServicesProxy {
  const clock = options.now ?? Date.now;
  const allowedPrefixes = options.allowedPrefixes ?? limits.defaultAllowedPrefixes;
  const defaultTtlSeconds = options.defaultTtlSeconds ?? limits.defaultTtlSeconds;
  const staleIfErrorSeconds = options.staleIfErrorSeconds ?? limits.staleIfErrorSeconds;
  const retryDelayMs = options.retryDelayMs ?? limits.retryDelayMs;
  const upstreamSettings = { upstream: options.upstream, timeoutMs: options.timeoutMs, retryDelayMs };
  const maxRequestBodyBytes = options.maxRequestBodyBytes ?? limits.maxRequestBodyBytes;
  const tiers = createCacheTiers({
    memory: { ...limits.memoryTierLimits, ...options.memory },
    cache: options.cache === undefined ? defaultCache() : options.cache,
    keyBase: options.cacheKeyBase ?? internalBase,
    now: clock,
  });
  const failures = createFailureMemory({
    rememberedAfterTries: limits.rememberedFailureAfterTries,
    maxTries: limits.maxTries,
    cooldownMs: options.failureCooldownMs ?? limits.failureCooldownMs,
    maxEntries: limits.failureMemoryLimits.maxEntries,
    now: clock,
  });
  const inFlight = createInFlight(asCoalesced);

  async function serve(call: Call): Promise<Outcome> {
    if (!call.cached) return { source: "miss", ...(await exchange(upstreamSettings, call, call.signal)) };
    const inMemory = tiers.freshInMemory(call.key);
    if (inMemory) return outcomeOfCopy({ copy: inMemory, tier: "memory" }, "hit");
    const deadlineMs = flightDeadlineMs(call.retry, upstreamSettings);
    return inFlight.join(call, deadlineMs, () => resolve(call));
  }

  /** A cached GET past the memory tier: Cache API, failure memory, then the upstream. */
  async function resolve(call: Call): Promise<ResolvedGet> {
    const held = await tiers.newest(call.key);
    if (held && clock() < held.copy.freshUntil) {
      if (held.tier === "cacheapi") tiers.keepInMemory(call.key, held.copy);
      return resolvedGet(call, outcomeOfCopy(held, "hit"), true);
    }
    const remembered = rememberedOutcome(failures.check(call.key), held);
    if (remembered) return resolvedGet(call, remembered, true);
    return askUpstream(call, held);
  }

  /** The upstream's answer, stored as it allows; a failure is remembered, and an outage served stale. */
  async function askUpstream(call: Call, held: HeldCopy | undefined): Promise<ResolvedGet> {
    const exchanged = await exchange(upstreamSettings, call, undefined);
    const { result, upstreamMs } = exchanged;
    if ("answer" in result && result.answer.status < 400) {
      failures.forget(call.key);
      const plan = planStorage({
        status: result.answer.status,
        headers: new Headers(result.answer.headers as [string, string][]),
        defaultTtlSeconds,
        staleIfErrorSeconds,
      });
      if (!plan.store) return resolvedGet(call, { source: "miss", ...exchanged }, false);
      const copy = cachedAnswerOf(result.answer, plan, clock());
      await tiers.store(call.key, copy, call.waitUntil);
      return resolvedGet(call, { source: "miss", ...exchanged, freshUntil: copy.freshUntil }, true);
    }
    const { failure, shareable } = failureOfResult(result);
    if (shareable) failures.record(call.key, failure);
    if (held && isOutage(failure))
      return resolvedGet(call, { ...outcomeOfCopy(held, "stale"), upstreamMs }, true);
    return resolvedGet(call, { source: "miss", ...exchanged }, shareable);
  }

  return {
    async handle(request, context) {
      const started = Date.now();
      const url = new URL(request.url);
      // The body is read (up to the limit) before any refusal: workerd closes a connection whose
      // request body was left unread, and the visitor's next request on it is reset.
      const body = await readBody(request, maxRequestBodyBytes);
      if (body === "too large") {
        const message = `Request body over ${maxRequestBodyBytes} bytes`;
        return errorResponse({ type: "invalidparam", message }, 413, started);
      }
      if (!isAllowedPath(url.pathname, allowedPrefixes))
        return errorResponse({ type: "notfound", message: "No such service" }, 404, started);
      const call = browserCall(request, url, body, context, clock());
      let outcome: Outcome;
      try {
        outcome = await serve(call);
      } catch (error) {
        const failure = failureOfError(error, {});
        return errorResponse(failure, statusOfError(failure.type), started);
      }
      return responseOf(outcome, call.method, started, clock());
    },

    async getJson(path, schema, callOptions = {}) {
      const url = new URL(path, internalBase);
      if (!isAllowedPath(url.pathname, allowedPrefixes))
        throw new SiteError("notfound", `No such service: ${url.pathname}`);
      const call = loaderCall(url, callOptions, clock());
      const outcome = await serve(call);
      callOptions.freshFor?.(Math.max(0, (outcome.freshUntil ?? 0) - clock()));
      const answer = successfulAnswer(outcome, url.pathname);
      const held = parsedAnswers.get(answer.body)?.get(schema);
      if (held !== undefined) return held as v.InferOutput<typeof schema>;
      const parsed = parseAnswer(answer, url.pathname, schema);
      if (parsed.success) {
        if (!call.cached) return parsed.output;
        const output = deepFreeze(parsed.output);
        const bySchema = parsedAnswers.get(answer.body) ?? new WeakMap<object, unknown>();
        bySchema.set(schema, output);
        parsedAnswers.set(answer.body, bySchema);
        return output;
      }
      // An answer that does not parse is not kept: the next call asks the upstream again.
      if (call.cached) await tiers.evict(call.key, call.waitUntil);
      throw parsed.error;
    },
  };
}

/**
 * A browser's request: redirects pass through to the browser. What a client asks of the proxy
 * itself (retries, `Cache-Control: no-cache`) is not honoured: one client could otherwise triple
 * the upstream's load or empty the shared cache for everyone (decision 028).
 */
function browserCall(
  request: Request,
  url: URL,
  body: ArrayBuffer | null,
  context: { waitUntil(promise: Promise<unknown>): void } | undefined,
  now: number,
): Call {
  return callOf(
    {
      method: request.method,
      url,
      headers: request.headers,
      body,
      retry: false,
      noCache: false,
      redirect: "manual",
      signal: request.signal,
      waitUntil: context ? (promise) => context.waitUntil(promise) : undefined,
    },
    now,
  );
}

/** A loader's JSON GET: redirects are followed in-process. */
function loaderCall(url: URL, options: ServicesCallOptions, now: number): Call {
  return callOf(
    {
      method: "GET",
      url,
      headers: new Headers({ accept: "application/json" }),
      body: null,
      retry: options.retry ?? false,
      noCache: options.noCache ?? false,
      redirect: "follow",
      signal: options.signal,
      waitUntil: options.waitUntil,
    },
    now,
  );
}

function resolvedGet(call: Call, outcome: Outcome, shareable: boolean): ResolvedGet {
  return { outcome, shareable, identity: call.identity };
}

/**
 * What the failure memory answers instead of the upstream, if anything: a held copy when the
 * remembered failure is an outage (stale-if-error), else the failure or `limitexceeded`.
 */
function rememberedOutcome(verdict: FailureVerdict, held: HeldCopy | undefined): Outcome | undefined {
  if (verdict.verdict === "ask") return undefined;
  if (held && isOutage(verdict.failure)) return outcomeOfCopy(held, "stale");
  if (verdict.verdict === "limitexceeded") {
    const failure = { type: "limitexceeded", message: `More than ${limits.maxTries} tries` } as const;
    return { source: "failure", result: { failure }, retryAfterMs: verdict.retryAfterMs };
  }
  return { source: "failure", result: { failure: verdict.failure } };
}

/** A stored copy served as it is (`hit`), or past its lifetime because the upstream failed (`stale`). */
function outcomeOfCopy(held: HeldCopy, source: "hit" | "stale"): Outcome {
  const { copy } = held;
  const outcome: Outcome = {
    source,
    tier: held.tier,
    result: { answer: copy.answer },
    storedAt: copy.storedAt,
  };
  return source === "hit" ? { ...outcome, freshUntil: copy.freshUntil } : outcome;
}
