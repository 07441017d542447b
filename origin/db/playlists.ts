import * as v from "valibot";
import { all, type Database, int, nullableText, text } from "./rows.ts";

const playlistRowSchema = v.object({
  id: text,
  name: text,
  description: text,
  curator: text,
  artist_id: v.nullable(int),
  genre_id: nullableText,
  art_id: text,
  bkgcolor: text,
  last_modified: text,
  track_count: int,
});
export type PlaylistRow = v.InferOutput<typeof playlistRowSchema>;

const playlistSelect = `
  SELECT p.*, (SELECT COUNT(*) FROM playlist_tracks pt WHERE pt.playlist_id = p.id) AS track_count
  FROM playlists p`;

function playlistsWhere(db: Database, where: string, ...params: unknown[]): Promise<PlaylistRow[]> {
  return all(db, playlistRowSchema, `${playlistSelect} WHERE ${where}`, ...params);
}

export async function playlistById(db: Database, id: string): Promise<PlaylistRow | undefined> {
  const [row] = await playlistsWhere(db, "p.id = ?", id);
  return row;
}

/** The playlists made for an artist. */
export function artistPlaylists(db: Database, artistId: number): Promise<PlaylistRow[]> {
  return playlistsWhere(db, "p.artist_id = ?", artistId);
}

/** Every playlist made for an artist, in id order. */
export function allArtistPlaylists(db: Database): Promise<PlaylistRow[]> {
  return playlistsWhere(db, "p.artist_id IS NOT NULL ORDER BY p.id");
}

/** Playlists holding any of these tracks. */
export function playlistsHoldingTracks(db: Database, keys: readonly number[]): Promise<PlaylistRow[]> {
  return playlistsWhere(
    db,
    "p.id IN (SELECT playlist_id FROM playlist_tracks WHERE track_key IN (SELECT value FROM json_each(?)))",
    JSON.stringify(keys),
  );
}

export async function playlistTrackKeys(db: Database, playlistId: string): Promise<number[]> {
  const rows = await all(
    db,
    v.object({ track_key: int }),
    "SELECT track_key FROM playlist_tracks WHERE playlist_id = ? ORDER BY position",
    playlistId,
  );
  return rows.map((row) => row.track_key);
}

const listedPlaylistRowSchema = v.object({ id: text, last_modified: text });

/** Playlists in id order after `after` (ids are text: `pl.…`). */
export function playlistListing(db: Database, after: string, limit: number) {
  return all(
    db,
    listedPlaylistRowSchema,
    "SELECT id, last_modified FROM playlists WHERE id > ? ORDER BY id LIMIT ?",
    after,
    limit,
  );
}
