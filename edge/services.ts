import * as v from "valibot";
import { SiteError, statusOfError } from "./errors";
import { createFailureMemory, type RememberedFailure } from "./failure-memory";
import { errorResponse, responseOf } from "./services-answers";
import {
  type CachedAnswer,
  cachedAnswerOf,
  createMemoryTier,
  createSharedTier,
  type MemoryTierLimits,
  planStorage,
  type SharedTier,
} from "./services-cache";
import { createInFlight, type Outcome, type Resolution } from "./services-coalescing";
import * as limits from "./services-constants";
import { asksNoCache, isAllowedPath, readBody } from "./services-http";
import {
  type Call,
  callOf,
  exchange,
  failureOfAnswer,
  failureOfError,
  isOutage,
  isShareableFailure,
} from "./services-upstream";
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

type StaleCandidate = { copy: CachedAnswer; tier: "memory" | "cacheapi" };

export function createServicesProxy(options: ServicesProxyOptions): ServicesProxy {
  const clock = options.now ?? Date.now;
  const allowedPrefixes = options.allowedPrefixes ?? limits.defaultAllowedPrefixes;
  const defaultTtlSeconds = options.defaultTtlSeconds ?? limits.defaultTtlSeconds;
  const staleIfErrorSeconds = options.staleIfErrorSeconds ?? limits.staleIfErrorSeconds;
  const retryDelayMs = options.retryDelayMs ?? limits.retryDelayMs;
  const upstreamSettings = { upstream: options.upstream, timeoutMs: options.timeoutMs, retryDelayMs };
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
  const inFlight = createInFlight();

  /**
   * How long a follower waits for a flight before asking on its own. A flight always settles
   * within its tries' timeouts and pauses, unless the request that started it was cancelled (the
   * Workers runtime then drops that request's timers and I/O, and the flight with them).
   */
  function flightDeadlineMs(retry: boolean): number {
    const tries = retry ? limits.maxRetries + 1 : 1;
    return (tries + 1) * options.timeoutMs + retryDelayMs * (2 ** (tries - 1) - 1);
  }

  async function serve(call: Call): Promise<Outcome> {
    if (!call.cached) return { source: "miss", ...(await exchange(upstreamSettings, call, call.signal)) };
    const inMemory = memory.get(call.key, clock());
    if (inMemory && clock() < inMemory.freshUntil) return fromCopy(inMemory, "memory");

    return inFlight.join(call, flightDeadlineMs(call.retry), () => resolve(call));
  }

  /** A cached GET past the memory tier: Cache API, failure memory, then the upstream. */
  async function resolve(call: Call): Promise<Resolution> {
    const resolution = (outcome: Outcome, shareable: boolean): Resolution => ({
      outcome,
      shareable,
      identity: call.identity,
    });
    const stale = await staleCandidateOf(call.key);
    if (stale && clock() < stale.copy.freshUntil) {
      if (stale.tier === "cacheapi") memory.set(call.key, stale.copy);
      return resolution(fromCopy(stale.copy, stale.tier), true);
    }

    const verdict = failures.check(call.key);
    if (verdict.verdict !== "ask" && stale && isOutage(verdict.failure))
      return resolution(fromStaleCopy(stale), true);
    if (verdict.verdict === "limitexceeded") {
      const failure = { type: "limitexceeded", message: `More than ${limits.maxTries} tries` } as const;
      return resolution({ source: "failure", result: { failure }, retryAfterMs: verdict.retryAfterMs }, true);
    }
    if (verdict.verdict === "remembered") {
      return resolution({ source: "failure", result: { failure: verdict.failure } }, true);
    }

    const exchanged = await exchange(upstreamSettings, call, undefined);
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
      return resolution({ source: "miss", ...exchanged }, plan.store);
    }

    const failure = "answer" in result ? failureOfAnswer(result.answer) : result.failure;
    const shareable = "answer" in result ? isShareableFailure(result.answer) : failure.type !== "abort";
    if (shareable) failures.record(call.key, failure);
    if (stale && isOutage(failure)) return resolution({ ...fromStaleCopy(stale), upstreamMs }, true);
    return resolution({ source: "miss", ...exchanged }, shareable);
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

  return {
    async handle(request, context) {
      const started = Date.now();
      const url = new URL(request.url);
      const method = request.method.toUpperCase();
      if (!isAllowedPath(url.pathname, allowedPrefixes)) {
        await request.body?.cancel();
        return errorResponse({ type: "notfound", message: "No such service" }, 404, started);
      }
      const body = await readBody(request, maxRequestBodyBytes);
      if (body === "too large") {
        const message = `Request body over ${maxRequestBodyBytes} bytes`;
        return errorResponse({ type: "invalidparam", message }, 413, started);
      }
      const call = callOf(
        {
          method,
          url,
          headers: request.headers,
          body,
          retry: request.headers.get(limits.retryHeader) === "1",
          noCache: asksNoCache(request.headers),
          redirect: "manual",
          signal: request.signal,
          waitUntil: context ? (promise) => context.waitUntil(promise) : undefined,
        },
        clock(),
      );
      let outcome: Outcome;
      try {
        outcome = await serve(call);
      } catch (error) {
        const failure = failureOfError(error, {});
        return errorResponse(failure, statusOfError(failure.type), started);
      }
      return responseOf(outcome, method, started, clock());
    },

    async getJson(path, schema, callOptions = {}) {
      const url = new URL(path, internalBase);
      if (!isAllowedPath(url.pathname, allowedPrefixes))
        throw new SiteError("notfound", `No such service: ${url.pathname}`);
      const call = callOf(
        {
          method: "GET",
          url,
          headers: new Headers({ accept: "application/json" }),
          body: null,
          retry: callOptions.retry ?? false,
          noCache: callOptions.noCache ?? false,
          redirect: "follow",
          signal: callOptions.signal,
          waitUntil: callOptions.waitUntil,
        },
        clock(),
      );
      const outcome = await serve(call);
      if ("failure" in outcome.result) throw siteErrorOf(outcome.result.failure);
      const { answer } = outcome.result;
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
}

function defaultCache(): Cache | null {
  // The DOM lib's CacheStorage type hides the Workers-only `default`; plain Node has no `caches`.
  if (typeof caches === "undefined" || !("default" in caches)) return null;
  return (caches as CacheStorage & { default: Cache }).default;
}

function fromCopy(copy: CachedAnswer, tier: "memory" | "cacheapi"): Outcome {
  return { source: "hit", tier, result: { answer: copy.answer }, storedAt: copy.storedAt };
}

function fromStaleCopy(stale: StaleCandidate): Outcome {
  return {
    source: "stale",
    tier: stale.tier,
    result: { answer: stale.copy.answer },
    storedAt: stale.copy.storedAt,
  };
}

function siteErrorOf(failure: RememberedFailure): SiteError {
  const body = failure.answer ? new TextDecoder().decode(failure.answer.body) : undefined;
  return new SiteError(failure.type, failure.message, {
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}
