import * as v from "valibot";
import { searchPageSize } from "../../rules/content-rules";
import { SiteError } from "../../rules/errors";
import type {
  artistViewSchema,
  creditsDocumentSchema,
  playlistTracksDocumentSchema,
  searchResultsSchema,
  shazamTracksSchema,
} from "../../rules/schemas/amapi";
import { type ArtistViewName, artistViewNames } from "../../rules/schemas/amapi";
import { isChartListId, rankChart, resolveChartList } from "../charts";
import * as db from "../db";
import type { OriginApp, OriginContext } from "../env";
import {
  answerContext,
  cachePolicy,
  countrySchema,
  intParam,
  invalidParam,
  json,
  languageSchema,
  listParam,
  notFound,
  numericId,
  parseParams,
} from "../http";
import {
  type AnswerContext,
  type ArtistExtension,
  albumResource,
  artistExtensions,
  artistResource,
  noRelate,
  type PlaylistLike,
  playlistResource,
  type Relate,
  songResource,
  storefront,
  trackPayload,
} from "../shapes";

/** Most ids one songs request may name, and the largest page of a list. */
const maxIds = 300;
const maxPage = 200;
/** Most results per search group. */
const maxSearchLimit = 25;
const defaultViewLimit = 10;

const searchTypes = ["songs", "artists"] as const;

const catalogQuerySchema = v.object({
  ids: v.optional(v.string()),
  "filter[equivalents]": v.optional(v.string()),
  include: listParam("include", ["artists", "albums", "tracks"]),
  "relate[songs]": listParam("relate[songs]", ["artists", "albums", "music-videos"]),
  extend: listParam("extend", artistExtensions),
  views: listParam("views", artistViewNames),
  limit: intParam("limit", 1, maxPage),
  offset: intParam("offset", 0, 100_000),
  l: v.optional(languageSchema),
  itsct: v.optional(v.pipe(v.string(), v.maxLength(200, "itsct is too long"))),
  term: v.optional(v.string()),
  types: listParam("types", searchTypes),
});
type CatalogQuery = v.InferOutput<typeof catalogQuerySchema>;

function requestOf(c: OriginContext): { ctx: AnswerContext; query: CatalogQuery } {
  const country = parseParams(countrySchema, c.req.param("country"));
  const query = parseParams(catalogQuerySchema, c.req.query());
  const lang = c.req.param("lang") ? parseParams(languageSchema, c.req.param("lang")) : (query.l ?? "en");
  return { ctx: answerContext(country, lang), query };
}

function idOf(c: OriginContext, what: string): string {
  return parseParams(numericId(`${what} id must be numeric`), c.req.param("id"));
}

async function relateOf(d1: D1Database, query: CatalogQuery, rows: db.TrackRow[]): Promise<Relate> {
  const relate = query["relate[songs]"] ?? [];
  const include = query.include ?? [];
  let includeArtists: Map<number, db.ArtistRow> | undefined;
  if (include.includes("artists")) {
    const ids = [...new Set(rows.map((r) => r.artist_id))];
    const artists = await db.artistsWhere(
      d1,
      "a.id IN (SELECT value FROM json_each(?))",
      JSON.stringify(ids),
    );
    includeArtists = new Map(artists.map((a) => [a.id, a]));
  }
  return {
    artists: relate.includes("artists"),
    includeArtists,
    musicVideos: relate.includes("music-videos"),
  };
}

function idList(text: string): string[] {
  const ids = text.split(",").map((id) => id.trim());
  if (ids.length === 0 || ids.length > maxIds || ids.some((id) => !/^\d{1,15}$/.test(id))) {
    throw invalidParam(`ids must be 1 to ${maxIds} numeric ids`);
  }
  return ids;
}

/** An editorial playlist or a chart list id, with its ranked track keys. */
async function loadPlaylist(d1: D1Database, id: string): Promise<{ like: PlaylistLike; keys: number[] }> {
  if (isChartListId(id)) {
    const list = await resolveChartList(d1, id);
    const keys = await rankChart(d1, list);
    const [top] = await db.tracksByKeys(d1, keys.slice(0, 1));
    return {
      keys,
      like: {
        id,
        name: list.name,
        description: `The ${list.size} songs most identified on Tunewave${list.kind === "discovery" ? " lately" : ""}: ${list.name}.`,
        curator: "Tunewave",
        art_id: top?.art_id ?? "",
        bkgcolor: top?.bkgcolor ?? "#333333",
        last_modified: top?.added_date ?? "",
        track_count: keys.length,
        playlistType: "chart",
      },
    };
  }
  const [row] = await db.playlistsWhere(d1, "p.id = ?", id);
  if (!row) throw notFound(`No playlist ${id}`);
  return { like: { ...row, playlistType: "editorial" }, keys: await db.playlistTrackKeys(d1, id) };
}

async function requireAlbum(d1: D1Database, id: string): Promise<db.AlbumRow> {
  const album = await db.albumById(d1, id);
  if (!album) throw notFound(`No album ${id}`);
  return album;
}

async function albumTracks(d1: D1Database, id: string): Promise<db.TrackRow[]> {
  const rows = await db.tracksWhere(d1, "t.album_id = ?", id);
  return rows.sort((a, b) => (a.track_number ?? 999) - (b.track_number ?? 999) || a.key - b.key);
}

async function albumArtists(d1: D1Database, album: db.AlbumRow): Promise<db.ArtistRow[]> {
  return db.artistsWhere(d1, "a.id IN (SELECT value FROM json_each(?)) ORDER BY a.name", album.artist_ids);
}

function albumAsPlaylist(album: db.AlbumRow): PlaylistLike {
  return {
    id: album.id,
    name: album.title,
    description: album.description || `${album.title} by ${album.artist_name}.`,
    curator: album.artist_name,
    art_id: album.art_id,
    bkgcolor: album.bkgcolor,
    last_modified: album.release_date,
    track_count: album.track_count,
    playlistType: "album",
  };
}

/** Playlists holding any of these tracks, most shared tracks first. */
async function playlistsWithTracks(d1: D1Database, keys: number[]): Promise<db.PlaylistRow[]> {
  const rows = await db.playlistsWhere(
    d1,
    "p.id IN (SELECT playlist_id FROM playlist_tracks WHERE track_key IN (SELECT value FROM json_each(?)))",
    JSON.stringify(keys),
  );
  const shared = new Map<string, number>();
  for (const row of rows) {
    const own = await db.playlistTrackKeys(d1, row.id);
    shared.set(row.id, own.filter((k) => keys.includes(k)).length);
  }
  return rows.sort((a, b) => (shared.get(b.id) ?? 0) - (shared.get(a.id) ?? 0) || (a.id < b.id ? -1 : 1));
}

/** Spec 001 §3 artist views. */
async function artistView(
  d1: D1Database,
  artist: db.ArtistRow,
  view: ArtistViewName,
  ctx: AnswerContext,
  limit: number,
  offset: number,
): Promise<v.InferInput<typeof artistViewSchema>> {
  const sf = storefront(ctx);
  const href = `/v1/catalog/${sf}/artists/${artist.adamid}/view/${view}`;
  const titles: Record<ArtistViewName, string> = {
    "full-albums": "Albums",
    "featured-albums": "Appears On",
    "latest-release": "Latest Release",
    "top-music-videos": "Top Music Videos",
    "similar-artists": "Similar Artists",
    "top-songs": "Top Songs",
    playlists: "Playlists",
    "featured-playlists": "Featured Playlists",
  };
  const page = <T>(items: T[]) => ({
    data: items.slice(offset, offset + limit),
    next: offset + limit < items.length ? `${href}?offset=${offset + limit}` : undefined,
  });
  const own = await db.tracksWhere(d1, "t.artist_id = ?", artist.id);
  const albumIds = [...new Set(own.map((t) => t.album_id))];
  const albums = await db.albumsWhere(
    d1,
    "al.id IN (SELECT value FROM json_each(?))",
    JSON.stringify(albumIds),
  );
  const byDate = (a: db.AlbumRow, b: db.AlbumRow) =>
    a.release_date < b.release_date ? 1 : a.release_date > b.release_date ? -1 : a.id < b.id ? -1 : 1;

  let result: { data: unknown[]; next: string | undefined };
  switch (view) {
    case "full-albums":
      result = page(
        albums
          .filter((a) => a.artist_name === artist.name)
          .sort(byDate)
          .map((a) => albumResource(a, ctx, undefined, undefined)),
      );
      break;
    case "featured-albums":
      result = page(
        albums
          .filter((a) => a.artist_name !== artist.name)
          .sort(byDate)
          .map((a) => albumResource(a, ctx, undefined, undefined)),
      );
      break;
    case "latest-release":
      result = page(
        albums
          .sort(byDate)
          .slice(0, 1)
          .map((a) => albumResource(a, ctx, undefined, undefined)),
      );
      break;
    case "top-songs":
      result = page(own.sort((a, b) => b.total - a.total || a.key - b.key).map((t) => songResource(t, ctx)));
      break;
    case "similar-artists": {
      // Shared albums count most; then the same genre; then how often their recordings are identified.
      const others = await db.artistsWhere(d1, "a.id != ?", artist.id);
      const tracks = await db.tracksWhere(d1, "t.artist_id != ?", artist.id);
      const score = (other: db.ArtistRow) => {
        const theirs = tracks.filter((t) => t.artist_id === other.id);
        const sharedAlbums = new Set(
          theirs.filter((t) => albumIds.includes(t.album_id)).map((t) => t.album_id),
        ).size;
        return {
          sharedAlbums,
          sameGenre: other.genre_id === artist.genre_id ? 1 : 0,
          total: theirs.reduce((s, t) => s + t.total, 0),
        };
      };
      const ranked = others
        .map((other) => ({ other, s: score(other) }))
        .filter(({ s }) => s.sharedAlbums > 0 || s.sameGenre > 0)
        .sort(
          (a, b) =>
            b.s.sharedAlbums - a.s.sharedAlbums ||
            b.s.sameGenre - a.s.sameGenre ||
            b.s.total - a.s.total ||
            a.other.id - b.other.id,
        );
      result = page(ranked.map(({ other }) => artistResource(other, ctx, new Set())));
      break;
    }
    case "playlists": {
      const playlists = await playlistsWithTracks(
        d1,
        own.map((t) => t.key),
      );
      result = page(
        playlists.map((p) => playlistResource({ ...p, playlistType: "editorial" }, ctx, undefined)),
      );
      break;
    }
    case "featured-playlists": {
      const playlists = await db.playlistsWhere(d1, "p.artist_id = ?", artist.id);
      result = page(
        playlists.map((p) => playlistResource({ ...p, playlistType: "editorial" }, ctx, undefined)),
      );
      break;
    }
    case "top-music-videos":
      // The catalogue has no music videos.
      result = page([]);
      break;
  }
  return {
    href,
    ...(result.next ? { next: result.next } : {}),
    attributes: { title: titles[view] },
    data: result.data as v.InferInput<typeof artistViewSchema>["data"],
  };
}

/** Case-insensitive search: prefix matches before inner matches, then by identifications. */
export function searchRank(name: string, term: string): number {
  const n = name.toLowerCase();
  if (n === term) return 0;
  if (n.startsWith(term)) return 1;
  if (n.split(/\s+/).some((word) => word.startsWith(term))) return 2;
  return 3;
}

/** How well a song matches a lowercased term: its title, else its artist one step behind. */
export function songRank(row: db.TrackRow, term: string): number {
  return Math.min(searchRank(row.title, term), searchRank(row.artist_name, term) + 1);
}

/** Songs whose title, artist or album holds the lowercased term, best first (both search calls). */
export async function searchSongs(d1: D1Database, term: string): Promise<db.TrackRow[]> {
  const rows = await db.tracksWhere(
    d1,
    // instr, not LIKE: D1 refuses LIKE patterns over 50 bytes, and a term needs no escaping.
    "(instr(LOWER(t.title), ?1) > 0 OR instr(LOWER(a.name), ?1) > 0 OR instr(LOWER(al.title), ?1) > 0)",
    term,
  );
  return rows.sort((x, y) => songRank(x, term) - songRank(y, term) || y.total - x.total || x.key - y.key);
}

/** Artists whose name holds the lowercased term, best first. */
export async function searchArtists(d1: D1Database, term: string): Promise<db.ArtistRow[]> {
  const rows = await db.artistsWhere(d1, "instr(LOWER(a.name), ?) > 0", term);
  return rows.sort(
    (x, y) => searchRank(x.name, term) - searchRank(y.name, term) || (x.name < y.name ? -1 : 1),
  );
}

const catalog = "/amapi/v1/catalog/:country";
/** Spec 001 §7 custom album and playlist calls. */
const custom = "/amapi/custom/:country";
const customLang = "/amapi/custom/:lang/:country";

/** The catalogue API the pages read (spec 001 §7, 000 §7): one registration per family of calls. */
export function registerAmapi(origin: OriginApp) {
  registerCatalogResources(origin);
  registerCatalogSearch(origin);
  registerCustomCalls(origin);
}

/** Songs, credits, artists and their views, albums and playlists by id. */
function registerCatalogResources(origin: OriginApp) {
  /** Spec 001 §7 songs with ids and include; the same with filter[equivalents]. */
  origin.get(`${catalog}/songs`, async (c) => {
    const { ctx, query } = requestOf(c);
    const text = query.ids ?? query["filter[equivalents]"];
    if (text === undefined) throw invalidParam("ids or filter[equivalents] is required");
    const rows = await db.tracksByAdamIds(c.env.DB, idList(text));
    if (rows.length === 0) throw notFound(`No songs ${text}`);
    const relate = await relateOf(c.env.DB, query, rows);
    return json(c, { data: rows.map((row) => songResource(row, ctx, relate)) }, cachePolicy.catalogue);
  });

  origin.get(`${catalog}/songs/:id`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = idOf(c, "Song");
    const rows = await db.tracksByAdamIds(c.env.DB, [id]);
    if (rows.length === 0) throw notFound(`No song ${id}`);
    const relate = await relateOf(c.env.DB, query, rows);
    return json(c, { data: rows.map((row) => songResource(row, ctx, relate)) }, cachePolicy.catalogue);
  });

  /** Spec 001 §7 songs/{id}/credits?l={locale}. */
  origin.get(`${catalog}/songs/:id/credits`, async (c) => {
    requestOf(c);
    const id = idOf(c, "Song");
    const [row] = await db.tracksByAdamIds(c.env.DB, [id]);
    if (!row) throw notFound(`No song ${id}`);
    const person = (roleNames: string[]) => [
      {
        id: row.artist_adamid,
        type: "credit-artists" as const,
        attributes: { name: row.artist_name, roleNames },
      },
    ];
    const body: v.InferInput<typeof creditsDocumentSchema> = {
      data: [
        {
          id: `${id}-performers`,
          type: "credit-categories",
          attributes: { title: "Performers", kind: "performer" },
          relationships: { "credit-artists": { data: person(["Performer"]) } },
        },
        {
          id: `${id}-composition`,
          type: "credit-categories",
          attributes: { title: "Composition & Lyrics", kind: "composer" },
          relationships: { "credit-artists": { data: person(["Composer"]) } },
        },
      ],
    };
    return json(c, body, cachePolicy.catalogue);
  });

  /** Spec 001 §7 artists/{id} with extend and views. */
  origin.get(`${catalog}/artists/:id`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = idOf(c, "Artist");
    const artist = await db.artistBy(c.env.DB, "adamid", id);
    if (!artist) throw notFound(`No artist ${id}`);
    const views: Partial<Record<ArtistViewName, v.InferInput<typeof artistViewSchema>>> = {};
    for (const view of query.views ?? []) {
      views[view] = await artistView(c.env.DB, artist, view, ctx, query.limit ?? defaultViewLimit, 0);
    }
    const own = await db.tracksWhere(c.env.DB, "t.artist_id = ?", artist.id);
    const sf = storefront(ctx);
    const resource = {
      ...artistResource(artist, ctx, new Set<ArtistExtension>(query.extend ?? [])),
      relationships: {
        albums: {
          href: `/v1/catalog/${sf}/artists/${artist.adamid}/albums`,
          data: [...new Set(own.map((t) => t.album_id))].map((albumId) => ({
            id: albumId,
            type: "albums",
            href: `/v1/catalog/${sf}/albums/${albumId}`,
          })),
        },
      },
      ...(query.views ? { views } : {}),
    };
    return json(c, { data: [resource] }, cachePolicy.catalogue);
  });

  origin.get(`${catalog}/artists/:id/view/:view`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = idOf(c, "Artist");
    const view = parseParams(
      v.picklist(artistViewNames, `view must be among ${artistViewNames.join(", ")}`),
      c.req.param("view"),
    );
    const artist = await db.artistBy(c.env.DB, "adamid", id);
    if (!artist) throw notFound(`No artist ${id}`);
    return json(
      c,
      await artistView(c.env.DB, artist, view, ctx, query.limit ?? defaultViewLimit, query.offset ?? 0),
      cachePolicy.catalogue,
    );
  });

  origin.get(`${catalog}/albums/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.env.DB, idOf(c, "Album"));
    const [tracks, artists] = await Promise.all([
      albumTracks(c.env.DB, album.id),
      albumArtists(c.env.DB, album),
    ]);
    return json(c, { data: [albumResource(album, ctx, tracks, artists)] }, cachePolicy.catalogue);
  });

  origin.get(`${catalog}/playlists/:id`, async (c) => {
    const { ctx, query } = requestOf(c);
    const { like, keys } = await loadPlaylist(c.env.DB, c.req.param("id"));
    const rows = await db.tracksByKeys(c.env.DB, keys.slice(0, query.limit ?? maxPage));
    const relate = await relateOf(c.env.DB, query, rows);
    return json(
      c,
      { data: [playlistResource(like, ctx, { data: rows.map((r) => songResource(r, ctx, relate)) })] },
      cachePolicy.charts,
    );
  });

  /**
   * Spec 001 §7 chart lists: the playlist's tracks with the chart's page size (limit), relate[songs]
   * and include; itsct is accepted and does not change the answer.
   */
  origin.get(`${catalog}/playlists/:id/tracks`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = c.req.param("id");
    const { keys } = await loadPlaylist(c.env.DB, id);
    const limit = query.limit ?? maxPage;
    const offset = query.offset ?? 0;
    const rows = await db.tracksByKeys(c.env.DB, keys.slice(offset, offset + limit));
    const relate = await relateOf(c.env.DB, query, rows);
    const body: v.InferInput<typeof playlistTracksDocumentSchema> = {
      data: rows.map((row) => songResource(row, ctx, relate)),
      ...(offset + limit < keys.length
        ? { next: `/v1/catalog/${storefront(ctx)}/playlists/${id}/tracks?offset=${offset + limit}` }
        : {}),
      meta: { total: keys.length },
    };
    return json(c, body, cachePolicy.charts);
  });
}

function registerCatalogSearch(origin: OriginApp) {
  /** Spec 000 §7 catalogue search: types=songs,artists, term, limit=3; next links per group. */
  origin.get(`${catalog}/search`, async (c) => {
    const { ctx, query } = requestOf(c);
    const term = (query.term ?? "").trim().toLowerCase();
    if (term.length === 0 || term.length > 100) throw invalidParam("term must be 1 to 100 characters");
    const types = query.types ?? [...searchTypes];
    if (types.length === 0) throw invalidParam("types is required");
    const limit = query.limit ?? searchPageSize;
    if (limit > maxSearchLimit) throw invalidParam(`limit must be at most ${maxSearchLimit}`);
    const offset = query.offset ?? 0;
    const sf = storefront(ctx);
    const href = (type: string, at: number) =>
      `/v1/catalog/${sf}/search?offset=${at}&term=${encodeURIComponent(query.term ?? "")}&types=${type}`;
    const results: v.InferInput<typeof searchResultsSchema>["results"] = {};

    if (types.includes("songs")) {
      const ranked = await searchSongs(c.env.DB, term);
      results.songs = {
        href: href("songs", offset),
        ...(offset + limit < ranked.length ? { next: href("songs", offset + limit) } : {}),
        data: ranked.slice(offset, offset + limit).map((row) => songResource(row, ctx)),
      };
    }
    if (types.includes("artists")) {
      const ranked = await searchArtists(c.env.DB, term);
      results.artists = {
        href: href("artists", offset),
        ...(offset + limit < ranked.length ? { next: href("artists", offset + limit) } : {}),
        data: ranked.slice(offset, offset + limit).map((row) => artistResource(row, ctx, new Set())),
      };
    }
    return json(c, { results }, cachePolicy.catalogue);
  });
}

/** Albums as playlists, album and playlist track lists, and where an album is featured. */
function registerCustomCalls(origin: OriginApp) {
  origin.get(`${custom}/albums/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.env.DB, idOf(c, "Album"));
    const [tracks, artists] = await Promise.all([
      albumTracks(c.env.DB, album.id),
      albumArtists(c.env.DB, album),
    ]);
    return json(c, { data: [albumResource(album, ctx, tracks, artists)] }, cachePolicy.catalogue);
  });

  /** The album as a playlist resource, for players that play playlists. */
  origin.get(`${custom}/playlistalbum/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.env.DB, idOf(c, "Album"));
    const tracks = await albumTracks(c.env.DB, album.id);
    return json(
      c,
      {
        data: [
          playlistResource(albumAsPlaylist(album), ctx, {
            data: tracks.map((t) => songResource(t, ctx, noRelate)),
          }),
        ],
      },
      cachePolicy.catalogue,
    );
  });

  /** The catalogue has no music videos: a known album answers an empty list. */
  origin.get(`${custom}/musicvideosbyalbum/:id`, async (c) => {
    requestOf(c);
    await requireAlbum(c.env.DB, idOf(c, "Album"));
    return json(c, { data: [] }, cachePolicy.catalogue);
  });

  origin.get(`${customLang}/playlist/shazamtracks/:id/full`, async (c) => {
    const { ctx } = requestOf(c);
    const { like, keys } = await loadPlaylist(c.env.DB, c.req.param("id"));
    const rows = await db.tracksByKeys(c.env.DB, keys);
    const body: v.InferInput<typeof shazamTracksSchema> = {
      id: like.id,
      type: "playlists",
      name: like.name,
      tracks: await Promise.all(
        rows.map(async (row) =>
          trackPayload(
            row,
            ctx,
            row.has_lyrics ? await db.lyricsOf(c.env.DB, "track_key", String(row.key)) : undefined,
          ),
        ),
      ),
    };
    return json(c, body, cachePolicy.charts);
  });

  origin.get(`${customLang}/album/shazamtracks/:id/full`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.env.DB, idOf(c, "Album"));
    const rows = await albumTracks(c.env.DB, album.id);
    const body: v.InferInput<typeof shazamTracksSchema> = {
      id: album.id,
      type: "albums",
      name: album.title,
      tracks: await Promise.all(
        rows.map(async (row) =>
          trackPayload(
            row,
            ctx,
            row.has_lyrics ? await db.lyricsOf(c.env.DB, "track_key", String(row.key)) : undefined,
          ),
        ),
      ),
    };
    return json(c, body, cachePolicy.catalogue);
  });

  /** Editorial playlists holding the album's tracks. */
  origin.get(`${customLang}/playlistsbyalbum/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.env.DB, idOf(c, "Album"));
    const keys = (await albumTracks(c.env.DB, album.id)).map((t) => t.key);
    const playlists = await playlistsWithTracks(c.env.DB, keys);
    return json(
      c,
      { data: playlists.map((p) => playlistResource({ ...p, playlistType: "editorial" }, ctx, undefined)) },
      cachePolicy.catalogue,
    );
  });

  /** The charts of the path's country (and the world) the album's tracks are on. */
  origin.get(`${customLang}/albumfeaturedin/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.env.DB, idOf(c, "Album"));
    const keys = new Set((await albumTracks(c.env.DB, album.id)).map((t) => t.key));
    const candidates = [
      `ip-country-chart-${ctx.country}`,
      `ip-country-discovery-${ctx.country}`,
      "ip-world-chart",
      `genre-country-chart-${ctx.country}-${album.genre_id}`,
    ];
    const featured: PlaylistLike[] = [];
    for (const listid of candidates) {
      // A country without a genre chart (or without charts) is simply not featured there.
      const loaded = await loadPlaylist(c.env.DB, listid).catch((error: unknown) => {
        if (error instanceof SiteError && error.type === "notfound") return undefined;
        throw error;
      });
      if (loaded?.keys.some((k) => keys.has(k))) featured.push(loaded.like);
    }
    return json(c, { data: featured.map((p) => playlistResource(p, ctx, undefined)) }, cachePolicy.charts);
  });
}
