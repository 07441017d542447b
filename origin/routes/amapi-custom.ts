import type * as v from "valibot";
import {
  albumAsPlaylist,
  albumDocument,
  custom,
  customLang,
  idOf,
  loadPlaylist,
  playlistCacheControl,
  playlistsWithTracks,
  requestOf,
  requireAlbum,
} from "#origin/amapi.ts";
import { lyricsOf } from "#origin/db/lyrics.ts";
import type { Database } from "#origin/db/rows.ts";
import { albumTracks, type TrackRow, tracksByKeys } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, json } from "#origin/http.ts";
import {
  type AnswerContext,
  noRelate,
  type PlaylistLike,
  playlistResource,
  songResource,
  trackPayload,
} from "#origin/shapes.ts";
import { SiteError } from "#rules/errors.ts";
import type { shazamTracksSchema } from "#rules/schemas/amapi.ts";

// Spec 001 §7 custom album and playlist calls.

/** Albums as playlists, album and playlist track lists, and where an album is featured. */
export function registerCustomCalls(origin: OriginApp) {
  origin.get(`${custom}/albums/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.var.db, idOf(c, "Album"));
    return json(c, await albumDocument(c.var.db, album, ctx), cachePolicy.catalogue);
  });

  /** The album as a playlist resource, for players that play playlists. */
  origin.get(`${custom}/playlistalbum/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.var.db, idOf(c, "Album"));
    const tracks = await albumTracks(c.var.db, album.id);
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
    await requireAlbum(c.var.db, idOf(c, "Album"));
    return json(c, { data: [] }, cachePolicy.catalogue);
  });

  origin.get(`${customLang}/playlist/shazamtracks/:id/full`, async (c) => {
    const { ctx } = requestOf(c);
    const { like, keys, chart } = await loadPlaylist(c.var.db, c.req.param("id"));
    const rows = await tracksByKeys(c.var.db, keys);
    const list = { id: like.id, type: "playlists", name: like.name } as const;
    return json(c, await shazamTracks(c.var.db, list, rows, ctx), playlistCacheControl(chart));
  });

  origin.get(`${customLang}/album/shazamtracks/:id/full`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.var.db, idOf(c, "Album"));
    const rows = await albumTracks(c.var.db, album.id);
    const list = { id: album.id, type: "albums", name: album.title } as const;
    return json(c, await shazamTracks(c.var.db, list, rows, ctx), cachePolicy.catalogue);
  });

  /** Editorial playlists holding the album's tracks. */
  origin.get(`${customLang}/playlistsbyalbum/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.var.db, idOf(c, "Album"));
    const keys = (await albumTracks(c.var.db, album.id)).map((t) => t.key);
    const playlists = await playlistsWithTracks(c.var.db, keys);
    return json(
      c,
      { data: playlists.map((p) => playlistResource({ ...p, playlistType: "editorial" }, ctx, undefined)) },
      cachePolicy.catalogue,
    );
  });

  /** The charts of the path's country (and the world) the album's tracks are on. */
  origin.get(`${customLang}/albumfeaturedin/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.var.db, idOf(c, "Album"));
    const keys = new Set((await albumTracks(c.var.db, album.id)).map((t) => t.key));
    const candidates = [
      `ip-country-chart-${ctx.country}`,
      `ip-country-discovery-${ctx.country}`,
      "ip-world-chart",
      `genre-country-chart-${ctx.country}-${album.genre_id}`,
    ];
    const featured: PlaylistLike[] = [];
    for (const listid of candidates) {
      // A country without a genre chart (or without charts) is simply not featured there.
      const loaded = await loadPlaylist(c.var.db, listid).catch((error: unknown) => {
        if (error instanceof SiteError && error.type === "notfound") return undefined;
        throw error;
      });
      if (loaded?.keys.some((k) => keys.has(k))) featured.push(loaded.like);
    }
    return json(c, { data: featured.map((p) => playlistResource(p, ctx, undefined)) }, cachePolicy.charts);
  });
}

/** A list's tracks in the full track shape, each with its lyrics when it has some. */
async function shazamTracks(
  d1: Database,
  list: { id: string; type: "playlists" | "albums"; name: string },
  rows: TrackRow[],
  ctx: AnswerContext,
): Promise<v.InferInput<typeof shazamTracksSchema>> {
  const tracks = await Promise.all(
    rows.map(async (row) =>
      trackPayload(row, ctx, row.has_lyrics ? await lyricsOf(d1, "track_key", String(row.key)) : undefined),
    ),
  );
  return { ...list, tracks };
}
