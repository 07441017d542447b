import type { SiteErrorType } from "#rules/errors.ts";
import type { Answer } from "./cache";

/**
 * Failed GET results remembered per URL (spec 001 §4 "Request caching and retry", §9; decision
 * 059): a 404 or other 4xx as well as an outage, when it is the URL's and not one caller's.
 *
 * The first failure of a URL opens an entry that counts tries: the try that failed is try 1, every
 * later request for the URL is the next try. Tries up to `rememberedAfterTries` still reach the
 * upstream; later tries get the remembered failure instead, and tries past `maxTries` get
 * `limitexceeded`. A success forgets the URL; so does the cool-down, counted from the latest
 * upstream failure. At most `maxEntries` URLs are remembered (the oldest failure is dropped first).
 */

/** What a remembered failure replays: an error type, and the upstream's answer when it sent one. */
export type RememberedFailure = {
  type: SiteErrorType;
  message: string;
  /** The upstream status, when the failure was an answer. */
  status?: number;
  /** The upstream answer to replay, when it was small enough to keep. */
  answer?: Answer;
};

export type FailureVerdict =
  | { verdict: "ask" }
  | { verdict: "remembered"; failure: RememberedFailure; tries: number }
  | { verdict: "limitexceeded"; failure: RememberedFailure; tries: number; retryAfterMs: number };

export type FailureMemory = {
  /** Counts a try of `key` when a failure is remembered, and says whether to ask the upstream. */
  check(key: string): FailureVerdict;
  /** Remembers the latest upstream failure of `key`. */
  record(key: string, failure: RememberedFailure): void;
  /** Forgets `key` (after a success). */
  forget(key: string): void;
  size(): number;
};

export type FailureMemoryOptions = {
  rememberedAfterTries: number;
  maxTries: number;
  cooldownMs: number;
  maxEntries: number;
  now: () => number;
};

export function createFailureMemory(options: FailureMemoryOptions): FailureMemory {
  const entries = new Map<string, { failure: RememberedFailure; tries: number; failedAt: number }>();

  return {
    check(key) {
      const entry = entries.get(key);
      if (!entry) return { verdict: "ask" };
      const since = options.now() - entry.failedAt;
      if (since >= options.cooldownMs) {
        entries.delete(key);
        return { verdict: "ask" };
      }
      entry.tries += 1;
      if (entry.tries > options.maxTries) {
        const retryAfterMs = options.cooldownMs - since;
        return { verdict: "limitexceeded", failure: entry.failure, tries: entry.tries, retryAfterMs };
      }
      if (entry.tries > options.rememberedAfterTries) {
        return { verdict: "remembered", failure: entry.failure, tries: entry.tries };
      }
      return { verdict: "ask" };
    },
    record(key, failure) {
      const entry = entries.get(key);
      entries.delete(key);
      entries.set(key, { failure, tries: entry?.tries ?? 1, failedAt: options.now() });
      while (entries.size > options.maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    forget(key) {
      entries.delete(key);
    },
    size: () => entries.size,
  };
}
