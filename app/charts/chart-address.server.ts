import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Params } from "@remix-run/react";
import * as v from "valibot";
import { chartLocationsServicePath, chartPath } from "#rules/addresses.ts";
import { chartSizes } from "#rules/content-rules.ts";
import { SiteError } from "#rules/errors.ts";
import { type ChartType, chartTypes } from "#rules/path.ts";
import {
  type ChartCountry,
  type ChartGenre,
  type ChartLocations,
  chartLocationsSchema,
} from "#rules/schemas/charts.ts";

type Context = Pick<AppLoadContext, "edge" | "services">;

/** A chart's address (spec 001 §2): the route's segments resolved against the chart locations, the picker's choice, the moved `/charts/…` addresses. */

/** Spec 001 §7 "optional include=artists": what a chart page may show besides its tracks. */
export const chartIncludes = ["artists"] as const;
export type ChartInclude = (typeof chartIncludes)[number];

/** A chart page's address as its route read it: spec 001 §2 `{type}/{country-or-world}/{cityOrGenre}[/{include}]`. */
export type ChartRoute = {
  type: ChartType;
  country: string;
  cityOrGenre: string | undefined;
  include: string | undefined;
};

/** A chart address resolved against `/services/charts/locations`. */
export type ResolvedChart = {
  type: ChartType;
  /** Country code (GB), or WORLD. */
  countryCode: string;
  countryUrlName: string;
  city: { urlName: string; name: string } | undefined;
  genre: { urlName: string; name: string } | undefined;
  include: ChartInclude | undefined;
  listid: string;
  /** Spec 001 §7 page size: 200 for top, discovery and world; 50 for a city; a genre uses its count. */
  size: number;
  /** The canonical path without language prefix and without the include segment. */
  path: string;
};

export function notFound(message: string): SiteError {
  return new SiteError("notfound", message);
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The locations entry of a chart URL's country segment; undefined for the world. */
export function findChartCountry(
  locations: ChartLocations,
  urlName: string,
): ChartCountry | "world" | undefined {
  if (sameName(urlName, locations.global.urlName)) return "world";
  return locations.countries.find((country) => sameName(country.urlName, urlName));
}

/**
 * Every chart page there is, by its canonical path (no language, no include), from the same
 * locations the charts landing links from: the world's top 200, discovery and genre charts; each
 * country's top 200, discovery chart, city top 50s and genre charts. A genre without songs is left out: its
 * chart would be an empty page.
 */
export function chartPagePaths(locations: ChartLocations): string[] {
  const world = locations.global.urlName;
  const genrePaths = (country: string, genres: readonly ChartGenre[]) =>
    genres.filter((genre) => genre.count > 0).map((genre) => chartPath("genre", country, genre.urlName));
  return [
    chartPath("top-200", world),
    chartPath("discovery", world),
    ...genrePaths(world, locations.global.genres),
    ...locations.countries.flatMap((country) => [
      chartPath("top-200", country.urlName),
      chartPath("discovery", country.urlName),
      ...country.cities.map((city) => chartPath("top-50", country.urlName, city.urlName)),
      ...genrePaths(country.urlName, country.genres),
    ]),
  ];
}

/**
 * Spec 001 §5 "Chart parameters must resolve to a known country, city or genre; an unknown chart
 * pathname gives no data": anything that does not resolve is not found. Segments match without
 * regard to case (the route redirects to the canonical spelling).
 */
export function resolveChart(locations: ChartLocations, route: ChartRoute): ResolvedChart {
  const place = findChartCountry(locations, route.country);
  if (place === undefined) throw notFound(`No chart country ${route.country}`);
  const include =
    route.include === undefined ? undefined : chartIncludes.find((i) => sameName(i, route.include ?? ""));
  if (route.include !== undefined && include === undefined)
    throw notFound(`No chart include ${route.include}`);
  const countryUrlName = place === "world" ? locations.global.urlName : place.urlName;
  const countryCode = place === "world" ? locations.global.id : place.id;
  const base = { type: route.type, countryCode, countryUrlName, include, city: undefined, genre: undefined };

  switch (route.type) {
    case "top-200":
      return {
        ...base,
        listid: place === "world" ? locations.global.listid : place.listid,
        size: place === "world" ? chartSizes.world : chartSizes.top,
        path: chartPath(route.type, countryUrlName),
      };
    case "discovery":
      return {
        ...base,
        listid: place === "world" ? locations.global.momentum_listid : place.momentum_listid,
        size: chartSizes.discovery,
        path: chartPath(route.type, countryUrlName),
      };
    case "top-50": {
      const city =
        place === "world" || route.cityOrGenre === undefined
          ? undefined
          : place.cities.find((entry) => sameName(entry.urlName, route.cityOrGenre ?? ""));
      if (!city) throw notFound(`No city chart ${route.country}/${route.cityOrGenre}`);
      return {
        ...base,
        city: { urlName: city.urlName, name: city.locName },
        listid: city.listid,
        size: chartSizes.city,
        path: chartPath(route.type, countryUrlName, city.urlName),
      };
    }
    case "genre": {
      const genres = place === "world" ? locations.global.genres : place.genres;
      const genre = genres.find((entry) => sameName(entry.urlName, route.cityOrGenre ?? ""));
      if (!genre) throw notFound(`No genre chart ${route.country}/${route.cityOrGenre}`);
      return {
        ...base,
        genre: { urlName: genre.urlName, name: genre.name },
        listid: genre.listid,
        size: genre.count,
        path: chartPath(route.type, countryUrlName, genre.urlName),
      };
    }
  }
}

/** The canonical path of a resolved chart, with its include segment. */
export function chartPagePath(chart: ResolvedChart): string {
  const place = chart.city?.urlName ?? chart.genre?.urlName;
  return chartPath(chart.type, chart.countryUrlName, place, chart.include);
}

/** The chart picker's query (a GET form, so it works without JavaScript). */
export const chartPickerQuerySchema = v.object({
  country: v.optional(v.pipe(v.string(), v.maxLength(100))),
  type: v.optional(v.picklist(chartTypes, "Unknown chart type")),
  city: v.optional(v.pipe(v.string(), v.maxLength(100))),
  genre: v.optional(v.pipe(v.string(), v.maxLength(100))),
});
export type ChartPickerQuery = v.InferOutput<typeof chartPickerQuerySchema>;

/**
 * Where the picker leads: undefined without a chart type (the landing then shows the chosen
 * country), else the chart path. A choice the country cannot have falls back to its nearest chart:
 * a city or genre it does not list to its first one, the world's city chart (it has none) to its
 * top 200. An unknown country is not found.
 */
export function pickedChartPath(
  locations: ChartLocations,
  query: ChartPickerQuery,
  fallbackCountry: string,
): string | undefined {
  if (query.type === undefined) return undefined;
  const place = findChartCountry(locations, query.country ?? fallbackCountry);
  if (place === undefined) throw notFound(`No chart country ${query.country}`);
  if (place === "world") {
    const world = locations.global.urlName;
    if (query.type === "discovery") return chartPath("discovery", world);
    const genre = query.type === "genre" ? pickGenre(locations.global.genres, query.genre) : undefined;
    return genre ? chartPath("genre", world, genre.urlName) : chartPath("top-200", world);
  }
  switch (query.type) {
    case "top-200":
    case "discovery":
      return chartPath(query.type, place.urlName);
    case "top-50": {
      const city = place.cities.find((entry) => sameName(entry.urlName, query.city ?? "")) ?? place.cities[0];
      return city ? chartPath("top-50", place.urlName, city.urlName) : chartPath("top-200", place.urlName);
    }
    case "genre": {
      const genre = pickGenre(place.genres, query.genre);
      return genre ? chartPath("genre", place.urlName, genre.urlName) : chartPath("top-200", place.urlName);
    }
  }
}

function pickGenre(genres: readonly ChartGenre[], urlName: string | undefined): ChartGenre | undefined {
  return genres.find((entry) => sameName(entry.urlName, urlName ?? "")) ?? genres[0];
}

/** The top-in-my-country target: the visitor's country chart, or the world's when it has none. */
export function topInCountryPath(locations: ChartLocations, countryCode: string): string {
  const country = locations.countries.find((entry) => entry.id === countryCode.toUpperCase());
  return chartPath("top-200", country?.urlName ?? locations.global.urlName);
}

export function loadLocations({ services }: Pick<Context, "services">): Promise<ChartLocations> {
  return services.getJson(chartLocationsServicePath, chartLocationsSchema);
}

/** A chart route's address: the type from the path's first segment (rules/path.ts), the rest from the route's params. */
export function chartRouteOf(context: Pick<AppLoadContext, "edge">, params: Params): ChartRoute {
  const type = context.edge.path.chartType;
  if (type === undefined || params.country === undefined) throw notFound("Not a chart path");
  return { type, country: params.country, cityOrGenre: params.cityOrGenre, include: params.include };
}

/**
 * Chart pages live at /{type}/… (spec 001 §2); /charts/{type}/… is the address other music sites
 * use, so it moves there for good. The path without that "charts" segment, or undefined.
 */
export function chartPathOutsideCharts(pathname: string): string | undefined {
  const moved = pathname.replace(
    new RegExp(`^((?:/[^/]+)?)/charts/(?=(${chartTypes.join("|")})(/|$))`, "i"),
    "$1/",
  );
  return moved === pathname ? undefined : moved;
}

/**
 * `/charts/{type}/…` without a language prefix reaches the chart routes with "charts" read as the
 * language segment: moved to the chart's own address (301) instead of the not-found page.
 */
export function redirectChartsPrefix(params: Params, request: Request): void {
  if (params.lang?.toLowerCase() !== "charts") return;
  const url = new URL(request.url);
  const moved = chartPathOutsideCharts(url.pathname);
  // A plain Response: this module is shared with amp/ and the Worker, which do not load Remix's runtime.
  if (moved !== undefined)
    throw new Response(null, { status: 301, headers: { Location: `${moved}${url.search}` } });
}
