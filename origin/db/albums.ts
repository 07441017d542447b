import * as v from "valibot";
import { all, type Database, flag, int, nullableText, text } from "./rows.ts";

const albumRowSchema = v.object({
  id: text,
  title: text,
  alias: text,
  artist_name: text,
  genre_id: text,
  genre_name: text,
  release_date: text,
  copyright: text,
  description: text,
  source_package: text,
  art_id: text,
  bkgcolor: text,
  is_single: flag,
  track_count: int,
  artist_ids: text,
});
export type AlbumRow = v.InferOutput<typeof albumRowSchema>;

const albumSelect = `
  SELECT al.*, g.name AS genre_name,
    (SELECT COUNT(*) FROM tracks t WHERE t.album_id = al.id) AS track_count,
    (SELECT json_group_array(DISTINCT t.artist_id) FROM tracks t WHERE t.album_id = al.id) AS artist_ids
  FROM albums al JOIN genres g ON g.id = al.genre_id`;

function albumsWhere(db: Database, where: string, ...params: unknown[]): Promise<AlbumRow[]> {
  return all(db, albumRowSchema, `${albumSelect} WHERE ${where}`, ...params);
}

/** Albums by id (unknown ids are left out). */
export function albumsByIds(db: Database, ids: readonly string[]): Promise<AlbumRow[]> {
  return albumsWhere(db, "al.id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
}

export async function albumById(db: Database, id: string): Promise<AlbumRow | undefined> {
  const [row] = await albumsWhere(db, "al.id = ?", id);
  return row;
}

const listedAlbumRowSchema = v.object({ id: text, alias: text, last_modified: nullableText });

/** Albums in numeric id order after `after`, each with the date its newest track was added. */
export function albumListing(db: Database, after: number, limit: number) {
  return all(
    db,
    listedAlbumRowSchema,
    `SELECT al.id, al.alias, MAX(t.added_date) AS last_modified
     FROM albums al LEFT JOIN tracks t ON t.album_id = al.id
     WHERE CAST(al.id AS INTEGER) > ? GROUP BY al.id ORDER BY CAST(al.id AS INTEGER) LIMIT ?`,
    after,
    limit,
  );
}
