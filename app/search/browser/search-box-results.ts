import { searchNextPath, searchPath } from "#app/search/search-groups.ts";
import { getJson } from "#app/shell/browser/request.ts";
import { artistPagePath, trackPath } from "#rules/addresses.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import { type SearchResults, searchResultsSchema } from "#rules/schemas/amapi.ts";
import type { SearchBoxItem, SearchBoxPage } from "./search-box-model";

/**
 * The box's search calls (spec 000 §7): the first page of both groups, and a group's next page
 * through its next link. Answers are parsed with the catalogue's search schema and become rows.
 */

type Songs = NonNullable<SearchResults["results"]["songs"]>;
type Artists = NonNullable<SearchResults["results"]["artists"]>;

/** Widths the dropdown's 40 px thumbnails come in (1x and high-density screens). */
const thumbnailWidths = [75, 150] as const;

function thumbnail(template: string | undefined): SearchBoxItem["image"] {
  if (template === undefined) return undefined;
  const sized = (width: number) => template.replace("{w}", String(width)).replace("{h}", String(width));
  return {
    src: sized(thumbnailWidths[0]),
    srcSet: thumbnailWidths.map((width) => `${sized(width)} ${width}w`).join(", "),
  };
}

export function songRows(songs: Songs["data"], lang: LanguageKey): SearchBoxItem[] {
  return songs.map((song) => ({
    id: song.id,
    title: song.attributes.name,
    subtitle: song.attributes.artistName,
    href: localizedPath(lang, trackPath(song.attributes.shazamKey, song.attributes.alias)),
    image: thumbnail(song.attributes.artwork.url),
  }));
}

export function artistRows(artists: Artists["data"], lang: LanguageKey): SearchBoxItem[] {
  return artists.map((artist) => ({
    id: artist.id,
    title: artist.attributes.name,
    href: localizedPath(lang, artistPagePath(artist.attributes.alias, artist.id)),
    image: thumbnail(artist.attributes.artwork?.url),
  }));
}

export type SearchCallOptions = { signal?: AbortSignal; fetch?: typeof fetch };

/** `GET /services/amapi/v1/catalog/{country}/search?types=songs,artists&term=…&limit=3`. */
export async function searchFirstPage(
  country: string,
  term: string,
  lang: LanguageKey,
  options: SearchCallOptions = {},
): Promise<{ songs: SearchBoxPage; artists: SearchBoxPage }> {
  const { results } = await getJson(searchPath(country, term), searchResultsSchema, options);
  return {
    songs: { items: songRows(results.songs?.data ?? [], lang), next: results.songs?.next },
    artists: { items: artistRows(results.artists?.data ?? [], lang), next: results.artists?.next },
  };
}

/** `GET /services/amapi{next}&limit=3`; a next link that is not the catalogue's is no next page. */
export async function searchNextPage(
  group: "songs" | "artists",
  next: string | undefined,
  lang: LanguageKey,
  options: SearchCallOptions = {},
): Promise<SearchBoxPage> {
  const path = searchNextPath(next);
  if (path === undefined) return { items: [], next: undefined };
  const { results } = await getJson(path, searchResultsSchema, options);
  if (group === "songs") {
    return { items: songRows(results.songs?.data ?? [], lang), next: results.songs?.next };
  }
  return { items: artistRows(results.artists?.data ?? [], lang), next: results.artists?.next };
}
