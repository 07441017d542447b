import { unitHash } from "#origin/catalog-rules.ts";
import type { Track } from "./entities";
import { chartLocations } from "./locations";

/** How often a track was identified in a country: in all, and lately. */
export type CountryCount = { country: string; track: Track; total: number; recent: number };

export type ChartCounts = {
  locations: ReturnType<typeof chartLocations>;
  countryCounts: CountryCount[];
  /** Each track's count over every country, by track key. */
  totals: Map<number, number>;
};

/** Charts: per-country tag counts, seeded by track × country, and each track's total. */
export function chartCounts(tracks: Track[]): ChartCounts {
  const locations = chartLocations();
  const countryCounts: CountryCount[] = [];
  for (const country of locations.countries) {
    for (const track of tracks) {
      const base = 400 + 6000 * unitHash(`base:${track.key}`) ** 2;
      const affinity = 0.5 + unitHash(`genre:${country.id}:${track.genreId}`);
      const total = Math.round(
        base * country.weight * affinity * (0.3 + 1.4 * unitHash(`count:${country.id}:${track.key}`)),
      );
      if (total === 0) continue;
      const recent = Math.round(total * (0.01 + 0.25 * unitHash(`recent:${country.id}:${track.key}`) ** 2));
      countryCounts.push({ country: country.id, track, total, recent });
    }
  }
  const totals = new Map<number, number>();
  for (const c of countryCounts) totals.set(c.track.key, (totals.get(c.track.key) ?? 0) + c.total);
  return { locations, countryCounts, totals };
}
