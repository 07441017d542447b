import * as v from "valibot";
import { all, type Database, flag, int, nullableText, text } from "./rows.ts";
import { tagCountJoins, tagTotal } from "./tag-counts.ts";

export const trackRowSchema = v.object({
  key: int,
  adamid: text,
  title: text,
  alias: text,
  artist_id: int,
  album_id: text,
  track_number: v.nullable(int),
  genre_id: text,
  release_date: text,
  release_precision: v.picklist(["year", "day"]),
  added_date: text,
  duration_ms: int,
  licence: text,
  copyright: text,
  source_package: text,
  binary_package: text,
  package_version: text,
  source_file: text,
  comment: nullableText,
  bpm: v.nullable(int),
  art_id: text,
  bkgcolor: text,
  preview_ms: int,
  // Joined in by every track query.
  artist_name: text,
  artist_adamid: text,
  artist_alias: text,
  artist_art_id: text,
  album_title: text,
  album_alias: text,
  genre_name: text,
  total: int,
  has_lyrics: flag,
});
export type TrackRow = v.InferOutput<typeof trackRowSchema>;

export const trackColumns = `
  t.*, a.name AS artist_name, a.adamid AS artist_adamid, a.alias AS artist_alias, a.art_id AS artist_art_id,
    al.title AS album_title, al.alias AS album_alias, g.name AS genre_name,
    ${tagTotal} AS total, (l.track_key IS NOT NULL) AS has_lyrics`;
/** What every track row joins, after `tracks t`. */
export const trackJoins = `
  JOIN artists a ON a.id = t.artist_id
  JOIN albums al ON al.id = t.album_id
  JOIN genres g ON g.id = t.genre_id${tagCountJoins}
  LEFT JOIN lyrics l ON l.track_key = t.key`;
const trackSelect = `SELECT ${trackColumns} FROM tracks t ${trackJoins}`;

/** Tracks by key, in the order of the keys asked (unknown keys are left out). */
export async function tracksByKeys(db: Database, keys: readonly number[]): Promise<TrackRow[]> {
  if (keys.length === 0) return [];
  const rows = await all(
    db,
    trackRowSchema,
    `${trackSelect} WHERE t.key IN (SELECT value FROM json_each(?))`,
    JSON.stringify(keys),
  );
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return keys.flatMap((key) => byKey.get(key) ?? []);
}

export async function tracksByAdamIds(db: Database, adamids: readonly string[]): Promise<TrackRow[]> {
  if (adamids.length === 0) return [];
  const rows = await all(
    db,
    trackRowSchema,
    `${trackSelect} WHERE t.adamid IN (SELECT value FROM json_each(?))`,
    JSON.stringify(adamids),
  );
  const byId = new Map(rows.map((row) => [row.adamid, row]));
  return adamids.flatMap((id) => byId.get(id) ?? []);
}

function tracksWhere(db: Database, where: string, ...params: unknown[]): Promise<TrackRow[]> {
  return all(db, trackRowSchema, `${trackSelect} WHERE ${where}`, ...params);
}

/** Every track, in key order. */
export function allTracks(db: Database): Promise<TrackRow[]> {
  return tracksWhere(db, "1 = 1 ORDER BY t.key");
}

/** An album's tracks in its track order (unnumbered ones last). */
export async function albumTracks(db: Database, albumId: string): Promise<TrackRow[]> {
  const rows = await tracksWhere(db, "t.album_id = ?", albumId);
  return rows.sort((a, b) => (a.track_number ?? 999) - (b.track_number ?? 999) || a.key - b.key);
}

/** An artist's own tracks. */
export function artistTracks(db: Database, artistId: number): Promise<TrackRow[]> {
  return tracksWhere(db, "t.artist_id = ?", artistId);
}

/** Every track not by this artist. */
export function tracksNotBy(db: Database, artistId: number): Promise<TrackRow[]> {
  return tracksWhere(db, "t.artist_id != ?", artistId);
}

/** Other tracks by the same artist, on the same album or of the same genre. */
export function tracksNear(db: Database, track: TrackRow): Promise<TrackRow[]> {
  return tracksWhere(
    db,
    "t.key != ? AND (t.artist_id = ? OR t.album_id = ? OR t.genre_id = ?)",
    track.key,
    track.artist_id,
    track.album_id,
    track.genre_id,
  );
}

const listedTrackRowSchema = v.object({ key: int, alias: text, added_date: text });

/** Tracks in key order after `after`: the catalogue listing's page. */
export function trackListing(db: Database, after: number, limit: number) {
  return all(
    db,
    listedTrackRowSchema,
    "SELECT key, alias, added_date FROM tracks WHERE key > ? ORDER BY key LIMIT ?",
    after,
    limit,
  );
}
