import * as v from "valibot";
import { type AlbumRow, albumById } from "#origin/db/albums.ts";
import { type ArtistRow, albumArtists, artistsByIds } from "#origin/db/artists.ts";
import {
  type PlaylistRow,
  playlistById,
  playlistsHoldingTracks,
  playlistTrackKeys,
} from "#origin/db/playlists.ts";
import type { Database } from "#origin/db/rows.ts";
import { albumTracks, type TrackRow, tracksByKeys } from "#origin/db/tracks.ts";
import { chartCacheControl } from "#rules/chart-schedule.ts";
import { artistViewNames } from "#rules/schemas/amapi.ts";
import { isChartListId, type RankedChart, rankChart, resolveChartList } from "./charts";
import type { OriginContext } from "./env";
import {
  answerContext,
  cachePolicy,
  countrySchema,
  intParam,
  invalidParam,
  languageSchema,
  listParam,
  notFound,
  numericId,
  parseParams,
} from "./http";
import {
  type AnswerContext,
  albumResource,
  artistExtensions,
  type PlaylistLike,
  type Relate,
} from "./shapes";

// What the catalogue API's routes (spec 001 §7, 000 §7; routes/amapi-*.ts) share: their paths,
// the query they read, the resources related to songs, and playlists and albums by id.

export const catalog = "/amapi/v1/catalog/:country";
/** Spec 001 §7 custom album and playlist calls. */
export const custom = "/amapi/custom/:country";
export const customLang = "/amapi/custom/:lang/:country";

/** Most ids one songs request may name, and the largest page of a list. */
const maxIds = 300;
export const maxPage = 200;
/** Most results per search group. */
export const maxSearchLimit = 25;
export const defaultViewLimit = 10;

export const searchTypes = ["songs", "artists"] as const;

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

export function requestOf(c: OriginContext): { ctx: AnswerContext; query: CatalogQuery } {
  const country = parseParams(countrySchema, c.req.param("country"));
  const query = parseParams(catalogQuerySchema, c.req.query());
  const lang = c.req.param("lang") ? parseParams(languageSchema, c.req.param("lang")) : (query.l ?? "en");
  return { ctx: answerContext(country, lang), query };
}

export function idOf(c: OriginContext, what: string): string {
  return parseParams(numericId(`${what} id must be numeric`), c.req.param("id"));
}

export async function relateOf(d1: Database, query: CatalogQuery, rows: TrackRow[]): Promise<Relate> {
  const relate = query["relate[songs]"] ?? [];
  const include = query.include ?? [];
  let includeArtists: Map<number, ArtistRow> | undefined;
  if (include.includes("artists")) {
    const ids = [...new Set(rows.map((r) => r.artist_id))];
    const artists = await artistsByIds(d1, ids);
    includeArtists = new Map(artists.map((a) => [a.id, a]));
  }
  return {
    artists: relate.includes("artists"),
    includeArtists,
    musicVideos: relate.includes("music-videos"),
  };
}

export function idList(text: string): string[] {
  const ids = text.split(",").map((id) => id.trim());
  if (ids.length === 0 || ids.length > maxIds || ids.some((id) => !/^\d{1,15}$/.test(id))) {
    throw invalidParam(`ids must be 1 to ${maxIds} numeric ids`);
  }
  return ids;
}

/**
 * An editorial playlist or a chart list id, with its ranked track keys; a chart's with the ranking
 * they come from (`chart`: its recompute's time and whether it is seeded), undefined for a playlist.
 */
export async function loadPlaylist(
  d1: Database,
  id: string,
): Promise<{ like: PlaylistLike; keys: number[]; chart: RankedChart | undefined }> {
  if (isChartListId(id)) {
    const list = await resolveChartList(d1, id);
    const chart = await rankChart(d1, list);
    const { keys } = chart;
    const [top] = await tracksByKeys(d1, keys.slice(0, 1));
    return {
      keys,
      chart,
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
  const row = await playlistById(d1, id);
  if (!row) throw notFound(`No playlist ${id}`);
  return {
    like: { ...row, playlistType: "editorial" },
    keys: await playlistTrackKeys(d1, id),
    chart: undefined,
  };
}

/**
 * A chart's order changes at each recompute, so its answer is kept until the one after the
 * recompute that ranked it is due (decision 032); an editorial playlist's does not, and keeps the
 * catalogue's chart-list lifetime.
 */
export function playlistCacheControl(chart: RankedChart | undefined): string {
  return chart ? chartCacheControl(Date.parse(chart.computedAt), Date.now()) : cachePolicy.charts;
}

export async function requireAlbum(d1: Database, id: string): Promise<AlbumRow> {
  const album = await albumById(d1, id);
  if (!album) throw notFound(`No album ${id}`);
  return album;
}

export function albumAsPlaylist(album: AlbumRow): PlaylistLike {
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
export async function playlistsWithTracks(d1: Database, keys: number[]): Promise<PlaylistRow[]> {
  const rows = await playlistsHoldingTracks(d1, keys);
  const shared = new Map<string, number>();
  for (const row of rows) {
    const own = await playlistTrackKeys(d1, row.id);
    shared.set(row.id, own.filter((k) => keys.includes(k)).length);
  }
  return rows.sort((a, b) => (shared.get(b.id) ?? 0) - (shared.get(a.id) ?? 0) || (a.id < b.id ? -1 : 1));
}

/** The album resource with its tracks and artists (the catalogue call and the custom one). */
export async function albumDocument(d1: Database, album: AlbumRow, ctx: AnswerContext) {
  const [tracks, artists] = await Promise.all([albumTracks(d1, album.id), albumArtists(d1, album.id)]);
  return { data: [albumResource(album, ctx, tracks, artists)] };
}
