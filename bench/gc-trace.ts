import type { HeapUsage } from "./heap";

/**
 * V8's `--trace-gc` lines, as workerd prints them: one per collection, with the heap's used and
 * committed size before and after it, e.g.
 * `[11690:0x5002…]   455 ms: Scavenge 12.4 (15.0) -> 10.1 (16.0) MB, pooled: 0.0 MB, …`.
 * The size before a collection is the heap's high point since the last one: read from every
 * collection, the peak is exact, where sampling through the inspector (answered between requests
 * under load) sees a few points of it.
 */
const gcLine =
  /^\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: ([A-Za-z -]+?)(?: \([a-z ]+\))? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB.*?\) ([^;]+);/;

export type GcEvent = {
  /**
   * V8's isolate, as the line names it: workerd runs one per worker, Miniflare's own included
   * (its D1, assets and proxy workers).
   */
  isolate: string;
  /** Why V8 collected: "allocation failure", "heap profiler" (a heap snapshot), … */
  reason: string;
  /** A full collection (Mark-Compact): what is used after it is what the isolate holds live. */
  full: boolean;
  before: HeapUsage;
  after: HeapUsage;
};

/** A collection from one line of workerd's output; undefined for any other line. */
export function parseGcLine(line: string): GcEvent | undefined {
  const match = gcLine.exec(line);
  if (!match) return undefined;
  const [, isolate = "", kind = "", usedBefore, totalBefore, usedAfter, totalAfter, reason = ""] = match;
  return {
    isolate,
    reason,
    full: kind === "Mark-Compact",
    before: { usedMb: Number(usedBefore), totalMb: Number(totalBefore) },
    after: { usedMb: Number(usedAfter), totalMb: Number(totalAfter) },
  };
}

/**
 * The isolate that a heap snapshot collected: the inspector snapshots the site's worker only, so
 * this names the site's isolate among Miniflare's.
 */
export function snapshotIsolate(events: readonly GcEvent[]): string | undefined {
  return [...events].reverse().find((event) => event.reason === "heap profiler")?.isolate;
}

/** The highest used and committed (total) heap of `isolate` over these collections, and their count. */
export function gcPeak(events: readonly GcEvent[], isolate: string): HeapUsage & { collections: number } {
  let usedMb = 0;
  let totalMb = 0;
  let collections = 0;
  for (const { before, after } of events.filter((event) => event.isolate === isolate)) {
    collections += 1;
    usedMb = Math.max(usedMb, before.usedMb, after.usedMb);
    totalMb = Math.max(totalMb, before.totalMb, after.totalMb);
  }
  return { usedMb, totalMb, collections };
}

/**
 * The most `isolate` held live: the largest heap used after a full collection (0 when there was
 * none: it never came near its limit). Unlike the high point, it does not depend on how long V8 let garbage pile up.
 */
export function gcLive(events: readonly GcEvent[], isolate: string): number {
  let usedMb = 0;
  for (const { after } of events.filter((event) => event.isolate === isolate && event.full))
    usedMb = Math.max(usedMb, after.usedMb);
  return usedMb;
}
