import * as v from "valibot";
import { all, type Database, flag, int, text } from "./rows.ts";

/**
 * A track's tag count (spec 001 §7): the catalogue's baseline (tag_counts) plus the identifications
 * counted since (live_tag_counts, origin/identifications.ts), over `t` joined to both as `c` and `lc`.
 */
export const tagTotal = "COALESCE(c.total, 0) + COALESCE(lc.total, 0)";
export const tagCountJoins = `
  LEFT JOIN tag_counts c ON c.track_key = t.key
  LEFT JOIN live_tag_counts lc ON lc.track_key = t.key`;

const countRowSchema = v.object({ track_key: int, total: int, recent: int, genre_id: text });
export type CountRow = v.InferOutput<typeof countRowSchema>;

/** Per-country tag counts (country undefined: the world, summed). */
export function tagCountsIn(db: Database, country: string | undefined): Promise<CountRow[]> {
  return country
    ? all(
        db,
        countRowSchema,
        "SELECT c.track_key, c.total, c.recent, t.genre_id FROM country_tag_counts c JOIN tracks t ON t.key = c.track_key WHERE c.country = ?",
        country,
      )
    : all(
        db,
        countRowSchema,
        "SELECT c.track_key, SUM(c.total) AS total, SUM(c.recent) AS recent, t.genre_id FROM country_tag_counts c JOIN tracks t ON t.key = c.track_key GROUP BY c.track_key",
      );
}

/**
 * The tag counts (baseline + live) of the tracks of `keys` that have one: the catalogue counts MUSIC
 * only. `demo`: the total includes the catalogue's seeded baseline (decision 032), which pages label.
 */
export async function tagTotals(
  db: Database,
  keys: readonly number[],
): Promise<Map<number, { total: number; demo: boolean }>> {
  const rows = await all(
    db,
    v.object({ track_key: int, total: int, demo: flag }),
    `SELECT t.key AS track_key, ${tagTotal} AS total, COALESCE(c.total, 0) > 0 AS demo FROM tracks t${tagCountJoins}
     WHERE t.key IN (SELECT value FROM json_each(?)) AND (c.track_key IS NOT NULL OR lc.track_key IS NOT NULL)`,
    JSON.stringify(keys),
  );
  return new Map(rows.map((row) => [row.track_key, { total: row.total, demo: row.demo }]));
}
