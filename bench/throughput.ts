import autocannon, { type Result } from "autocannon";
import { visitorHeaders } from "./pages";
import { round } from "./stats";

/** The first bench's "requests/s, p50 and p99 latency at 50 connections". */
export const connections = 50;
/** Seconds of load before the measured run: the proxy's caches and the isolate get warm. */
export const warmupSeconds = 2;
export const measuredSeconds = 5;
/** The measured run again, longer, when the first one got fewer answers than connections. */
export const slowPageSeconds = 15;

export type Throughput = {
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, and connection errors: a run with either is not a clean figure. */
  non2xx: number;
  errors: number;
};

function answeredOf(result: Result): number {
  return Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + Number(count), 0);
}

/** A request this fast means the worker has no backlog left. */
const idleMs = 25;
const drainDeadlineMs = 60_000;

/**
 * Waits until the worker has finished the requests a run left behind: autocannon stops sending
 * when its time is up, but workerd still answers what it has accepted, and a backlog would count
 * against the next run.
 */
export async function drain(base: string, probePath: string): Promise<void> {
  const deadline = Date.now() + drainDeadlineMs;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const started = Date.now();
    try {
      await (await fetch(base + probePath)).arrayBuffer();
      quick = Date.now() - started < idleMs ? quick + 1 : 0;
    } catch {
      // A connection refused or reset while workerd is saturated: ask again.
      quick = 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Throughput and latency of one address: a warm-up run, then the measured run, each drained. */
export async function loadTest(
  base: string,
  path: string,
  probePath: string,
  headers: Record<string, string> = { ...visitorHeaders },
): Promise<Throughput> {
  const options = { url: base + path, connections, headers };
  await autocannon({ ...options, duration: warmupSeconds });
  await drain(base, probePath);
  let result = await autocannon({ ...options, duration: measuredSeconds });
  await drain(base, probePath);
  if (answeredOf(result) < connections) {
    // Streamed renders interleave: a slow page can answer its first 50 all at once, after the run.
    result = await autocannon({ ...options, duration: slowPageSeconds });
    await drain(base, probePath);
  }
  const answered = answeredOf(result);
  return {
    path,
    requestsPerSecond: round(answered / result.duration, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
