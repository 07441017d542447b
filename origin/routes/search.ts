import * as v from "valibot";
import {
  artistIsTopResult,
  SearchTerm,
  type SongHit,
  searchArtists,
  searchSongs,
} from "#origin/catalogue-search.ts";
import type { OriginApp } from "#origin/env.ts";
import {
  cachePolicy,
  countrySchema,
  intParam,
  invalidParam,
  json,
  languageSchema,
  parseParams,
  platformSchema,
} from "#origin/http.ts";
import { artistPayload, trackSummary } from "#origin/shapes.ts";
import { searchServiceRoot, servicesRootPathOf } from "#rules/addresses.ts";
import { searchPageSize, trackSearchPageSize } from "#rules/content-rules.ts";
import type { searchResponseSchema } from "#rules/schemas/search.ts";

/** Largest page of either call. */
const maxPageSize = 25;

const pathSchema = v.object({ lang: languageSchema, country: countrySchema, platform: platformSchema });
const querySchema = v.object({
  query: v.pipe(
    v.string("query is required"),
    v.trim(),
    v.minLength(1, "query must be 1 to 100 characters"),
    v.maxLength(100, "query must be 1 to 100 characters"),
  ),
  pageSize: intParam("pageSize", 1, maxPageSize),
  page: intParam("page", 0, 10_000),
  limit: intParam("limit", 1, maxPageSize),
  itsct: v.optional(v.pipe(v.string(), v.maxLength(200, "itsct is too long"))),
});

type Body = v.InferInput<typeof searchResponseSchema>;

/**
 * Spec 002 §7 search, as the provider's search service answers it: `next` is a link on the
 * service's own root (`/search/v1/…`), which the site rewrites to `/services/search/…`.
 */
export function registerSearch(origin: OriginApp) {
  /** "GET search. Query: query, pageSize (default 3), page (default 0), limit (default 3), optional itsct." */
  origin.get(`${searchServiceRoot}/:lang/:country/:platform`, async (c) => {
    parseParams(pathSchema, c.req.param());
    const query = parseParams(querySchema, c.req.query());
    const pageSize = query.pageSize ?? searchPageSize;
    const page = query.page ?? 0;
    const limit = query.limit ?? searchPageSize;
    const term = new SearchTerm(c.var.db, query.query);
    const [songs, artists, best] = await Promise.all([
      searchSongs(term, page * pageSize, pageSize),
      searchArtists(term, page * limit, limit),
      page === 0 ? undefined : topResult(term),
    ]);
    const body: Body = {
      tracks: { hits: songs.hits.map(trackHit) },
      artists: { hits: artists.hits.map((hit) => ({ artist: artistPayload(hit.row) })) },
    };
    // The top result: the best match of either kind; an artist wins a tie (a name typed whole).
    const [song, artist] = best ?? [songs.hits[0], artists.hits[0]];
    if (artist && artistIsTopResult(artist, song)) {
      body.topresult = { type: "artist", artist: artistPayload(artist.row) };
    } else if (song) {
      body.topresult = { type: "track", track: trackSummary(song.row) };
    }
    if (songs.more || artists.more) body.next = nextLink(c.req.url, page + 1);
    return json(c, body, cachePolicy.catalogue);
  });

  /** "GET track search with pageSize default 10." */
  origin.get(`${searchServiceRoot}/:lang/:country/:platform/tracks`, async (c) => {
    parseParams(pathSchema, c.req.param());
    const query = parseParams(querySchema, c.req.query());
    if (query.limit !== undefined) throw invalidParam("limit is not a parameter of track search");
    const pageSize = query.pageSize ?? trackSearchPageSize;
    const page = query.page ?? 0;
    const songs = await searchSongs(new SearchTerm(c.var.db, query.query), page * pageSize, pageSize);
    const body: Body = { tracks: { hits: songs.hits.map(trackHit) } };
    if (songs.more) body.next = nextLink(c.req.url, page + 1);
    return json(c, body, cachePolicy.catalogue);
  });
}

/** The best song and artist of a term, for the top result of a later page. */
async function topResult(term: SearchTerm) {
  const [songs, artists] = await Promise.all([searchSongs(term, 0, 1), searchArtists(term, 0, 1)]);
  return [songs.hits[0], artists.hits[0]] as const;
}

/**
 * A track hit; a song found by its lyrics says by which line (our addition to the spec's hit: the
 * search page shows it, and opens the track at it).
 */
function trackHit(hit: SongHit): NonNullable<Body["tracks"]>["hits"][number] {
  return { track: trackSummary(hit.row), ...(hit.lyric ? { lyric: hit.lyric } : {}) };
}

/** The same call, one page on, on the service's own root (no /services prefix). */
function nextLink(requestUrl: string, page: number): string {
  const url = new URL(requestUrl);
  url.searchParams.set("page", String(page));
  return `${servicesRootPathOf(url.pathname)}${url.search}`;
}
