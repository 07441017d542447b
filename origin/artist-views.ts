import type * as v from "valibot";
import { type AlbumRow, albumsByIds } from "#origin/db/albums.ts";
import { type ArtistRow, artistsOtherThan } from "#origin/db/artists.ts";
import { artistPlaylists } from "#origin/db/playlists.ts";
import type { Database } from "#origin/db/rows.ts";
import { artistTracks, tracksNotBy } from "#origin/db/tracks.ts";
import type { ArtistViewName, artistViewSchema } from "#rules/schemas/amapi.ts";
import { playlistsWithTracks } from "./amapi";
import {
  type AnswerContext,
  albumResource,
  artistResource,
  playlistResource,
  songResource,
  storefront,
} from "./shapes";

/** Spec 001 §3 artist views. */
export async function artistView(
  d1: Database,
  artist: ArtistRow,
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
  const own = await artistTracks(d1, artist.id);
  const albumIds = [...new Set(own.map((t) => t.album_id))];
  const albums = await albumsByIds(d1, albumIds);
  const byDate = (a: AlbumRow, b: AlbumRow) =>
    a.release_date < b.release_date ? 1 : a.release_date > b.release_date ? -1 : a.id < b.id ? -1 : 1;

  const albumPage = (shown: AlbumRow[]) =>
    page(shown.sort(byDate).map((a) => albumResource(a, ctx, undefined, undefined)));

  let result: { data: unknown[]; next: string | undefined };
  switch (view) {
    case "full-albums":
      result = albumPage(albums.filter((a) => a.artist_name === artist.name));
      break;
    case "featured-albums":
      result = albumPage(albums.filter((a) => a.artist_name !== artist.name));
      break;
    case "latest-release":
      result = albumPage(albums.sort(byDate).slice(0, 1));
      break;
    case "top-songs":
      result = page(own.sort((a, b) => b.total - a.total || a.key - b.key).map((t) => songResource(t, ctx)));
      break;
    case "similar-artists": {
      // Shared albums count most; then the same genre; then how often their recordings are identified.
      const others = await artistsOtherThan(d1, artist.id);
      const tracks = await tracksNotBy(d1, artist.id);
      const score = (other: ArtistRow) => {
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
      const playlists = await artistPlaylists(d1, artist.id);
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
