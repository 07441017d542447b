import type { LighthouseCategory } from "./lighthouse";
import type { PageName } from "./pages";

/** 1 KB = 1000 bytes (as Lighthouse and Chrome count); the worker's limit is binary, as Cloudflare's. */
export const KB = 1000;
export const MiB = 1024 * 1024;

/** The bench's budgets, in the words they were set in: the first bench's, and decisions 027, 055 and 056's where they replaced them. */
export const budgets = {
  /** "track page ≥ 0.25× static" (throughput as a ratio of the static asset's). */
  trackThroughputRatio: 0.25,
  /** The first bench's "p99 ≤ 30 ms with a warm cache" (50 connections): held to the pages the HTML cache does not serve. */
  p99Ms: 30,
  /** Warm HTML cache (decision 055): "every page ≥ 0.5× the static asset's throughput". */
  warmCacheThroughputRatio: 0.5,
  /** Decision 055: "p99 at 50 connections within 3× the static asset's p99". */
  warmCacheP99Ratio: 3,
  /**
   * Render cost of a cache miss (decision 056, replacing the first bench's 1 / 3 ms): "p50 ≤ 2 ms and p99 ≤ 6 ms
   * for home, track, artist and search; ≤ 4 / 10 ms for the top-200 chart; every page's p99 under
   * the free plan's 10 ms".
   */
  render: {
    pages: {
      home: { p50Ms: 2, p99Ms: 6 },
      track: { p50Ms: 2, p99Ms: 6 },
      artist: { p50Ms: 2, p99Ms: 6 },
      search: { p50Ms: 2, p99Ms: 6 },
      charts: { p50Ms: 4, p99Ms: 10 },
    } as Partial<Record<PageName, { p50Ms: number; p99Ms: number }>>,
    /** Every other page: the free plan's CPU limit per request ("under": strictly below). */
    everyPageP99BelowMs: 10,
  },
  /** "upstream calls for 100 concurrent identical misses (budget: 1)". */
  coalescedUpstreamCalls: 1,
  /** Decision 027: "First-visit JS ≤ 95 KB gzip on every page (framework floor + ≤ 10 KB)". */
  firstVisitJsGzipBytes: 95 * KB,
  /**
   * The JavaScript a first visit really downloads (decision 027, parts 4 and 5), from the browser's own network record
   * (transfer bytes, headers included, as served), "≤ 110 KB every page". It exceeds the manifest's
   * figure by the runtime's chunks fetched after hydration and the responses' headers (bench/downloaded-js.ts).
   */
  firstVisitDownloadedJsBytes: 110 * KB,
  /** "CSS ≤ 15 KB gzip" (held to by every page). */
  cssGzipBytes: 15 * KB,
  /** "AMP page ≤ 40 KB" (the document as served, uncompressed). */
  ampBytes: 40 * KB,
  /** "worker ≤ 1 MiB gzip". */
  workerGzipBytes: MiB,
  /** Lighthouse: "Budgets: 98, 100, 100, 100". */
  lighthouse: { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 } satisfies Record<
    LighthouseCategory,
    number
  >,
} as const;

/** `missing`: the page answers 404 (not built yet); `info`: a figure without a budget. */
export type Verdict = "PASS" | "FAIL" | "info" | "missing" | "not run" | "error";

export type Row = { area: string; item: string; figure: string; budget: string; verdict: Verdict };

export function atMost(value: number, limit: number): Verdict {
  return Number.isFinite(value) && value <= limit ? "PASS" : "FAIL";
}

export function atLeast(value: number, limit: number): Verdict {
  return Number.isFinite(value) && value >= limit ? "PASS" : "FAIL";
}

export function kb(bytes: number): string {
  const value = bytes / KB;
  return `${value < 100 ? value.toFixed(2) : value.toFixed(1)} KB`;
}

export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
}

/** The table printed on stdout: one line per figure, columns padded to their widest cell. */
export function formatTable(rows: readonly Row[]): string {
  const header: Row = { area: "area", item: "item", figure: "figure", budget: "budget", verdict: "PASS" };
  const cells = [header, ...rows].map((row, index) => [
    row.area,
    row.item,
    row.figure,
    row.budget,
    index === 0 ? "verdict" : row.verdict,
  ]);
  const widths = [0, 1, 2, 3, 4].map((column) =>
    Math.max(...cells.map((line) => (line[column] ?? "").length)),
  );
  const lines = cells.map((line) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [lines[0], rule, ...lines.slice(1)].join("\n");
}
