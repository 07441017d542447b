import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { Params } from "@remix-run/react";
import * as v from "valibot";
import { catalogueImageWidths, chartSizes } from "../../rules/content-rules";
import { countryName } from "../../rules/countries";
import { csvContentType, toCsv } from "../../rules/csv";
import { siteOriginOf } from "../../rules/env";
import { SiteError, statusOfError } from "../../rules/errors";
import { numberFormat } from "../../rules/intl";
import { isLanguageKey, type LanguageKey } from "../../rules/languages";
import { type ChartType, chartRowsPageParam, chartTypes, localizedPath } from "../../rules/path";
import { radioSpinsPath } from "../../rules/radio";
import { playlistTracksDocumentSchema, type Song } from "../../rules/schemas/amapi";
import {
  type ChartCountry,
  type ChartGenre,
  type ChartLocations,
  chartLocationsSchema,
} from "../../rules/schemas/charts";
import { serverStrings, type Translate } from "../i18n.server";
import type { PageMeta } from "../meta";
import { artistPath, featureOptionsOf, isAdamIdRouteOn } from "./artist.server";
import { absoluteUrl, requestMeta } from "./meta.server";
import type { Image, TrackSummary } from "./view";
import { imageFromTemplate } from "./view";
import { trackSummaryOfSong } from "./view.server";

type Context = Pick<AppLoadContext, "edge" | "services">;

/** Spec 001 §7 "optional include=artists": what a chart page may show besides its tracks. */
export const chartIncludes = ["artists"] as const;
export type ChartInclude = (typeof chartIncludes)[number];
/** Spec 001 §2: "A command 'top in my country' redirects to top-200/{country url name or world}". */
export const topInMyCountryPath = "/charts/top-in-my-country";
/** The largest page the catalogue answers; longer charts are read in pages. */
const catalogPageSize = 200;
/** Songs previewed on the charts landing. */
const landingPreviewLength = 5;

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

function notFound(message: string): SiteError {
  return new SiteError("notfound", message);
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The locations entry of a chart URL's country segment; undefined for the world. */
function findChartCountry(locations: ChartLocations, urlName: string): ChartCountry | "world" | undefined {
  if (sameName(urlName, locations.global.urlName)) return "world";
  return locations.countries.find((country) => sameName(country.urlName, urlName));
}

function chartPath(type: ChartType, countryUrlName: string, cityOrGenre?: string): string {
  return `/${type}/${countryUrlName}${cityOrGenre === undefined ? "" : `/${cityOrGenre}`}`;
}

/**
 * Every chart page there is, by its canonical path (no language, no include), from the same
 * locations the charts landing links from: the world's top 200 and genre charts; each country's
 * top 200, discovery chart, city top 50s and genre charts. A genre without songs is left out: its
 * chart would be an empty page.
 */
export function chartPagePaths(locations: ChartLocations): string[] {
  const world = locations.global.urlName;
  const genrePaths = (country: string, genres: readonly ChartGenre[]) =>
    genres.filter((genre) => genre.count > 0).map((genre) => chartPath("genre", country, genre.urlName));
  return [
    chartPath("top-200", world),
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
      if (place === "world") throw notFound("The world has no discovery chart");
      return {
        ...base,
        listid: place.momentum_listid,
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
  return chart.include ? `${chart.path}/${chart.include}` : chart.path;
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
 * a city or genre it does not list to its first one, the world's discovery and city charts (it
 * has neither) to its top 200. An unknown country is not found.
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
    const genre = query.type === "genre" ? pickGenre(locations.global.genres, query.genre) : undefined;
    return genre
      ? chartPath("genre", locations.global.urlName, genre.urlName)
      : chartPath("top-200", locations.global.urlName);
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

/** The catalogue store-front of a country code: its own for a two-letter code, else GB's. */
export function storefrontOf(countryCode: string): string {
  return /^[A-Z]{2}$/i.test(countryCode) ? countryCode.toLowerCase() : "gb";
}

export function loadLocations({ services }: Pick<Context, "services">): Promise<ChartLocations> {
  return services.getJson("/services/charts/locations", chartLocationsSchema);
}

/**
 * Spec 001 §7: the chart's list with its page size, `relate[songs]=artists,music-videos` and
 * `include=artists` (every row links to its artist). Read in pages of the catalogue's largest page.
 */
export async function loadChartSongs(
  { services }: Pick<Context, "services">,
  storefront: string,
  listid: string,
  size: number,
): Promise<Song[]> {
  const songs: Song[] = [];
  while (songs.length < size) {
    const limit = Math.min(catalogPageSize, size - songs.length);
    const offset = songs.length === 0 ? "" : `&offset=${songs.length}`;
    const page = await services.getJson(
      `/services/amapi/v1/catalog/${storefront}/playlists/${encodeURIComponent(listid)}/tracks?limit=${limit}${offset}&relate[songs]=artists,music-videos&include=artists`,
      playlistTracksDocumentSchema,
    );
    songs.push(...page.data);
    if (page.next === undefined || page.data.length === 0) break;
  }
  return songs.slice(0, size);
}

/**
 * One row of a chart as the page shows it: rank, cover, title, artist link, new-release badge.
 * Nothing more: a loader's data is written into the document a second time (issue 27).
 */
export type ChartRow = TrackSummary & {
  /** The rank written in the page's locale. */
  rankLabel: string;
  artistHref: string | undefined;
};

/** Issue 27: rows a chart page shows; a 200-song chart is four pages (`?page=N`), every row a link away. */
export const chartRowsPerPage = 50;

/** An artist of the chart (include=artists): first appearance order. */
export type ChartArtist = { id: string; name: string; href: string; avatar: Image | undefined };

function includedArtistOf(song: Song) {
  const artist = song.relationships?.artists?.data[0];
  return artist && "attributes" in artist && artist.attributes
    ? { id: artist.id, attributes: artist.attributes }
    : undefined;
}

/** The rows of `songs`, the first at rank `firstRank`. */
export function chartRowsOf(
  songs: readonly Song[],
  {
    lang,
    locale,
    adamIdRoute,
    firstRank = 1,
  }: { lang: LanguageKey; locale: string; adamIdRoute: boolean; firstRank?: number },
  now: Date,
): ChartRow[] {
  const numbers = numberFormat(locale);
  return songs.map((song, index) => {
    const artist = includedArtistOf(song);
    return {
      ...trackSummaryOfSong(song, lang, now),
      rankLabel: numbers.format(firstRank + index),
      artistHref: artist
        ? localizedPath(
            lang,
            artistPath(
              { adamid: artist.id, alias: artist.attributes.alias, shazamId: artist.attributes.shazamId },
              adamIdRoute,
            ),
          )
        : undefined,
    };
  });
}

export function chartArtistsOf(
  songs: readonly Song[],
  lang: LanguageKey,
  adamIdRoute: boolean,
): ChartArtist[] {
  const seen = new Map<string, ChartArtist>();
  for (const song of songs) {
    const artist = includedArtistOf(song);
    if (!artist || seen.has(artist.id)) continue;
    const { attributes } = artist;
    seen.set(artist.id, {
      id: artist.id,
      name: attributes.name,
      href: localizedPath(
        lang,
        artistPath(
          { adamid: artist.id, alias: attributes.alias, shazamId: attributes.shazamId },
          adamIdRoute,
        ),
      ),
      avatar: attributes.artwork
        ? imageFromTemplate(attributes.artwork.url, catalogueImageWidths)
        : undefined,
    });
  }
  return [...seen.values()];
}

/** The place a chart is about, in the page's language: the city, else the country or the world. */
function placeNames(chart: ResolvedChart, lang: LanguageKey): { country: string; place: string } {
  const country = countryName(chart.countryCode, lang);
  return { country, place: chart.city?.name ?? country };
}

/** A chart's heading and description (spec 001 §3 Chart: type, country, city, world, genre). */
export function chartTexts(chart: ResolvedChart, lang: LanguageKey): { title: string; description: string } {
  const { t } = serverStrings(lang);
  const { country, place } = placeNames(chart, lang);
  const world = chart.countryCode === "WORLD";
  const genre = chart.genre?.name ?? "";
  switch (chart.type) {
    case "top-200":
      return {
        title: t("charts:title.top200", { place }),
        description: world ? t("charts:description.top200World") : t("charts:description.top200", { place }),
      };
    case "discovery":
      return {
        title: t("charts:title.discovery", { place }),
        description: t("charts:description.discovery", { place }),
      };
    case "top-50":
      return {
        title: t("charts:title.top50", { city: place }),
        description: t("charts:description.top50", { city: place, country }),
      };
    case "genre":
      return {
        title: t("charts:title.genre", { genre, place }),
        description: world
          ? t("charts:description.genreWorld", { genre })
          : t("charts:description.genre", { genre, place }),
      };
  }
}

export type ChartOption = { value: string; label: string };

/** The world first, then the countries in the page language's alphabetical order. */
function countryOptions(locations: ChartLocations, lang: LanguageKey, locale: string): ChartOption[] {
  const collator = new Intl.Collator(locale);
  const countries = locations.countries
    .map((country) => ({ value: country.urlName, label: countryName(country.id, lang) }))
    .sort((a, b) => collator.compare(a.label, b.label));
  return [{ value: locations.global.urlName, label: countryName(locations.global.id, lang) }, ...countries];
}

/** The chart types a country has, as links (the world has no discovery and no city charts). */
function chartTabs(
  locations: ChartLocations,
  lang: LanguageKey,
  chart: Pick<ResolvedChart, "type" | "countryUrlName" | "city" | "genre">,
): { type: ChartType; href: string; current: boolean }[] {
  const place = findChartCountry(locations, chart.countryUrlName);
  const country = place === "world" || place === undefined ? undefined : place;
  const genres = country ? country.genres : locations.global.genres;
  const firstCity = country?.cities[0];
  const genre = chart.genre ?? genres[0];
  const tabs: { type: ChartType; path: string | undefined }[] = [
    { type: "top-200", path: chartPath("top-200", chart.countryUrlName) },
    { type: "discovery", path: country ? chartPath("discovery", country.urlName) : undefined },
    {
      type: "top-50",
      path:
        country && (chart.city ?? firstCity)
          ? chartPath("top-50", country.urlName, (chart.city ?? firstCity)?.urlName)
          : undefined,
    },
    { type: "genre", path: genre ? chartPath("genre", chart.countryUrlName, genre.urlName) : undefined },
  ];
  return tabs.flatMap((tab) =>
    tab.path === undefined
      ? []
      : [{ type: tab.type, href: localizedPath(lang, tab.path), current: tab.type === chart.type }],
  );
}

/** A chart and all its songs (the world's charts are read from the visitor's store-front). */
async function loadChart(context: Context, route: ChartRoute) {
  const locations = await loadLocations(context);
  const chart = resolveChart(locations, route);
  const country = chart.countryCode === "WORLD" ? context.edge.country : chart.countryCode;
  const songs =
    chart.size > 0 ? await loadChartSongs(context, storefrontOf(country), chart.listid, chart.size) : [];
  return { locations, chart, songs };
}

/**
 * The pages of a chart's rows (`rowsPage` 1-based), each with its link and its first and last rank
 * in the page's locale; one page only: none (no links to show).
 */
function rowPagesOf(total: number, rowsPage: number, href: string, locale: string) {
  const count = Math.ceil(total / chartRowsPerPage);
  if (count <= 1) return [];
  const numbers = numberFormat(locale);
  return Array.from({ length: count }, (_, index) => ({
    number: index + 1,
    href: index === 0 ? href : `${href}?${chartRowsPageParam}=${index + 1}`,
    from: numbers.format(index * chartRowsPerPage + 1),
    to: numbers.format(Math.min(total, (index + 1) * chartRowsPerPage)),
    current: index + 1 === rowsPage,
  }));
}

/**
 * The chart page: the resolved chart, one page of its rows (`rowsPage`, 1-based; past the chart's
 * end: not found), and the pickers. Shared by React and AMP.
 */
export async function loadChartPage(
  context: Context,
  route: ChartRoute,
  options: { adamIdRoute: boolean; rowsPage: number },
  now: Date,
) {
  const { edge } = context;
  const { locations, chart, songs } = await loadChart(context, route);
  const place = findChartCountry(locations, chart.countryUrlName);
  const country = place === "world" || place === undefined ? undefined : place;
  const texts = chartTexts(chart, edge.lang);
  const first = songs[0];
  const firstIndex = (options.rowsPage - 1) * chartRowsPerPage;
  if (options.rowsPage > 1 && firstIndex >= songs.length)
    throw notFound(`No page ${options.rowsPage} of ${chart.path}: it has ${songs.length} songs`);
  const pageHref = localizedPath(edge.lang, chartPagePath(chart));
  const pageSongs = songs.slice(firstIndex, firstIndex + chartRowsPerPage);
  return {
    chart: {
      ...chart,
      ...texts,
      countryName: countryName(chart.countryCode, edge.lang),
      href: localizedPath(edge.lang, chart.path),
      pageHref,
      artistsHref: localizedPath(edge.lang, `${chart.path}/artists`),
      csvHref: localizedPath(edge.lang, `${chart.path}/download.csv`),
      jsonHref: localizedPath(edge.lang, `${chart.path}/download.json`),
      /** Open Graph and JSON-LD picture: the leading song's cover, at the largest catalogue width. */
      image: first
        ? imageFromTemplate(first.attributes.artwork.url, [
            catalogueImageWidths[catalogueImageWidths.length - 1] ?? 800,
          ])
        : undefined,
    },
    /** Every song of the chart, of which `rows` is one page. */
    songCount: songs.length,
    rows: chartRowsOf(
      pageSongs,
      { lang: edge.lang, locale: edge.locale, adamIdRoute: options.adamIdRoute, firstRank: firstIndex + 1 },
      now,
    ),
    firstRank: firstIndex + 1,
    rowPages: rowPagesOf(songs.length, options.rowsPage, pageHref, edge.locale),
    artists: chart.include === "artists" ? chartArtistsOf(songs, edge.lang, options.adamIdRoute) : [],
    tabs: chartTabs(locations, edge.lang, chart),
    picker: {
      action: localizedPath(edge.lang, "/charts"),
      type: chart.type,
      countries: countryOptions(locations, edge.lang, edge.locale),
      country: chart.countryUrlName,
      cities:
        chart.type === "top-50" && country
          ? country.cities.map((city) => ({ value: city.urlName, label: city.locName }))
          : [],
      city: chart.city?.urlName,
      genres:
        chart.type === "genre"
          ? (country?.genres ?? locations.global.genres).map((genre) => ({
              value: genre.urlName,
              label: genre.name,
            }))
          : [],
      genre: chart.genre?.urlName,
    },
    landingHref: localizedPath(edge.lang, "/charts"),
  };
}

export type ChartPage = Awaited<ReturnType<typeof loadChartPage>>;

/** A chart page's head, for the React route and its AMP form. */
export function chartPageMeta(
  page: ChartPage,
  context: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
  t: Translate,
): PageMeta {
  const base = requestMeta(context, request);
  const image = page.chart.image;
  return {
    ...base,
    title: `${page.chart.title} | ${t("common:siteName")}`,
    description: page.chart.description,
    type: "music.playlist",
    ...(image
      ? {
          image: {
            url: absoluteUrl(context, image.src),
            width: image.width,
            height: image.height,
            alt: page.chart.title,
          },
        }
      : {}),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "MusicPlaylist",
      name: page.chart.title,
      description: page.chart.description,
      url: base.canonical,
      numTracks: page.songCount,
      ...(image ? { image: absoluteUrl(context, image.src) } : {}),
      // The songs this page shows, at their ranks, as they are shown (a document's JSON-LD is in
      // it twice, in the head and in the loader's data, and AMP's weight is capped: issue 27).
      // The AMP form leaves them to its canonical page: 50 songs would take a third of its 40 KB.
      ...(context.edge.isAmp
        ? {}
        : {
            track: page.rows.map((row, index) => ({
              "@type": "MusicRecording",
              position: page.firstRank + index,
              name: row.title,
              url: absoluteUrl(context, row.href),
              byArtist: {
                "@type": "MusicGroup",
                name: row.artist,
                ...(row.artistHref ? { url: absoluteUrl(context, row.artistHref) } : {}),
              },
            })),
          }),
    },
  };
}

/**
 * The charts landing (spec 001 §2 "/charts"): entry points for the world and the chosen country
 * (the visitor's, until the picker chooses another): top 200, discovery, city top 50s, genres,
 * with a preview of the chosen country's top songs. Shared by React and AMP.
 */
export async function loadChartsLanding(context: Context, query: ChartPickerQuery, now: Date) {
  const { edge } = context;
  const locations = await loadLocations(context);
  const chosen = query.country === undefined ? undefined : findChartCountry(locations, query.country);
  if (query.country !== undefined && chosen === undefined)
    throw notFound(`No chart country ${query.country}`);
  const visitor = locations.countries.find((country) => country.id === edge.country);
  const place = chosen ?? visitor ?? "world";
  const country = place === "world" ? undefined : place;
  const link = (path: string) => localizedPath(edge.lang, path);
  const genreLinks = (countryUrlName: string, genres: readonly ChartGenre[]) =>
    genres.map((genre) => ({
      name: genre.name,
      count: genre.count,
      href: link(chartPath("genre", countryUrlName, genre.urlName)),
    }));
  const previewChart = resolveChart(locations, {
    type: "top-200",
    country: country?.urlName ?? locations.global.urlName,
    cityOrGenre: undefined,
    include: undefined,
  });
  const previewSongs = await loadChartSongs(
    context,
    storefrontOf(country?.id ?? edge.country),
    previewChart.listid,
    Math.min(landingPreviewLength, previewChart.size),
  );
  const world = {
    name: countryName(locations.global.id, edge.lang),
    top200Href: link(chartPath("top-200", locations.global.urlName)),
    genres: genreLinks(locations.global.urlName, locations.global.genres),
  };
  return {
    picker: {
      action: link("/charts"),
      countries: countryOptions(locations, edge.lang, edge.locale),
      country: country?.urlName ?? locations.global.urlName,
    },
    topInMyCountryHref: link(topInMyCountryPath),
    world,
    radio: locations.global.genres
      .filter((genre) => genre.count > 0)
      .map((genre) => ({ name: genre.name, href: link(radioSpinsPath(genre.urlName)) })),
    country: country
      ? {
          name: countryName(country.id, edge.lang),
          top200Href: link(chartPath("top-200", country.urlName)),
          discoveryHref: link(chartPath("discovery", country.urlName)),
          cities: country.cities.map((city) => ({
            name: city.locName,
            href: link(chartPath("top-50", country.urlName, city.urlName)),
          })),
          genres: genreLinks(country.urlName, country.genres),
        }
      : undefined,
    preview: {
      title: chartTexts(previewChart, edge.lang).title,
      href: link(previewChart.path),
      tracks: previewSongs.map((song) => trackSummaryOfSong(song, edge.lang, now)),
    },
  };
}

export type ChartsLanding = Awaited<ReturnType<typeof loadChartsLanding>>;

/** The charts landing's head, for the React route and its AMP form. */
export function chartsLandingMeta(
  context: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
  t: Translate,
): PageMeta {
  const base = requestMeta(context, request);
  return {
    ...base,
    title: t("common:pageTitle.chartsview"),
    description: t("charts:landing.metaDescription"),
    type: "website",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "CollectionPage",
      name: t("charts:landing.title"),
      description: t("charts:landing.metaDescription"),
      url: base.canonical,
    },
  };
}

export const chartDownloadFormats = {
  csv: csvContentType,
  json: "application/json; charset=utf-8",
} as const;
export type ChartDownloadFormat = keyof typeof chartDownloadFormats;

/** The file name a download is saved under: ASCII only, from the chart's canonical path. */
export function chartFileName(chart: Pick<ResolvedChart, "path">, format: ChartDownloadFormat): string {
  const stem = chart.path
    .split("/")
    .filter((segment) => segment !== "")
    .join("-")
    .replace(/[^a-z0-9-]/gi, "")
    .toLowerCase();
  return `tunewave-${stem}.${format}`;
}

/**
 * The download of a whole chart (the "go beyond" of issue 6): every row with absolute links, as
 * CSV (one header row) or JSON (the chart's description and its tracks).
 */
export async function chartDownload(
  context: Context,
  route: ChartRoute,
  format: ChartDownloadFormat,
  options: { origin: string; adamIdRoute: boolean },
  now: Date,
): Promise<Response> {
  const { edge } = context;
  const { chart, songs } = await loadChart(context, { ...route, include: undefined });
  const { title, description } = chartTexts(chart, edge.lang);
  const rows = chartRowsOf(
    songs,
    { lang: edge.lang, locale: edge.locale, adamIdRoute: options.adamIdRoute },
    now,
  ).map((row, index) => ({
    ...row,
    rank: index + 1,
    album: songs[index]?.attributes.albumName ?? "",
    releaseDate: songs[index]?.attributes.releaseDate ?? "",
  }));
  const absolute = (path: string | undefined) =>
    path === undefined ? "" : new URL(path, options.origin).href;
  const body =
    format === "csv"
      ? toCsv([
          ["rank", "title", "artist", "album", "release_date", "new_release", "track_url", "artist_url"],
          ...rows.map((row) => [
            row.rank,
            row.title,
            row.artist,
            row.album,
            row.releaseDate,
            row.isNewRelease,
            absolute(row.href),
            absolute(row.artistHref),
          ]),
        ])
      : `${JSON.stringify(
          {
            chart: {
              type: chart.type,
              title,
              description,
              country: chart.countryCode,
              city: chart.city?.name ?? null,
              genre: chart.genre?.name ?? null,
              size: chart.size,
              url: absolute(localizedPath(edge.lang, chart.path)),
            },
            generated: now.toISOString(),
            tracks: rows.map((row) => ({
              rank: row.rank,
              key: row.key,
              title: row.title,
              artist: row.artist,
              album: row.album,
              releaseDate: row.releaseDate,
              isNewRelease: row.isNewRelease,
              url: absolute(row.href),
              artistUrl: row.artistHref === undefined ? null : absolute(row.artistHref),
              cover: row.cover ? absolute(row.cover.src) : null,
            })),
          },
          null,
          2,
        )}\n`;
  return new Response(body, {
    headers: {
      "Content-Type": chartDownloadFormats[format],
      "Content-Disposition": `attachment; filename="${chartFileName(chart, format)}"`,
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
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

/**
 * The loader of a chart's download route (`…/download.csv`, `…/download.json`). A file answer has
 * no page to show an error on: failures answer with their status and a plain-text message.
 */
export function chartDownloadLoader(format: ChartDownloadFormat) {
  return async function loader({ params, context, request }: LoaderFunctionArgs): Promise<Response> {
    redirectChartsPrefix(params, request);
    try {
      if (params.lang !== undefined && !isLanguageKey(params.lang))
        throw notFound(`no page at /${params.lang}`);
      const route = chartRouteOf(context, params);
      const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
      const origin = siteOriginOf(context.config);
      return await chartDownload(context, route, format, { origin, adamIdRoute }, new Date());
    } catch (caught) {
      if (!(caught instanceof SiteError)) throw caught;
      return new Response(`${caught.type}: ${caught.message}\n`, {
        status: statusOfError(caught.type, caught.status),
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
  };
}
