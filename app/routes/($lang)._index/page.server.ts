import type { AppLoadContext } from "@remix-run/cloudflare";
import { loadLocations } from "#app/charts/chart-address.server.ts";
import type { Translate } from "#app/shell/i18n.server.ts";
import { websitePageMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import { countryWords } from "#app/shell/places.server.ts";
import { trackSummaryOfSong } from "#app/shell/view.server.ts";
import { catalogPlaylistTracksPath, chartPath, defaultStorefront } from "#rules/addresses.ts";
import { chartSizes } from "#rules/content-rules.ts";
import { localizedPath } from "#rules/path.ts";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";

const homeChartLength = 10;
const newReleasesLength = 5;

/**
 * The home page: what is charting in the visitor's country (the world chart where the country has
 * none), the newest releases among the chart, and the entry points. One module for both renderers.
 */
export async function loadHomePage({ edge, services }: Pick<AppLoadContext, "edge" | "services">, now: Date) {
  const locations = await loadLocations({ services });
  const country = locations.countries.find((entry) => entry.id === edge.country);
  const listid = country?.listid ?? locations.global.listid;
  const chart = await services.getJson(
    catalogPlaylistTracksPath(country?.id ?? defaultStorefront, listid, {
      limit: chartSizes.top,
      relate: ["artists"],
    }),
    playlistTracksDocumentSchema,
  );
  const tracks = chart.data.map((song) => trackSummaryOfSong(song, edge.lang, now));
  const newest = [...chart.data]
    .sort((a, b) => b.attributes.releaseDate.localeCompare(a.attributes.releaseDate))
    .slice(0, newReleasesLength)
    .map((song) => trackSummaryOfSong(song, edge.lang, now));
  return {
    /** The chart's country as the heading's sentence takes it; the world has no "in" phrase (decision 060). */
    chartCountry: country
      ? countryWords(country.id, edge.lang)
      : { country: locations.global.locName, inCountry: undefined },
    chartHref: localizedPath(edge.lang, chartPath("top-200", country?.urlName ?? locations.global.urlName)),
    chartsHref: localizedPath(edge.lang, "/charts"),
    searchHref: localizedPath(edge.lang, "/search"),
    identifyHref: localizedPath(edge.lang, "/identify"),
    top: tracks.slice(0, homeChartLength),
    newReleases: newest,
  };
}

export type HomePage = Awaited<ReturnType<typeof loadHomePage>>;

/** The home page's head, for the React route and its AMP form. */
export function homePageMeta(
  context: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
  t: Translate,
): PageMeta {
  return websitePageMeta(context, request, {
    title: t("common:pageTitle.home"),
    description: t("home:heroText"),
    schema: { "@type": "WebSite", name: t("common:siteName") },
  });
}
