import * as v from "valibot";
import { shortestSpellingWord, type TermQueries, twoEditsFrom } from "#origin/search-terms.ts";
import { type ArtistRow, artistRowSchema } from "./artists.ts";
import { all, type Database, first, int, text } from "./rows.ts";
import { tagCountJoins, tagTotal } from "./tag-counts.ts";
import { type TrackRow, trackColumns, trackJoins, trackRowSchema } from "./tracks.ts";

/**
 * The full-text indexes (origin/migrations/0021_search_names_lyrics.sql): search_names holds song
 * titles, artist names and album titles, search_lyrics lyric lines. A row's kind is its rowid % 8
 * (0 a song title, 1 an artist name, 2 an album title, 3 a lyric line), its entity the rowid / 8 (a
 * lyric line's: track key * 1024 + line). Highlights are marked with char(1) and char(2), which no
 * line holds, and made into parts in JS (never HTML).
 *
 * How well a title or name matches (`nameTier`): 0 the whole of it (it starts with the term and is
 * as long, `termLength`), 1 it starts with the term (its rowid is among the initial-token query
 * `starting`'s), 2 a later word matches. Read from rowids and a length, never from highlight(): a
 * common word matches thousands of rows, and tokenising each one's text again cost most of a search.
 */
export const highlightMarks = { start: "\u0001", end: "\u0002" } as const;

/** The tier of a title or name (`id` its rowid, `nameLength` its length); `?2` starting, `?3` termLength. */
const nameTier = (id: string, nameLength: string) =>
  `CASE WHEN ${id} NOT IN (SELECT rowid FROM search_names WHERE search_names MATCH ?2) THEN 2
     WHEN ${nameLength} = ?3 THEN 0 ELSE 1 END`;

/** Tiers of a song found through something else than its title: after any title match. */
export const songTiers = { artist: 3, album: 6, lyric: 7 } as const;

const matchSchema = v.object({ match_tier: int, match_line_id: v.nullable(int) });
export type SongMatch = { row: TrackRow; tier: number; lineId: number | null };
const songMatchSchema = v.object({ ...trackRowSchema.entries, ...matchSchema.entries });

function songMatchOf({
  match_tier,
  match_line_id,
  ...row
}: v.InferOutput<typeof songMatchSchema>): SongMatch {
  return { row, tier: match_tier, lineId: match_line_id };
}

/** The best `limit` of ranked songs (`ranked`: track_key, tier, line_id), by popularity within a tier. */
const rankedSongsCte = (ranked: string, limit: string) => `
     page AS (
       SELECT r.track_key, r.tier, r.line_id, COALESCE(c.total, 0) + COALESCE(lc.total, 0) AS popularity
       FROM ${ranked} r
       LEFT JOIN tag_counts c ON c.track_key = r.track_key
       LEFT JOIN live_tag_counts lc ON lc.track_key = r.track_key
       ORDER BY r.tier, popularity DESC, r.track_key
       LIMIT ${limit}
     )`;

/** The rows of rankedSongsCte's page, in its order. */
const rankedSongsRows = `
     SELECT ${trackColumns}, p.tier AS match_tier, p.line_id AS match_line_id, p.popularity AS match_popularity
     FROM page p JOIN tracks t ON t.key = p.track_key ${trackJoins}`;

/**
 * A way of finding songs (a tier) holding at least this many songs is walked in popularity order
 * (track_popularity) until the page's songs are found, instead of being sorted whole: a common word
 * or a three-letter prefix matches thousands of names at 1 000x the catalogue. Below it, sorting the
 * few is cheaper than a walk that would pass most songs before finding them.
 */
export const walkFrom = 400;

/**
 * One tier of songsFound's names: its songs (`t.key`) sorted whole (`few`: FROM …) when `size` (a
 * column of the `size` row) is under the walk threshold (`?6`), else walked from the most popular
 * song (`p`, its track `t`, then `joins`) to the `?5 * 2` first that are `found` (twice the page: a
 * song also found in a better tier counts there). The choice is each branch's LIMIT (0 for the one
 * not taken), decided once before its loop: as a WHERE term, a subquery is tested on every row, and
 * the walk not taken read all of track_popularity (4–8 ms a search at 1 000x).
 */
const tierBranch = (tier: number, size: string, few: string, found: string, joins = "") => `
       SELECT * FROM (
         SELECT t.key AS track_key, ${tier} AS tier ${few}
         LIMIT CASE WHEN (SELECT ${size} FROM size) < ?6 THEN -1 ELSE 0 END
       )
       UNION ALL
       SELECT * FROM (
         SELECT p.track_key, ${tier} FROM track_popularity p INDEXED BY track_popularity_order
           JOIN tracks t ON t.key = p.track_key${joins}
         WHERE ${found}
         ORDER BY p.total DESC, p.track_key
         LIMIT CASE WHEN (SELECT ${size} FROM size) >= ?6 THEN ?5 * 2 ELSE 0 END
       )`;

/**
 * songsFound's name CTEs (`?1`–`?6` its queries, limit and walk threshold): `hit` the names holding
 * the term, `best` each song found by a name with its best tier.
 */
const namesCtes = `hit AS MATERIALIZED (SELECT rowid AS id FROM search_names WHERE search_names MATCH ?1),
     starting AS MATERIALIZED (SELECT rowid AS id FROM search_names WHERE search_names MATCH ?2),
     -- The few artist and album names apart: each tier of theirs reads them, not every match again.
     artist_hit AS MATERIALIZED (SELECT id FROM hit WHERE id % 8 = 1),
     artist_starting AS MATERIALIZED (SELECT id FROM starting WHERE id % 8 = 1),
     album_hit AS MATERIALIZED (SELECT id FROM hit WHERE id % 8 = 2),
     size AS MATERIALIZED (
       SELECT
         (SELECT count(*) FROM starting WHERE id % 8 = 0) AS title_start,
         (SELECT count(*) FROM hit WHERE id % 8 = 0) AS title_later,
         (SELECT count(*) FROM artist_starting s JOIN tracks t ON t.artist_id = s.id / 8) AS artist_start,
         (SELECT count(*) FROM artist_hit h JOIN tracks t ON t.artist_id = h.id / 8) AS artist_later,
         (SELECT count(*) FROM album_hit h JOIN albums al ON al.rowid = h.id / 8 JOIN tracks t ON t.album_id = al.id)
         AS album
     ),
     -- The term whole: a title or name as long as the term, from the few that are it without spaces.
     whole AS (
       SELECT t.key AS track_key, 0 AS tier
       FROM search_names w JOIN tracks t ON t.key = w.rowid / 8
       WHERE search_names MATCH ?3 AND w.rowid % 8 = 0 AND length(t.title) = ?4
       UNION ALL
       SELECT t.key, ${songTiers.artist}
       FROM search_names w JOIN artists a ON a.id = w.rowid / 8 JOIN tracks t ON t.artist_id = a.id
       WHERE search_names MATCH ?3 AND w.rowid % 8 = 1 AND length(a.name) = ?4
     ),
     -- One statement per tier: D1 allows few terms in one compound SELECT. A "later" tier reads every
     -- name holding the term (no EXCEPT of those starting with it): a song in both keeps the better tier.
     title_start AS (${tierBranch(
       1,
       "title_start",
       "FROM starting s JOIN tracks t ON t.key = s.id / 8 WHERE s.id % 8 = 0",
       "t.key * 8 IN starting",
     )}),
     title_later AS (${tierBranch(
       2,
       "title_later",
       "FROM hit h JOIN tracks t ON t.key = h.id / 8 WHERE h.id % 8 = 0",
       "t.key * 8 IN hit",
     )}),
     artist_start AS (${tierBranch(
       songTiers.artist + 1,
       "artist_start",
       "FROM artist_starting s JOIN tracks t ON t.artist_id = s.id / 8",
       "t.artist_id * 8 + 1 IN artist_starting",
     )}),
     artist_later AS (${tierBranch(
       songTiers.artist + 2,
       "artist_later",
       "FROM artist_hit h JOIN tracks t ON t.artist_id = h.id / 8",
       "t.artist_id * 8 + 1 IN artist_hit",
     )}),
     album AS (${tierBranch(
       songTiers.album,
       "album",
       "FROM album_hit h JOIN albums al ON al.rowid = h.id / 8 JOIN tracks t ON t.album_id = al.id",
       "al.rowid * 8 + 2 IN album_hit",
       " JOIN albums al ON al.id = t.album_id",
     )}),
     by_title AS (
       SELECT * FROM whole UNION ALL SELECT * FROM title_start UNION ALL SELECT * FROM title_later
     ),
     by_artist_or_album AS (
       SELECT * FROM artist_start UNION ALL SELECT * FROM artist_later UNION ALL SELECT * FROM album
     ),
     song AS (SELECT * FROM by_title UNION ALL SELECT * FROM by_artist_or_album),
     best AS (SELECT track_key, MIN(tier) AS tier, NULL AS line_id FROM song GROUP BY track_key)`;

/** songsFound's row of nulls (no song found): its `key` null, with `names_found`. */
const noSongFoundSchema = v.object({ key: v.null(), names_found: int });

/**
 * The first `limit` songs found by a name, best first: by tier (title 0–2, by its artist's name
 * 3–5, its album's title 6), then by popularity (tag count, seeded + live), then key; then, when
 * they do not fill the `limit`, other songs found by a lyric line (`line_id`: each one's first
 * matching line), by popularity. One D1 round trip; the lines are not read when the names fill the
 * page. Every read is an index's or a key's: no scan of the catalogue, and a tier of many songs is
 * walked in popularity order only as far as the page (`walkThreshold`, default `walkFrom`). `anyMatch`: whether anything holds the term as typed (a song found, or a name, even one of
 * no song): what the spelling fallback asks (catalogue-search.ts), without a round trip of its own.
 */
export async function songsFound(
  db: Database,
  queries: TermQueries,
  limit: number,
  walkThreshold = walkFrom,
): Promise<{ matches: SongMatch[]; anyMatch: boolean }> {
  const { results } = await db
    .prepare(
      `WITH ${namesCtes},
     named AS MATERIALIZED (SELECT * FROM best),
     line AS MATERIALIZED (
       SELECT rowid AS id FROM search_lyrics WHERE search_lyrics MATCH ?7
       LIMIT CASE WHEN (SELECT count(*) FROM named) < ?5 THEN -1 ELSE 0 END
     ),
     by_line AS (
       SELECT id / 8192 AS track_key, ${songTiers.lyric} AS tier, MIN(id) AS line_id FROM line
       WHERE id / 8192 NOT IN (SELECT track_key FROM named)
       GROUP BY id / 8192
     ),
     found AS (SELECT * FROM named UNION ALL SELECT * FROM by_line),
     ${rankedSongsCte("found", "?5")}
     -- One row of nulls when no song is found, to carry names_found.
     SELECT r.*, x.names_found
     FROM (SELECT EXISTS (SELECT 1 FROM hit) AS names_found) x LEFT JOIN (${rankedSongsRows}) r ON 1
     ORDER BY r.match_tier, r.match_popularity DESC, r.key`,
    )
    .bind(
      queries.names,
      queries.starting,
      queries.whole,
      queries.termLength,
      limit,
      walkThreshold,
      queries.lyrics,
    )
    .all();
  const [none] = results;
  if (results.length === 1 && v.is(noSongFoundSchema, none)) {
    return { matches: [], anyMatch: none.names_found === 1 };
  }
  return { matches: results.map((row) => songMatchOf(v.parse(songMatchSchema, row))), anyMatch: true };
}

const lyricMatchSchema = v.object({ line_id: int, marked: text, offset_ms: v.nullable(int) });
export type LyricMatch = v.InferOutput<typeof lyricMatchSchema>;

/** The lyric lines `lineIds` (search_lyrics rowids) with the words of `query` marked, and when each is sung. */
export function lyricMatches(db: Database, query: string, lineIds: readonly number[]): Promise<LyricMatch[]> {
  if (lineIds.length === 0) return Promise.resolve([]);
  return all(
    db,
    lyricMatchSchema,
    `SELECT s.rowid AS line_id, highlight(search_lyrics, 0, char(1), char(2)) AS marked,
       json_extract(l.synced, '$[' || ((s.rowid / 8) % 1024) || '].offset') AS offset_ms
     FROM search_lyrics s LEFT JOIN lyrics l ON l.track_key = s.rowid / 8192
     WHERE search_lyrics MATCH ?1 AND s.rowid IN (SELECT value FROM json_each(?2))`,
    query,
    JSON.stringify(lineIds),
  );
}

/** Whether anything at all matches the term (a later page past the end is not a misspelling). */
export async function anyMatch(db: Database, queries: TermQueries): Promise<boolean> {
  const row = await first(
    db,
    v.object({ found: int }),
    `SELECT EXISTS (SELECT 1 FROM search_names WHERE search_names MATCH ?1)
       OR EXISTS (SELECT 1 FROM search_lyrics WHERE search_lyrics MATCH ?2) AS found`,
    queries.names,
    queries.lyrics,
  );
  return row?.found === 1;
}

/**
 * The spelling fallback's tables: every word of the names (spelling_variants, 0021, from
 * search_words) and of the lyrics (lyric_spelling_variants, 0023, from search_lyric_words), from three
 * letters, filed under itself and under each form of it with one letter deleted, two from eight
 * letters (origin/search-terms.ts spellingForms is the other half), with how many names or lines
 * hold it. Apart, so a name's typo is corrected to a name's word and a line's to a line's. Rebuilt
 * whole: a catalogue's vocabulary is small beside its rows. The triggers mark them stale.
 */
const spellingTables = {
  names: { variants: "spelling_variants", vocabulary: "search_words", columns: "'title', 'artist', 'album'" },
  lyrics: { variants: "lyric_spelling_variants", vocabulary: "search_lyric_words", columns: "'lyric'" },
} as const;

const rebuildSpellingVariants = [
  "DELETE FROM meta WHERE key = 'spelling_stale'",
  ...Object.values(spellingTables).flatMap(({ variants, vocabulary, columns }) => [
    `DELETE FROM ${variants}`,
    `INSERT OR IGNORE INTO ${variants} (variant, word, documents)
   WITH RECURSIVE
     position (at) AS (SELECT 1 UNION ALL SELECT at + 1 FROM position WHERE at < 64),
     word (word, documents) AS (
       SELECT term, SUM(doc) FROM ${vocabulary}
       WHERE col IN (${columns}) AND length(term) >= ?1 GROUP BY term
     ),
     one (word, documents, form) AS (
       SELECT word, documents, substr(word, 1, at - 1) || substr(word, at + 1)
       FROM word JOIN position ON at <= length(word)
     ),
     two (word, documents, form) AS (
       SELECT word, documents, substr(form, 1, at - 1) || substr(form, at + 1)
       FROM one JOIN position ON at <= length(form) WHERE length(word) >= ?2
     )
   SELECT word, word, documents FROM word
   UNION ALL SELECT form, word, documents FROM one
   UNION ALL SELECT form, word, documents FROM two`,
  ]),
];

const staleSpelling = "SELECT value FROM meta WHERE key = 'spelling_stale'";

function rebuildSpelling(db: Database) {
  return db.batch(
    rebuildSpellingVariants.map((sql) =>
      sql.includes("?1") ? db.prepare(sql).bind(shortestSpellingWord, twoEditsFrom) : db.prepare(sql),
    ),
  );
}

/** Rebuilds the spelling variants when the names or lyrics changed since they were built (the scheduled run); whether it did. */
export async function refreshSpellingVariants(db: Database): Promise<boolean> {
  if (!(await first(db, v.object({ value: text }), staleSpelling))) return false;
  await rebuildSpelling(db);
  return true;
}

/** The words a misspelt word may be: of the names, and of the lyrics, each the commonest first. */
export type SpellingCandidates = { names: string[]; lyrics: string[] };

/**
 * For each list of forms (a misspelt word and its deletions, origin/search-terms.ts), the words of
 * the names and of the lyrics filed under any of them, the commonest first: one D1 round trip for
 * all the words, which also asks whether the names or lyrics changed since the variants were
 * built; then (seldom: the scheduled run rebuilds them) they are rebuilt and asked again.
 */
export async function spellingCandidates(
  db: Database,
  formLists: readonly (readonly string[])[],
  limit: number,
): Promise<SpellingCandidates[]> {
  if (formLists.length === 0) return [];
  const lookup = (variants: string) =>
    db.prepare(
      `SELECT word FROM ${variants} WHERE variant IN (SELECT value FROM json_each(?1))
     GROUP BY word ORDER BY MAX(documents) DESC, word LIMIT ?2`,
    );
  const lookups = [lookup(spellingTables.names.variants), lookup(spellingTables.lyrics.variants)];
  const ask = () =>
    db.batch([
      db.prepare(staleSpelling),
      ...formLists.flatMap((forms) =>
        lookups.map((statement) => statement.bind(JSON.stringify(forms), limit)),
      ),
    ]);
  let [stale, ...answers] = await ask();
  if (stale && stale.results.length > 0) {
    await rebuildSpelling(db);
    [stale, ...answers] = await ask();
  }
  const words = (at: number) =>
    (answers[at]?.results ?? []).map((row) => v.parse(v.object({ word: text }), row).word);
  return formLists.map((_, i) => ({ names: words(2 * i), lyrics: words(2 * i + 1) }));
}

export type ArtistMatch = { row: ArtistRow; tier: number };

/**
 * Artists whose name matches the term (the `{artist}` queries), best first: by tier (nameTier),
 * then by the tag counts of their songs, then by name; only the page's rows are read whole.
 */
export async function artistMatches(
  db: Database,
  queries: TermQueries,
  offset: number,
  limit: number,
): Promise<ArtistMatch[]> {
  const rows = await all(
    db,
    v.object({ ...artistRowSchema.entries, match_tier: int }),
    `WITH page AS (
       SELECT a.id, a.name, ${nameTier("s.rowid", "length(a.name)")} AS tier,
         (SELECT SUM(${tagTotal}) FROM tracks t${tagCountJoins} WHERE t.artist_id = a.id) AS popularity
       FROM search_names s JOIN artists a ON a.id = s.rowid / 8
       WHERE search_names MATCH ?1
       ORDER BY tier, popularity DESC NULLS LAST, a.name, a.id
       LIMIT ?4 OFFSET ?5
     )
     SELECT a.*, g.name AS genre_name, p.tier AS match_tier
     FROM page p JOIN artists a ON a.id = p.id JOIN genres g ON g.id = a.genre_id
     ORDER BY p.tier, p.popularity DESC NULLS LAST, p.name, p.id`,
    queries.names,
    queries.starting,
    queries.termLength,
    limit,
    offset,
  );
  return rows.map(({ match_tier, ...row }) => ({ row, tier: match_tier }));
}
