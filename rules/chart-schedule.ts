/**
 * Charts are recomputed (decision 032) every this many minutes, on the minute multiples — the worker's
 * Cron Trigger (wrangler.toml `[triggers] crons = ["*\/10 * * * *"]`). Chart answers and the pages
 * built from them stay fresh until the next run, and no longer.
 */
export const chartRecomputeMinutes = 10;

/** Seconds from `nowMs` to the next scheduled recompute (at least 1: a run due now is the next one). */
export function secondsUntilNextRecompute(nowMs: number): number {
  const period = chartRecomputeMinutes * 60_000;
  const next = (Math.floor(nowMs / period) + 1) * period;
  return Math.max(1, Math.ceil((next - nowMs) / 1000));
}

/** The Cache-Control of a chart answer: shared caches and browsers keep it until the next recompute. */
export function chartCacheControl(nowMs: number): string {
  return `public, max-age=${secondsUntilNextRecompute(nowMs)}`;
}
