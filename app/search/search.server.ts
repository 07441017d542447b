import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { ArtistSummary, TrackSummary } from "#app/shell/view.ts";
import { imageFromTemplate, trackSummaryOfPayload } from "#app/shell/view.ts";
import { lyricsLineId } from "#app/track/synced-lyrics.ts";
import { artistPagePath, searchServiceCallPath, storefrontOf } from "#rules/addresses.ts";
import { searchPageSize, trackImageWidths } from "#rules/content-rules.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import { searchResultsSchema } from "#rules/schemas/amapi.ts";
import {
  type SearchLyricLine,
  type SearchResponse,
  searchNextOf,
  searchResponseSchema,
} from "#rules/schemas/search.ts";
import {
  normalizeSearchTerm,
  offsetOfNext,
  searchPath,
  searchResultsPageSize,
  searchTermMaxLength,
} from "./search-groups";

// The server checks a term (the search page's parameter); the browser only needs the limit, so the
// check lives here and app/search/search-groups.ts, which the header's search box loads, holds no valibot.
/** A search term from a visitor (the page's `term` parameter, the box): normalized, at most 100 characters. */
export const searchTermSchema = v.pipe(
  v.string(),
  v.transform(normalizeSearchTerm),
  v.maxLength(searchTermMaxLength, "toolong"),
);

export type SearchTermCheck = { ok: true; term: string } | { ok: false; reason: "toolong"; term: string };

export function checkSearchTerm(raw: string | null | undefined): SearchTermCheck {
  const parsed = v.safeParse(searchTermSchema, raw ?? "");
  if (parsed.success) return { ok: true, term: parsed.output };
  return { ok: false, reason: "toolong", term: normalizeSearchTerm(raw ?? "") };
}

/**
 * The search page, `/search?term=…` (spec 000 §2 page type "search"): the top result of the
 * search call (002 §7 "GET search", topresult), songs from the track search (002 §7 "track search
 * with pageSize default 10") and artists from the catalogue search, each group paged on its own with
 * real links (`songs` and `artists` hold the offsets, taken from each call's next link). Rendered
 * at the edge, so it works without JavaScript.
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
  | {
      kind: "results";
      top: SearchTopResult | undefined;
      /** `lyricLines`: the lyric line each song was found by, if it was; its link opens the track there. */
      songs: SearchResultGroup<TrackSummary> & { lyricLines: (SearchLyricLine | undefined)[] };
      artists: SearchResultGroup<ArtistSummary>;
    }
);

/** Spec 002 §3 "topresult (artist or track)", shown above the groups on the first page. */
export type SearchTopResult =
  | { kind: "track"; track: TrackSummary }
  | { kind: "artist"; artist: ArtistSummary };

type Group = "songs" | "artists";

export async function loadSearchPage(
  { edge, services }: Pick<AppLoadContext, "edge" | "services">,
  query: SearchQuery,
): Promise<SearchPage> {
  const action = localizedPath(edge.lang, "/search");
  const checked = checkSearchTerm(query.term);
  const base = { action, term: checked.term.slice(0, searchTermMaxLength), maxLength: searchTermMaxLength };
  if (!checked.ok) return { ...base, kind: "toolong" };
  const term = checked.term;
  if (term === "") return { ...base, kind: "empty" };

  const offsets: Record<Group, number> = { songs: query.songs, artists: query.artists };
  const firstPage = offsets.songs === 0 && offsets.artists === 0;
  const searchCall = searchCallPath(edge.lang, edge.country, term);
  const [found, artistResults, top] = await Promise.all([
    services.getJson(trackSearchPath(searchCall, offsets.songs), searchResponseSchema),
    services.getJson(
      searchPath(edge.country, term, {
        types: ["artists"],
        limit: searchResultsPageSize,
        offset: offsets.artists,
      }),
      searchResultsSchema,
    ),
    firstPage ? services.getJson(searchCall, searchResponseSchema) : undefined,
  ]);
  const songs = found.tracks?.hits ?? [];
  const artists = artistResults.results.artists?.data ?? [];
  if (songs.length === 0 && artists.length === 0 && firstPage) return { ...base, kind: "noresults" };

  const href = (group: Group, offset: number) => {
    const at = { ...offsets, [group]: offset };
    const params = new URLSearchParams({ term });
    if (at.songs > 0) params.set("songs", String(at.songs));
    if (at.artists > 0) params.set("artists", String(at.artists));
    return `${action}?${params}`;
  };
  const paging = (group: Group, nextOffset: number | undefined) => {
    const offset = offsets[group];
    return {
      nextHref: nextOffset !== undefined && nextOffset > offset ? href(group, nextOffset) : undefined,
      previousHref: offset > 0 ? href(group, Math.max(0, offset - searchResultsPageSize)) : undefined,
    };
  };
  const artistOf = (id: string, name: string, alias: string, avatar: string | undefined): ArtistSummary => ({
    id,
    name,
    href: localizedPath(edge.lang, artistPagePath(alias, id)),
    avatar: avatar ? imageFromTemplate(avatar, trackImageWidths) : undefined,
  });

  return {
    ...base,
    kind: "results",
    top: topResultOf(top, edge.lang, artistOf),
    songs: {
      items: songs.map((hit) => {
        const track = trackSummaryOfPayload(hit.track, edge.lang);
        return hit.lyric ? { ...track, href: `${track.href}#${lyricsLineId(hit.lyric.index)}` } : track;
      }),
      lyricLines: songs.map((hit) => hit.lyric),
      ...paging("songs", offsetOfSearchNext(found.next)),
    },
    artists: {
      items: artists.map((artist) =>
        artistOf(artist.id, artist.attributes.name, artist.attributes.alias, artist.attributes.artwork?.url),
      ),
      ...paging("artists", offsetOfNext(artistResults.results.artists?.next)),
    },
  };
}

function topResultOf(
  answer: SearchResponse | undefined,
  lang: LanguageKey,
  artistOf: (id: string, name: string, alias: string, avatar: string | undefined) => ArtistSummary,
): SearchTopResult | undefined {
  const top = answer?.topresult;
  if (!top) return undefined;
  if (top.type === "track") return { kind: "track", track: trackSummaryOfPayload(top.track, lang) };
  const { artist } = top;
  return {
    kind: "artist",
    artist: artistOf(artist.adamid, artist.name, artist.alias, artist.avatarTemplate),
  };
}

/**
 * Spec 002 §7 "GET search. Query: query, pageSize (default 3), page (default 0), limit (default 3)":
 * the page asks it once, for its top result.
 */
export function searchCallPath(lang: LanguageKey, country: string, term: string): string {
  return searchServiceCallPath(lang, storefrontOf(country), {
    query: term,
    pageSize: searchPageSize,
    page: 0,
    limit: searchPageSize,
  });
}

/** Spec 002 §7 "GET track search with pageSize default 10", at the page holding `offset`. */
function trackSearchPath(searchCall: string, offset: number): string {
  const url = new URL(searchCall, "https://services.internal");
  const params = new URLSearchParams({
    query: url.searchParams.get("query") ?? "",
    pageSize: String(searchResultsPageSize),
    page: String(Math.floor(offset / searchResultsPageSize)),
  });
  return `${url.pathname}/tracks?${params}`;
}

/** The offset of the page a (rewritten) next link of the track search asks for. */
function offsetOfSearchNext(next: string | undefined): number | undefined {
  const path = searchNextOf(next);
  if (path === undefined) return undefined;
  const url = new URL(path, "https://services.internal");
  const page = url.searchParams.get("page");
  const size = url.searchParams.get("pageSize");
  if (page === null || !/^\d{1,5}$/.test(page)) return undefined;
  return Number(page) * (size !== null && /^\d{1,3}$/.test(size) ? Number(size) : searchResultsPageSize);
}
