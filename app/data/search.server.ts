import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import {
  checkSearchTerm,
  offsetOfNext,
  searchPath,
  searchResultsPageSize,
  searchTermMaxLength,
} from "~/search-groups";
import { trackImageWidths } from "../../edge/content-rules";
import { localizedPath } from "../../edge/path";
import { type SearchResults, searchResultsSchema } from "../../edge/schemas/amapi";
import type { ArtistSummary, TrackSummary } from "./view";
import { imageFromTemplate } from "./view";
import { trackSummaryOfSong } from "./view.server";

/**
 * The search page, `/search?term=…` (spec 000 §2 page type "search"): songs and artists found by
 * the catalogue search, each group paged on its own with real links (`songs` and `artists` hold the
 * offsets, taken from the catalogue's next links). Rendered at the edge, so it works without
 * JavaScript; shared by React and AMP.
 */

/** An offset of a group: digits; anything else reads as the first page. */
const offsetSchema = v.pipe(v.string(), v.regex(/^\d{1,5}$/), v.transform(Number));

export type SearchQuery = { term: string | null; songs: number; artists: number };

export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const offset = (name: string) => {
    const parsed = v.safeParse(offsetSchema, params.get(name) ?? "");
    return parsed.success ? parsed.output : 0;
  };
  return { term: params.get("term"), songs: offset("songs"), artists: offset("artists") };
}

export type SearchResultGroup<T> = {
  items: T[];
  nextHref: string | undefined;
  previousHref: string | undefined;
};

export type SearchPage = {
  /** The search page's own address, the form's action. */
  action: string;
  /** The term as the visitor sent it, normalized; cut to the longest allowed for the form. */
  term: string;
  maxLength: number;
} & (
  | { kind: "empty" }
  | { kind: "toolong" }
  | { kind: "noresults" }
  | { kind: "results"; songs: SearchResultGroup<TrackSummary>; artists: SearchResultGroup<ArtistSummary> }
);

type Group = "songs" | "artists";

export async function loadSearchPage(
  { edge, services }: Pick<AppLoadContext, "edge" | "services">,
  query: SearchQuery,
  now: Date,
): Promise<SearchPage> {
  const action = localizedPath(edge.lang, "/search");
  const checked = checkSearchTerm(query.term);
  const base = { action, term: checked.term.slice(0, searchTermMaxLength), maxLength: searchTermMaxLength };
  if (!checked.ok) return { ...base, kind: "toolong" };
  const term = checked.term;
  if (term === "") return { ...base, kind: "empty" };

  const offsets: Record<Group, number> = { songs: query.songs, artists: query.artists };
  const results = await searchGroups(services, edge.country, term, offsets);
  const songs = results.songs?.data ?? [];
  const artists = results.artists?.data ?? [];
  if (songs.length === 0 && artists.length === 0 && offsets.songs === 0 && offsets.artists === 0) {
    return { ...base, kind: "noresults" };
  }

  const href = (group: Group, offset: number) => {
    const at = { ...offsets, [group]: offset };
    const params = new URLSearchParams({ term });
    if (at.songs > 0) params.set("songs", String(at.songs));
    if (at.artists > 0) params.set("artists", String(at.artists));
    return `${action}?${params}`;
  };
  const paging = (group: Group, next: string | undefined) => {
    const nextOffset = offsetOfNext(next);
    const offset = offsets[group];
    return {
      nextHref: nextOffset !== undefined && nextOffset > offset ? href(group, nextOffset) : undefined,
      previousHref: offset > 0 ? href(group, Math.max(0, offset - searchResultsPageSize)) : undefined,
    };
  };

  return {
    ...base,
    kind: "results",
    songs: {
      items: songs.map((song) => trackSummaryOfSong(song, edge.lang, now)),
      ...paging("songs", results.songs?.next),
    },
    artists: {
      items: artists.map(
        (artist): ArtistSummary => ({
          id: artist.id,
          name: artist.attributes.name,
          href: localizedPath(
            edge.lang,
            `/artist/${encodeURIComponent(artist.attributes.alias)}/${artist.id}`,
          ),
          avatar: artist.attributes.artwork
            ? imageFromTemplate(artist.attributes.artwork.url, trackImageWidths)
            : undefined,
        }),
      ),
      ...paging("artists", results.artists?.next),
    },
  };
}

/** One call when both groups are at the same offset (the usual first page), else one per group. */
async function searchGroups(
  services: AppLoadContext["services"],
  country: string,
  term: string,
  offsets: Record<Group, number>,
): Promise<SearchResults["results"]> {
  const limit = searchResultsPageSize;
  if (offsets.songs === offsets.artists) {
    const path = searchPath(country, term, { limit, offset: offsets.songs });
    return (await services.getJson(path, searchResultsSchema)).results;
  }
  const [songs, artists] = await Promise.all(
    (["songs", "artists"] as const).map((type) =>
      services.getJson(
        searchPath(country, term, { types: [type], limit, offset: offsets[type] }),
        searchResultsSchema,
      ),
    ),
  );
  return { songs: songs?.results.songs, artists: artists?.results.artists };
}
