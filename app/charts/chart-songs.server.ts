import type { AppLoadContext } from "@remix-run/cloudflare";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { countryWords } from "#app/shell/places.server.ts";
import { countryKey } from "#app/shell/places.ts";
import { trackSummaryOfSong } from "#app/shell/view.server.ts";
import type { Image, TrackSummary } from "#app/shell/view.ts";
import { imageFromTemplate } from "#app/shell/view.ts";
import { artistPath, catalogPlaylistTracksPath, storefrontOf } from "#rules/addresses.ts";
import { catalogueImageWidths } from "#rules/content-rules.ts";
import { numberFormat } from "#rules/intl.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import { playlistTracksDocumentSchema, type Song } from "#rules/schemas/amapi.ts";
import { type ChartRoute, loadLocations, type ResolvedChart, resolveChart } from "./chart-address.server";

type Context = Pick<AppLoadContext, "edge" | "services">;

/** A chart's contents: its songs read from the catalogue in pages, the rows and artists a page shows, its heading. */

/** The largest page the catalogue answers; longer charts are read in pages. */
const catalogPageSize = 200;

/**
 * Spec 001 §7: the chart's list with its page size, `relate[songs]=artists,music-videos` and
 * `include=artists` (every row links to its artist). Read in pages of the catalogue's largest page.
 * `computedAt` and `demo` are the answer's own (decision 032): when the recompute that ranked these
 * songs ran, and whether the order rests on seeded counts.
 */
export async function loadChartSongs(
  { services }: Pick<Context, "services">,
  storefront: string,
  listid: string,
  size: number,
): Promise<{ songs: Song[]; computedAt: string | undefined; demo: boolean }> {
  const songs: Song[] = [];
  let computedAt: string | undefined;
  let demo = false;
  while (songs.length < size) {
    const limit = Math.min(catalogPageSize, size - songs.length);
    const page = await services.getJson(
      catalogPlaylistTracksPath(storefront, listid, {
        limit,
        offset: songs.length,
        relate: ["artists", "music-videos"],
        include: ["artists"],
      }),
      playlistTracksDocumentSchema,
    );
    songs.push(...page.data);
    computedAt ??= page.meta.computedAt;
    demo ||= page.meta.demo === true;
    if (page.next === undefined || page.data.length === 0) break;
  }
  return { songs: songs.slice(0, size), computedAt, demo };
}

/**
 * One row of a chart as the page shows it: rank, cover, title, artist link, new-release badge.
 * Nothing more: a loader's data is written into the document a second time (decision 056).
 */
export type ChartRow = TrackSummary & {
  /** The rank written in the page's locale. */
  rankLabel: string;
  artistHref: string | undefined;
};

/** Rows a chart page shows (decision 056); a 200-song chart is four pages (`?page=N`), every row a link away. */
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

/** A chart's heading and description (spec 001 §3 Chart: type, country, city, world, genre). */
export function chartTexts(chart: ResolvedChart, lang: LanguageKey): { title: string; description: string } {
  const { t } = serverStrings(lang);
  // The descriptions say "in <country>" as the language does, else name the country (decision 060).
  const words = countryWords(chart.countryCode, lang);
  const { country } = words;
  const place = chart.city?.name ?? country;
  const world = chart.countryCode === "WORLD";
  const genre = chart.genre?.name ?? "";
  switch (chart.type) {
    case "top-200":
      return {
        title: t("charts:title.top200", { place }),
        description: world
          ? t("charts:description.top200World")
          : t(countryKey(words, "charts:description.top200", "charts:description.top200Named"), words),
      };
    case "discovery":
      return {
        title: t("charts:title.discovery", { place }),
        description: world
          ? t("charts:description.discoveryWorld")
          : t(countryKey(words, "charts:description.discovery", "charts:description.discoveryNamed"), words),
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
          : t(countryKey(words, "charts:description.genre", "charts:description.genreNamed"), {
              ...words,
              genre,
            }),
      };
  }
}

/** A chart and all its songs (the world's charts are read from the visitor's store-front). */
export async function loadChart(context: Context, route: ChartRoute) {
  const locations = await loadLocations(context);
  const chart = resolveChart(locations, route);
  const country = chart.countryCode === "WORLD" ? context.edge.country : chart.countryCode;
  const { songs, computedAt, demo } =
    chart.size > 0
      ? await loadChartSongs(context, storefrontOf(country), chart.listid, chart.size)
      : { songs: [], computedAt: undefined, demo: false };
  return { locations, chart, songs, computedAt, demo };
}
