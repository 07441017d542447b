import { dayMs } from "#rules/time.ts";
import { discoveryScore } from "./catalog-rules";

/**
 * The scores charts rank by (decision 032), from the seeded counts (the baseline) and the live
 * visitors of daily_identifications (a visitor counts once per track per day: the chart rule).
 * Pure: origin/chart-recompute.ts reads and writes, this decides.
 */

/** Live days a recompute reads: today (UTC) and the six before. */
export const liveWindowDays = 7;
/** A visitor-day loses half its weight every this many days: yesterday counts 71 %, a week ago 9 %. */
export const halfLifeDays = 2;
/** Momentum's recent window: today and yesterday, against the whole live window. */
export const momentumRecentDays = 2;
/**
 * One live visitor-day today is worth this fraction of the scope's leading seeded total: 50
 * visitors lift any song past the leader (so into the top 10), one visitor moves a song by 2.5 % of
 * the leader — never from the lower half into the top 10 of a seeded chart.
 */
export const visitorShareOfLeader = 1 / 40;
/** A city gets its own live chart from this many identifications in the window; below, the seeded one. */
export const cityLiveThreshold = 200;

/** One day of one track's live counts in a scope; `age` in whole days before today (0 = today). */
export type LiveDay = { age: number; identifications: number; visitors: number };

/** The weight of a visitor-day `age` days old: 1 today, halving every `halfLifeDays`, 0 outside the window. */
export function dayWeight(age: number): number {
  return age < 0 || age >= liveWindowDays ? 0 : 0.5 ** (age / halfLifeDays);
}

/** Live visitors with the decay: what a track's live count adds, in visitor-days. */
export function decayedVisitors(days: readonly LiveDay[]): number {
  return days.reduce((sum, day) => sum + day.visitors * dayWeight(day.age), 0);
}

/** Points one visitor-day adds in a scope whose leading seeded total is `leaderTotal`. */
export function visitorWeight(leaderTotal: number): number {
  return Math.max(1, leaderTotal) * visitorShareOfLeader;
}

/** Whether a city's live identifications in the window are enough for a live chart. */
export function cityIsLive(identifications: number): boolean {
  return identifications >= cityLiveThreshold;
}

/** Seeded numbers of one track in a scope: `total` all time, `recent` the last week. */
export type Baseline = { total: number; recent: number };

/**
 * A track's scores: `score` = the seeded total plus its weighted live visitors (no live visitors:
 * exactly the seeded total, so a fresh catalogue ranks as seeded); `momentum` = the discovery
 * score (recent over total) with the live recent days added to recent and the whole live window to
 * total, so a song whose visitors arrived in the last days rises above one visited all week.
 */
export function trackScores(
  baseline: Baseline,
  live: readonly LiveDay[],
  weight: number,
): { score: number; momentum: number } {
  const inWindow = live.filter((day) => day.age >= 0 && day.age < liveWindowDays);
  const recent = inWindow
    .filter((day) => day.age < momentumRecentDays)
    .reduce((sum, day) => sum + day.visitors, 0);
  const all = inWindow.reduce((sum, day) => sum + day.visitors, 0);
  return {
    score: baseline.total + weight * decayedVisitors(inWindow),
    momentum: discoveryScore(baseline.total + weight * all, baseline.recent + weight * recent),
  };
}

/** Whole UTC days from `day` (YYYY-MM-DD) to the UTC day of `now`. */
export function dayAge(day: string, now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((today - Date.parse(`${day}T00:00:00Z`)) / dayMs);
}

/** The first day (YYYY-MM-DD) of the live window ending on `now`'s UTC day. */
export function windowStart(now: Date): string {
  return new Date(now.getTime() - (liveWindowDays - 1) * dayMs).toISOString().slice(0, 10);
}
