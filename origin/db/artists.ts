import * as v from "valibot";
import { all, type Database, first, int, nullableText, text } from "./rows.ts";

export const artistRowSchema = v.object({
  id: int,
  adamid: text,
  name: text,
  alias: text,
  genre_id: text,
  genre_name: text,
  bio: text,
  origin: nullableText,
  born_or_formed: nullableText,
  art_id: text,
  bkgcolor: text,
});
export type ArtistRow = v.InferOutput<typeof artistRowSchema>;

const artistSelect = `SELECT a.*, g.name AS genre_name FROM artists a JOIN genres g ON g.id = a.genre_id`;

export async function artistBy(
  db: Database,
  column: "id" | "adamid",
  id: string,
): Promise<ArtistRow | undefined> {
  return first(
    db,
    artistRowSchema,
    `${artistSelect} WHERE a.${column} = ?`,
    column === "id" ? Number(id) : id,
  );
}

function artistsWhere(db: Database, where: string, ...params: unknown[]): Promise<ArtistRow[]> {
  return all(db, artistRowSchema, `${artistSelect} WHERE ${where}`, ...params);
}

/** Every artist, in id order. */
export function allArtists(db: Database): Promise<ArtistRow[]> {
  return artistsWhere(db, "1 = 1 ORDER BY a.id");
}

/** Artists by id (unknown ids are left out), by name. */
export function artistsByIds(db: Database, ids: readonly number[]): Promise<ArtistRow[]> {
  return artistsWhere(db, "a.id IN (SELECT value FROM json_each(?)) ORDER BY a.name", JSON.stringify(ids));
}

/** The artists of an album's tracks, by name. */
export function albumArtists(db: Database, albumId: string): Promise<ArtistRow[]> {
  return artistsWhere(
    db,
    "a.id IN (SELECT artist_id FROM tracks WHERE album_id = ?) ORDER BY a.name",
    albumId,
  );
}

/** Every artist but this one. */
export function artistsOtherThan(db: Database, artistId: number): Promise<ArtistRow[]> {
  return artistsWhere(db, "a.id != ?", artistId);
}

const listedArtistRowSchema = v.object({
  id: int,
  adamid: text,
  alias: text,
  last_modified: nullableText,
});

/** Artists in id order after `after`, each with the date its newest track was added. */
export function artistListing(db: Database, after: number, limit: number) {
  return all(
    db,
    listedArtistRowSchema,
    `SELECT a.id, a.adamid, a.alias, MAX(t.added_date) AS last_modified
     FROM artists a LEFT JOIN tracks t ON t.artist_id = a.id
     WHERE a.id > ? GROUP BY a.id ORDER BY a.id LIMIT ?`,
    after,
    limit,
  );
}
