import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Translate } from "#app/shell/i18n.server.ts";
import { websitePageMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import { trackSummaryOfSong } from "#app/shell/view.server.ts";
import { chartPath, radioSpinsPath, storefrontOf } from "#rules/addresses.ts";
import { countryName } from "#rules/countries.ts";
import { localizedPath } from "#rules/path.ts";
import type { ChartGenre } from "#rules/schemas/charts.ts";
import {
  type ChartPickerQuery,
  findChartCountry,
  loadLocations,
  notFound,
  resolveChart,
} from "./chart-address.server";
import { countryOptions } from "./chart-page.server";
import { chartTexts, loadChartSongs } from "./chart-songs.server";

type Context = Pick<AppLoadContext, "edge" | "services">;

/** Spec 001 §2: "A command 'top in my country' redirects to top-200/{country url name or world}". */
export const topInMyCountryPath = "/charts/top-in-my-country";

/** Songs previewed on the charts landing. */
const landingPreviewLength = 5;

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
  const { songs: previewSongs, computedAt: previewComputedAt } = await loadChartSongs(
    context,
    storefrontOf(country?.id ?? edge.country),
    previewChart.listid,
    Math.min(landingPreviewLength, previewChart.size),
  );
  const world = {
    name: countryName(locations.global.id, edge.lang),
    top200Href: link(chartPath("top-200", locations.global.urlName)),
    discoveryHref: link(chartPath("discovery", locations.global.urlName)),
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
      /** When the preview's order was computed: the page is kept no longer (`chartDocumentHeaders`). */
      computedAt: previewComputedAt,
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
  const description = t("charts:landing.metaDescription");
  return websitePageMeta(context, request, {
    title: t("common:pageTitle.chartsview"),
    description,
    schema: { "@type": "CollectionPage", name: t("charts:landing.title"), description },
  });
}
