import { type ChartScoreRow, liveCountsSince, storeChartScores } from "#origin/db/charts.ts";
import type { Database } from "#origin/db/rows.ts";
import { tagCountsIn } from "#origin/db/tag-counts.ts";
import { cityScore } from "./catalog-rules";
import {
  type Baseline,
  cityIsLive,
  dayAge,
  type LiveDay,
  trackScores,
  visitorWeight,
  windowStart,
} from "./chart-scores";

/** The world's scope in chart_scores; a country's is its code, a city's `cityScope(id)`. */
export const worldScope = "WORLD";
export const cityScope = (cityId: number) => `city:${cityId}`;

type Scope = { key: string; country: string | undefined; cityId: number | undefined };

/**
 * Run by the Cron Trigger (origin/scheduled.ts; decision 032): the scores of every scope with live
 * counts (the world, each country, each city past the threshold), from the seeded baseline and the
 * live window (origin/chart-scores.ts), stored with the time they were computed. Scopes and tracks
 * without live counts keep their seeded scores, read where they are.
 */
export async function recomputeCharts(d1: Database, now: Date): Promise<{ scopes: number; rows: number }> {
  const live = await liveCountsSince(d1, windowStart(now));
  const byScope = new Map<
    string,
    { scope: Scope; tracks: Map<number, LiveDay[]>; identifications: number }
  >();
  const add = (scope: Scope, row: (typeof live)[number]) => {
    const entry = byScope.get(scope.key) ?? { scope, tracks: new Map(), identifications: 0 };
    byScope.set(scope.key, entry);
    entry.identifications += row.identifications;
    const days = entry.tracks.get(row.track_key) ?? [];
    entry.tracks.set(row.track_key, days);
    days.push({ age: dayAge(row.day, now), identifications: row.identifications, visitors: row.visitors });
  };
  for (const row of live) {
    add({ key: worldScope, country: undefined, cityId: undefined }, row);
    add({ key: row.country, country: row.country, cityId: undefined }, row);
    if (row.city_id !== 0)
      add({ key: cityScope(row.city_id), country: row.country, cityId: row.city_id }, row);
  }

  const baselines = new Map<string, Map<number, Baseline>>();
  const baselineOf = async (country: string | undefined) => {
    const key = country ?? worldScope;
    const known = baselines.get(key);
    if (known) return known;
    const counts = new Map((await tagCountsIn(d1, country)).map((c) => [c.track_key, c]));
    baselines.set(key, counts);
    return counts;
  };

  const rows: ChartScoreRow[] = [];
  for (const { scope, tracks, identifications } of byScope.values()) {
    if (scope.cityId !== undefined && !cityIsLive(identifications)) continue;
    const countryBaseline = await baselineOf(scope.country);
    const cityId = scope.cityId;
    // A city's baseline is its seeded chart's score (the country's reweighted per city).
    const baseline =
      cityId === undefined
        ? countryBaseline
        : new Map(
            [...countryBaseline].map(([key, c]) => [
              key,
              { total: cityScore(c.total, key, cityId), recent: c.recent },
            ]),
          );
    const weight = visitorWeight(Math.max(0, ...[...baseline.values()].map((c) => c.total)));
    for (const [trackKey, days] of tracks) {
      const scores = trackScores(baseline.get(trackKey) ?? { total: 0, recent: 0 }, days, weight);
      rows.push({ scope: scope.key, track_key: trackKey, ...scores });
    }
  }
  await storeChartScores(d1, rows, now.toISOString());
  return { scopes: new Set(rows.map((row) => row.scope)).size, rows: rows.length };
}
