import { serviceCalls } from "./http";
/**
 * The `/services` proxy's numbers, in one place (spec 001 §4 "Request caching and retry", §9).
 */

/** "after more than 2 failures the remembered failure is returned instead of a new request" */
export const rememberedFailureAfterTries = 2;

/** "More than 100 tries gives a limit-exceeded error." */
export const maxTries = 100;

/** "Requests flagged retry are retried at most 2 times." */
export const maxRetries = 2;

/**
 * How long a remembered failure lasts, counted from the URL's latest upstream failure (decision
 * 059). The spec's failure memory lived in a browser tab; an edge isolate lives for hours and
 * serves many visitors, so it must forget. 30 s bounds the damage both ways: a failing URL costs
 * the upstream at most 2 calls per 30 s per isolate, and a recovered upstream (or a page that now
 * exists) is seen again within 30 s.
 */
export const failureCooldownMs = 30_000;

/** First pause before a retry; each next retry waits twice as long. */
export const retryDelayMs = 100;

/** "POST, PUT and no-cache requests receive a time-stamp parameter": its name, as jQuery's `cache: false`. */
export const timestampParameter = "_";

/** Largest request body forwarded upstream (recognition signatures and logs are far smaller). */
export const maxRequestBodyBytes = 256 * 1024;

/**
 * Largest upstream answer read (decision 028): a bigger one is a `serviceerror` (502), not a body held
 * in an isolate of 128 MB. The largest real answers, catalogue listings for the sitemaps, are far
 * smaller.
 */
export const maxAnswerBytes = 8 * 1024 * 1024;

/** Lifetime of a successful answer that carries no Cache-Control ("Successful results are cached by URL"). */
export const defaultTtlSeconds = 60;

/** How long past its lifetime a copy is kept to answer when the upstream fails (stale-if-error). */
export const staleIfErrorSeconds = 24 * 60 * 60;

/** Memory tier bounds: one isolate has 128 MB for everything. */
export const memoryTierLimits = { maxEntries: 500, maxBytes: 8 * 1024 * 1024, maxEntryBytes: 1024 * 1024 };

/** How many URLs the failure memory holds, and the largest upstream error body it keeps to replay. */
export const failureMemoryLimits = { maxEntries: 1000, maxBodyBytes: 8 * 1024 };

/** The upstream path prefixes the site calls: those of its declared calls (http.ts `serviceCalls`). Others answer 404. */
export const defaultAllowedPrefixes: readonly string[] = serviceCalls.map((call) => call.prefix);
