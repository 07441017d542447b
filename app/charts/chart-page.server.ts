import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Translate } from "#app/shell/i18n.server.ts";
import { absoluteUrl, requestMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import { imageFromTemplate } from "#app/shell/view.ts";
import { chartPath } from "#rules/addresses.ts";
import { chartDocumentCacheControl } from "#rules/chart-schedule.ts";
import { catalogueImageWidths } from "#rules/content-rules.ts";
import { countryName } from "#rules/countries.ts";
import { documentCacheControlHeader } from "#rules/document-cache-control.ts";
import { numberFormat, timeAgo } from "#rules/intl.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { type ChartType, chartRowsPageParam, localizedPath } from "#rules/path.ts";
import type { ChartLocations } from "#rules/schemas/charts.ts";
import {
  type ChartRoute,
  chartPagePath,
  findChartCountry,
  notFound,
  type ResolvedChart,
} from "./chart-address.server";
import { chartArtistsOf, chartRowsOf, chartRowsPerPage, chartTexts, loadChart } from "./chart-songs.server";

type Context = Pick<AppLoadContext, "edge" | "services">;

/** The chart page (spec 001 §3 Chart): one page of a chart's rows, its tabs and picker, its head. */

export type ChartOption = { value: string; label: string };

/** The world first, then the countries in the page language's alphabetical order. */
export function countryOptions(locations: ChartLocations, lang: LanguageKey, locale: string): ChartOption[] {
  const collator = new Intl.Collator(locale);
  const countries = locations.countries
    .map((country) => ({ value: country.urlName, label: countryName(country.id, lang) }))
    .sort((a, b) => collator.compare(a.label, b.label));
  return [{ value: locations.global.urlName, label: countryName(locations.global.id, lang) }, ...countries];
}

/** The chart types a country has, as links (the world has no city charts). */
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
    { type: "discovery", path: chartPath("discovery", chart.countryUrlName) },
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
  /** `genreTabs`: the `chartsgenretabs` flag; off, the genre tab shows only on a genre chart itself. */
  options: { adamIdRoute: boolean; genreTabs: boolean; rowsPage: number },
  now: Date,
) {
  const { edge } = context;
  const { locations, chart, songs, computedAt, demo } = await loadChart(context, route);
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
    /**
     * When the recompute that ranked these songs ran (`at`, ISO 8601: the chart answer's own time,
     * read with its order, decision 032) and `text`, the same in the page's words ("12 minutes
     * ago") as of the render. The page is cached until the next recompute is due, so the browser
     * says it again by its own clock in `locale` (ChartUpdated).
     */
    updated:
      computedAt === undefined
        ? undefined
        : {
            at: computedAt,
            text: timeAgo(Date.parse(computedAt), now.getTime(), edge.locale),
            locale: edge.locale,
          },
    /** The order rests on the demo catalogue's seeded counts: labelled as demo data, like the concerts. */
    demo,
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
    tabs: chartTabs(locations, edge.lang, chart).filter(
      (tab) => tab.type !== "genre" || options.genreTabs || tab.current,
    ),
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

/**
 * The headers of a page built from a chart answer computed at `computedAt`: the edge's document
 * cache keeps it until the next recompute is due and serves no stale copy past that (decision
 * 032). Browsers and other caches are told nothing new: a world chart is the visitor's
 * store-front's (the IP's country, which no `Vary` names). None for a chart with no songs.
 */
export function chartDocumentHeaders(computedAt: string | undefined, nowMs: number): Record<string, string> {
  return computedAt === undefined
    ? {}
    : { [documentCacheControlHeader]: chartDocumentCacheControl(Date.parse(computedAt), nowMs) };
}

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
      // it twice, in the head and in the loader's data, and AMP's weight is capped: decision 056).
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
