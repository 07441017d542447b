import type { CacheTier } from "./cache";
import * as limits from "./limits";
import { untilAborted, withDeadline } from "./signals";
import type { Call, Result, UpstreamSettings } from "./upstream-call";

// Coalescing: identical cached GETs in flight at the same time share one upstream call.

/** Where an answer came from, as the `x-cache` header says. */
export type CacheSource = "hit" | "miss" | "coalesced" | "stale" | "failure";

/** What the proxy serves a call: the upstream's result (or a remembered failure) and where it came from. */
export type Outcome = {
  source: CacheSource;
  result: Result;
  tier?: CacheTier;
  storedAt?: number;
  upstreamMs?: number;
  retryAfterMs?: number;
  /** Until when the answer is fresh in the caches (proxy clock); none: not stored, or stale. */
  freshUntil?: number;
};

/** A resolved flight, and whether callers with other headers (another identity) may share it. */
export type Resolved<T> = { outcome: T; shareable: boolean; identity: string };
export type ResolvedGet = Resolved<Outcome>;

/** What a caller that joined a flight reports: a miss it shared is `coalesced`, the rest as is. */
export function asCoalesced(outcome: Outcome): Outcome {
  return outcome.source === "miss" ? { ...outcome, source: "coalesced" } : outcome;
}

/**
 * How long a caller that joined a flight waits before asking on its own. A flight always settles
 * within its tries' timeouts and pauses, unless the request that started it was cancelled (the
 * Workers runtime then drops that request's timers and I/O, and the flight with them).
 */
export function flightDeadlineMs(retry: boolean, upstream: Omit<UpstreamSettings, "upstream">): number {
  const tries = retry ? limits.maxRetries + 1 : 1;
  return (tries + 1) * upstream.timeoutMs + upstream.retryDelayMs * (2 ** (tries - 1) - 1);
}

/**
 * The requests in flight, by cache key (the proxy's calls; the document cache's renders, edge/
 * document-cache.ts). A call joins a flight of the same key and shares its
 * outcome when the flight's resolution is shareable or was asked with the same identity; a
 * resolution it may not share (a 401, a private answer) makes it ask on its own. A flight that
 * outlives `deadlineMs` is dropped and the call starts its own. `joined` is what a caller that
 * shared another's flight reports.
 */
export function createInFlight<T>(joined: (outcome: T) => T) {
  const flights = new Map<string, { identity: string; promise: Promise<Resolved<T>> }>();
  return {
    async join(
      call: Pick<Call, "key" | "identity" | "signal">,
      deadlineMs: number,
      resolve: () => Promise<Resolved<T>>,
    ): Promise<T> {
      const flight = flights.get(call.key);
      if (flight) {
        const resolved = await untilAborted(withDeadline(flight.promise, deadlineMs), call.signal);
        if (resolved && (resolved.shareable || resolved.identity === call.identity)) {
          return joined(resolved.outcome);
        }
        if (resolved) return (await resolve()).outcome;
        if (flights.get(call.key) === flight) flights.delete(call.key);
      }
      const promise = resolve();
      const entry = { identity: call.identity, promise };
      flights.set(call.key, entry);
      const settle = () => {
        if (flights.get(call.key) === entry) flights.delete(call.key);
      };
      promise.then(settle, settle);
      return (await untilAborted(promise, call.signal)).outcome;
    },
  };
}
