import * as v from "valibot";
import { type Database, int } from "#origin/db/rows.ts";
import { type TrackRow, trackColumns, trackJoins, trackRowSchema } from "#origin/db/tracks.ts";
import {
  earliestTagTime,
  hiddenTagLifetimeMs,
  noMorePages,
  roughPosition,
  type TagLocation,
  tagTimeLeewayMs,
} from "#rules/library.ts";
import { randomToken } from "./accounts";

// My Library's D1 records (migration 0004): a signed-in person's tags, newest first. A page is a
// range of the (user_id, tag_time DESC, id DESC) index, found from the last tag of the page before,
// so a tag added while someone pages never moves a page under them.

export type StoredTag = {
  id: string;
  trackKey: number;
  tagTime: number;
  location: TagLocation;
};

export type NewTag = {
  recognitionId: string;
  trackKey: number;
  tagTime: number;
  location: TagLocation;
};

/**
 * Adds a tag, once per (account, recognition): a retried or repeated request finds the tag the
 * first one made (also when it was removed since: a retry brings nothing back). One statement, so
 * concurrent requests cannot both insert. The position is stored only roughly (`roughPosition`),
 * whoever sent it; the caller has checked the tag time (`isAcceptedTagTime`).
 */
export async function addTag(
  db: Database,
  userId: string,
  tag: NewTag,
  now: number,
): Promise<{ id: string; created: boolean }> {
  const id = randomToken().slice(0, 22);
  const position = roughPosition(tag.location.lat, tag.location.lng);
  const inserted = await db
    .prepare(
      `INSERT INTO tags (id, user_id, recognition_id, track_key, tag_time, country, lat, lng, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, recognition_id) DO NOTHING`,
    )
    .bind(
      id,
      userId,
      tag.recognitionId,
      tag.trackKey,
      tag.tagTime,
      tag.location.country,
      position.lat,
      position.lng,
      now,
    )
    .run();
  const stored = await db
    .prepare("SELECT id FROM tags WHERE user_id = ? AND recognition_id = ?")
    .bind(userId, tag.recognitionId)
    .first<{ id: string }>();
  if (!stored) throw new Error("the tag was not stored");
  return { id: stored.id, created: inserted.meta.changes === 1 };
}

/** Where the next page starts: the last tag shown and how many came before it (base64url JSON). */
const cursorSchema = v.object({
  t: v.pipe(v.number(), v.integer()),
  id: v.pipe(v.string(), v.maxLength(64)),
  n: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
type Cursor = v.InferOutput<typeof cursorSchema>;

function encodeCursor(cursor: Cursor): string {
  return btoa(JSON.stringify(cursor)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The cursor a page token names, or undefined for a token this service did not write. */
export function decodeCursor(token: string): Cursor | undefined {
  try {
    const parsed = v.safeParse(
      cursorSchema,
      JSON.parse(atob(token.replaceAll("-", "+").replaceAll("_", "/"))),
    );
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** A shown tag: visible (not removed) and of a track the catalogue still holds. */
const shown = "t.hidden_at IS NULL AND EXISTS (SELECT 1 FROM tracks WHERE tracks.key = t.track_key)";

type TagRow = {
  id: string;
  track_key: number;
  tag_time: number;
  country: string | null;
  lat: number | null;
  lng: number | null;
  created_at: number;
};

/**
 * A stored tag time as it is shown: a row written before the window was enforced (or by hand) may
 * hold a time no date can show (`1e300`); it is then shown at when it was stored, so that one bad
 * row never breaks the library or the data download. Its place in the order is its stored one.
 */
export function shownTagTime(tagTime: number, createdAt: number): number {
  return Number.isSafeInteger(tagTime) && tagTime >= earliestTagTime && tagTime <= createdAt + tagTimeLeewayMs
    ? tagTime
    : createdAt;
}

const storedTagOf = (row: TagRow): StoredTag => ({
  id: row.id,
  trackKey: row.track_key,
  tagTime: shownTagTime(row.tag_time, row.created_at),
  location: { country: row.country, ...roughPosition(row.lat, row.lng) },
});

export type TagPage = {
  tags: { tag: StoredTag; track: TrackRow }[];
  /** The next page's token, when there is one. */
  token: string | undefined;
  /** Where the next page starts, or -1 (spec 002 §5). */
  start: number;
  /** Every tag the library shows (`countTags`), read by the same statement as the page. */
  count: number;
};

/** A page row: the count on every row, the tag and its track on all but an empty page's one row. */
const pageRowSchema = v.object({
  tag_count: int,
  tag_id: v.nullable(v.string()),
  tag_track_key: v.nullable(int),
  tag_time: v.nullable(v.number()),
  tag_country: v.nullable(v.string()),
  tag_lat: v.nullable(v.number()),
  tag_lng: v.nullable(v.number()),
  tag_created_at: v.nullable(v.number()),
});

/** One page of the library, newest first, after the page `cursor` names (the first without one). */
export async function listTags(
  db: Database,
  userId: string,
  limit: number,
  cursor: Cursor | undefined,
): Promise<TagPage> {
  const after = cursor ? "AND (t.tag_time < ?3 OR (t.tag_time = ?3 AND t.id < ?4))" : "";
  const params = [userId, limit + 1, ...(cursor ? [cursor.t, cursor.id] : [])];
  // The page's tags, their tracks and the count in one statement: a library view costs one D1
  // query, the floor of a signed-in page (decision 048, amendment 3). The count is the one row of
  // `counted`, so that a page past the last tag still says how many there are.
  const result = await db
    .prepare(
      `WITH counted AS (SELECT COUNT(*) AS n FROM tags t WHERE t.user_id = ?1 AND ${shown}),
       page AS (
         SELECT t.id AS tag_id, t.track_key AS tag_track_key, t.tag_time, t.country AS tag_country,
           t.lat AS tag_lat, t.lng AS tag_lng, t.created_at AS tag_created_at
         FROM tags t WHERE t.user_id = ?1 AND ${shown} ${after} ORDER BY t.tag_time DESC, t.id DESC LIMIT ?2),
       shown_page AS (SELECT p.*, ${trackColumns} FROM page p JOIN tracks t ON t.key = p.tag_track_key ${trackJoins})
       SELECT counted.n AS tag_count, shown_page.* FROM counted LEFT JOIN shown_page
       ORDER BY shown_page.tag_time DESC, shown_page.tag_id DESC`,
    )
    .bind(...params)
    .all();
  const rows = result.results.map((row) => ({
    page: v.parse(pageRowSchema, row),
    row,
  }));
  const count = rows[0]?.page.tag_count ?? 0;
  const results = rows.flatMap(({ page, row }) =>
    page.tag_id === null ||
    page.tag_track_key === null ||
    page.tag_time === null ||
    page.tag_created_at === null
      ? []
      : [
          {
            stored: {
              id: page.tag_id,
              track_key: page.tag_track_key,
              tag_time: page.tag_time,
              country: page.tag_country,
              lat: page.tag_lat,
              lng: page.tag_lng,
              created_at: page.tag_created_at,
            } satisfies TagRow,
            track: v.parse(trackRowSchema, row),
          },
        ],
  );
  const page = results.slice(0, limit);
  const tags = page.map(({ stored, track }) => ({ tag: storedTagOf(stored), track }));
  // The next page starts after the stored time, the one the index orders by.
  const last = page.at(-1)?.stored;
  const before = cursor?.n ?? 0;
  if (results.length <= limit || !last) return { tags, token: undefined, start: noMorePages, count };
  const start = before + tags.length;
  return { tags, token: encodeCursor({ t: last.tag_time, id: last.id, n: start }), start, count };
}

function countStatement(db: Database, userId: string): D1PreparedStatement {
  return db.prepare(`SELECT COUNT(*) AS n FROM tags t WHERE t.user_id = ? AND ${shown}`).bind(userId);
}

function countOf(result: D1Result<{ n: number }> | undefined): number {
  return result?.results[0]?.n ?? 0;
}

/** Spec 002 §7 "GET tag count": the tags the library shows. */
export async function countTags(db: Database, userId: string): Promise<number> {
  return countOf(await countStatement(db, userId).all<{ n: number }>());
}

/**
 * Removes a tag from the library (spec 002 §3 HIDDEN): hidden now, brought back by `restoreTag`,
 * deleted for good once it has been hidden longer than `hiddenTagLifetimeMs`. False when the
 * account has no such visible tag (another account's tag is never touched).
 */
export async function hideTag(db: Database, userId: string, tagId: string, now: number): Promise<boolean> {
  const [, hidden] = await db.batch([
    purgeHidden(db, userId, now),
    db
      .prepare("UPDATE tags SET hidden_at = ? WHERE id = ? AND user_id = ? AND hidden_at IS NULL")
      .bind(now, tagId, userId),
  ]);
  return hidden?.meta.changes === 1;
}

/** The undo of a removal. False when the account has no such hidden tag. */
export async function restoreTag(db: Database, userId: string, tagId: string): Promise<boolean> {
  const restored = await db
    .prepare("UPDATE tags SET hidden_at = NULL WHERE id = ? AND user_id = ? AND hidden_at IS NOT NULL")
    .bind(tagId, userId)
    .run();
  return restored.meta.changes === 1;
}

function purgeHidden(db: Database, userId: string, now: number): D1PreparedStatement {
  return db
    .prepare("DELETE FROM tags WHERE user_id = ? AND hidden_at IS NOT NULL AND hidden_at < ?")
    .bind(userId, now - hiddenTagLifetimeMs);
}

/** A shown tag of the account, or undefined. */
export async function findTag(db: Database, userId: string, tagId: string): Promise<StoredTag | undefined> {
  const row = await db
    .prepare(
      `SELECT t.id, t.track_key, t.tag_time, t.country, t.lat, t.lng, t.created_at FROM tags t
       WHERE t.id = ? AND t.user_id = ?`,
    )
    .bind(tagId, userId)
    .first<TagRow>();
  return row ? storedTagOf(row) : undefined;
}
