import { chartScoresOf } from "#origin/db/charts.ts";
import { genres } from "#origin/db/genres.ts";
import { cityById, countryById } from "#origin/db/places.ts";
import type { Database } from "#origin/db/rows.ts";
import { tagCountsIn } from "#origin/db/tag-counts.ts";
import { chartSizes } from "#rules/content-rules.ts";
import { cityScore, discoveryScore, listIds, rankEntries } from "./catalog-rules";
import { cityScope, worldScope } from "./chart-recompute";
import { notFound } from "./http";

/** A chart list id resolved to what it ranks. */
export type ChartList = {
  listid: string;
  kind: "world" | "country" | "discovery" | "city" | "genre";
  name: string;
  country: string | undefined;
  cityId: number | undefined;
  genreId: string | undefined;
  /** Spec 001 §7: 200 for top, discovery and world; 50 for a city; a genre uses its count. */
  size: number;
};

const patterns: { re: RegExp; kind: ChartList["kind"] }[] = [
  { re: /^ip-world-chart$/, kind: "world" },
  { re: /^ip-world-discovery$/, kind: "discovery" },
  { re: /^genre-global-chart-(\d+)$/, kind: "genre" },
  { re: /^ip-country-chart-([A-Z]{2})$/, kind: "country" },
  { re: /^ip-country-discovery-([A-Z]{2})$/, kind: "discovery" },
  { re: /^ip-city-chart-(\d+)$/, kind: "city" },
  { re: /^genre-country-chart-([A-Z]{2})-(\d+)$/, kind: "genre" },
];

export function isChartListId(id: string): boolean {
  return patterns.some((p) => p.re.test(id));
}

/** Spec 001 §5: chart parameters must resolve to a known country, city or genre. */
export async function resolveChartList(d1: Database, listid: string): Promise<ChartList> {
  const unknown = notFound(`No chart ${listid}`);
  const pattern = patterns.find((p) => p.re.test(listid));
  const match = pattern?.re.exec(listid);
  if (!pattern || !match) throw unknown;
  const genreRows = await genres(d1);
  const genreOf = (id: string | undefined) => genreRows.find((g) => g.id === id);

  if (pattern.kind === "world") {
    return {
      listid,
      kind: "world",
      name: "Top 200: World",
      country: undefined,
      cityId: undefined,
      genreId: undefined,
      size: chartSizes.world,
    };
  }
  if (pattern.kind === "discovery" && match[1] === undefined) {
    return {
      listid,
      kind: "discovery",
      name: "Discovery: World",
      country: undefined,
      cityId: undefined,
      genreId: undefined,
      size: chartSizes.discovery,
    };
  }
  if (pattern.kind === "genre") {
    const countryCode = match[2] ? match[1] : undefined;
    const genre = genreOf(match[2] ?? match[1]);
    const country = countryCode ? await countryById(d1, countryCode) : undefined;
    if (!genre || (countryCode && !country)) throw unknown;
    return {
      listid,
      kind: "genre",
      name: `Top ${genre.name}: ${country?.loc_name ?? "World"}`,
      country: country?.id,
      cityId: undefined,
      genreId: genre.id,
      size: genre.count,
    };
  }
  if (pattern.kind === "city") {
    const city = await cityById(d1, Number(match[1]));
    if (!city) throw unknown;
    return {
      listid,
      kind: "city",
      name: `Top 50: ${city.name}`,
      country: city.country,
      cityId: city.id,
      genreId: undefined,
      size: chartSizes.city,
    };
  }
  const country = await countryById(d1, match[1] ?? "");
  if (!country) throw unknown;
  return pattern.kind === "country"
    ? {
        listid,
        kind: "country",
        name: `Top 200: ${country.loc_name}`,
        country: country.id,
        cityId: undefined,
        genreId: undefined,
        size: chartSizes.top,
      }
    : {
        listid,
        kind: "discovery",
        name: `Discovery: ${country.loc_name}`,
        country: country.id,
        cityId: undefined,
        genreId: undefined,
        size: chartSizes.discovery,
      };
}

/** A chart as one recompute ranked it (decision 032). */
export type RankedChart = {
  /** The track keys, best first. */
  keys: number[];
  /** When the recompute whose scores ranked it ran (ISO 8601); before any, when the seed was loaded. */
  computedAt: string;
  /** Whether the order rests on the demo catalogue's seeded counts (every chart of the seeded catalogue does). */
  demo: boolean;
};

/**
 * The chart's track keys, best first: the seeded per-country tag counts, with the scores the last
 * recompute stored for the tracks with live counts (origin/chart-recompute.ts) in their place, and
 * the time of that recompute, read with its scores.
 */
export async function rankChart(d1: Database, list: ChartList): Promise<RankedChart> {
  const scope =
    list.kind === "city" && list.cityId !== undefined ? cityScope(list.cityId) : (list.country ?? worldScope);
  const [counts, run] = await Promise.all([tagCountsIn(d1, list.country), chartScoresOf(d1, scope)]);
  const eligible = list.genreId ? counts.filter((c) => c.genre_id === list.genreId) : counts;
  const scored = eligible.map((c) => {
    const recomputed = run.scores.get(c.track_key);
    return {
      trackKey: c.track_key,
      score:
        list.kind === "discovery"
          ? (recomputed?.momentum ?? discoveryScore(c.total, c.recent))
          : (recomputed?.score ??
            (list.kind === "city" && list.cityId !== undefined
              ? cityScore(c.total, c.track_key, list.cityId)
              : c.total)),
    };
  });
  const keys = rankEntries(scored)
    .slice(0, list.size)
    .map((e) => e.trackKey);
  return { keys, computedAt: run.computedAt, demo: eligible.some((c) => c.total > 0) };
}

export { listIds };
