/**
 * Charts are recomputed (decision 032) every this many minutes, on the minute multiples — the worker's
 * Cron Trigger (wrangler.toml `[triggers] crons = ["*\/10 * * * *"]`). Chart answers and the pages
 * built from them stay fresh until the next run, and no longer.
 */
export const chartRecomputeMinutes = 10;

const periodMs = chartRecomputeMinutes * 60_000;

/**
 * How long a chart answer is kept once the recompute after its own is due but has not stored its
 * scores (the run is in progress, late, or failed): long enough to spare D1 a read per request,
 * short enough that the new order is out within half a minute of landing.
 */
export const lateRecomputeRecheckSeconds = 30;

/** When the recompute after one computed at `computedAtMs` is due: the first ten-minute mark after it. */
function nextRecomputeDue(computedAtMs: number): number {
  return (Math.floor(computedAtMs / periodMs) + 1) * periodMs;
}

/**
 * Seconds an answer ranked by the recompute computed at `computedAtMs` stays fresh at `nowMs`: until
 * the next recompute is due (at most one period), so no cache keeps an order past the run that
 * replaces it. Reckoned from the answer's own recompute, not from the clock's mark: an answer read
 * while the due run is still storing would otherwise keep the old order a whole period more.
 */
export function chartFreshSeconds(computedAtMs: number, nowMs: number): number {
  const left = Math.ceil((nextRecomputeDue(computedAtMs) - nowMs) / 1000);
  return left > 0 ? Math.min(left, periodMs / 1000) : lateRecomputeRecheckSeconds;
}

/** The Cache-Control of a chart answer: shared caches and browsers keep it until the next recompute. */
export function chartCacheControl(computedAtMs: number, nowMs: number): string {
  return `public, max-age=${chartFreshSeconds(computedAtMs, nowMs)}`;
}

/**
 * What a page or file showing a chart's order tells the caches that keep documents: the answer's
 * lifetime, and `must-revalidate`, so that no copy answers stale past it — the edge's document
 * cache would otherwise answer the old order while it re-renders (decision 055's
 * stale-while-revalidate), however recent the recompute. The services proxy's chart answers keep
 * their stale-if-error: an old order beats an error while the origin is down.
 */
export function chartDocumentCacheControl(computedAtMs: number, nowMs: number): string {
  return `max-age=${chartFreshSeconds(computedAtMs, nowMs)}, must-revalidate`;
}
