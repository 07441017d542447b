/**
 * The search scale bench's worker (bench/search-scale.ts), run in workerd so that the searches are
 * the origin's own code against D1 as deployed: the schema and the catalogue seed loaded through
 * the binding, the catalogue grown k times, and each query timed here (no HTTP between the clock
 * and the search).
 */
import { seededRandom } from "#origin/catalog/audio-degrade.ts";
import { SearchTerm, searchArtists, searchSongs } from "#origin/catalogue-search.ts";
import { refreshSpellingVariants, songsFound } from "#origin/db/search-index.ts";
import { termQueries } from "#origin/search-terms.ts";

type Env = { DB: D1Database };

/** Statements posted as JSON, run in batches (a batch is a transaction). */
async function runAll(db: D1Database, statements: string[]) {
  for (let at = 0; at < statements.length; at += 50) {
    await db.batch(statements.slice(at, at + 50).map((sql) => db.prepare(sql)));
  }
}

/** Index into a list by a Zipf-like law (rank r drawn ∝ 1/r): a few words common, most rare. */
function zipf(random: () => number, size: number): number {
  return Math.min(size - 1, Math.floor(size ** random()) - 1);
}

const syllables = [
  "ka",
  "ri",
  "lo",
  "men",
  "sa",
  "tor",
  "vel",
  "an",
  "mi",
  "dra",
  "ne",
  "sol",
  "ber",
  "ta",
  "qui",
  "ro",
];

/** A made-up word of 2–4 syllables: the vocabulary grows with the catalogue, as a real one does. */
function madeUpWord(random: () => number): string {
  const count = 2 + Math.floor(random() * 3);
  let word = "";
  for (let i = 0; i < count; i++) word += syllables[Math.floor(random() * syllables.length)];
  return word;
}

/**
 * Grows the catalogue from `from` to k times its songs: copy c of each real song gets key + c * 10^9, a title
 * of 1–4 words drawn Zipf-like from the catalogue's title words and made-up words, an artist of
 * its own among k times the real artists (a first name and a surname drawn the same way), the
 * real song's album, its lyrics with the lines' words shuffled, and a tag count drawn Zipf-like.
 */
async function grow(db: D1Database, from: number, k: number) {
  const random = seededRandom(47 + from);
  const { results: tracks } = await db
    .prepare("SELECT key, title, artist_id FROM tracks WHERE key < 1000000000")
    .all<{ key: number; title: string; artist_id: number }>();
  const { results: artists } = await db
    .prepare("SELECT id, name FROM artists WHERE id < 1000000000")
    .all<{ id: number; name: string }>();
  const { results: lyrics } = await db
    .prepare("SELECT track_key, lines FROM lyrics WHERE track_key < 1000000000")
    .all<{ track_key: number; lines: string }>();
  const titleWords = tracks.flatMap((t) => t.title.split(/\s+/));
  const nameWords = artists.flatMap((a) => a.name.split(/\s+/));
  const vocabulary = [
    ...titleWords,
    ...Array.from({ length: titleWords.length * 4 }, () => madeUpWord(random)),
  ];
  const names = [...nameWords, ...Array.from({ length: 400 }, () => madeUpWord(random))];
  const pick = (list: readonly string[]) => list[zipf(random, list.length)] ?? "";
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

  for (let c = from; c < k; c++) {
    const offset = c * 1_000_000_000;
    const artistRows = artists.map((a) => [
      a.id + offset,
      String(a.id + offset),
      `${capital(pick(names))} ${capital(pick(names))}`,
      a.id,
    ]);
    const trackRows = tracks.map((t) => {
      const words = Array.from({ length: 1 + Math.floor(random() * 4) }, () => capital(pick(vocabulary)));
      return [t.key + offset, String(t.key + offset), words.join(" "), t.artist_id + offset, t.key];
    });
    const lyricRows = lyrics.map((l) => {
      const lines = (JSON.parse(l.lines) as string[]).map((line) =>
        line
          .split(" ")
          .sort(() => random() - 0.5)
          .join(" "),
      );
      return [l.track_key + offset, `bench-${l.track_key + offset}`, JSON.stringify(lines)];
    });
    const counts = tracks.map((t) => [t.key + offset, Math.floor(5000 / (1 + zipf(random, 5000)))]);
    await db.batch([
      db
        .prepare(
          `INSERT INTO artists (id, adamid, name, alias, genre_id, bio, origin, born_or_formed, art_id, bkgcolor)
           SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), 'bench',
             a.genre_id, '', NULL, NULL, a.art_id, a.bkgcolor
           FROM json_each(?1) j JOIN artists a ON a.id = json_extract(j.value, '$[3]')`,
        )
        .bind(JSON.stringify(artistRows)),
      db
        .prepare(
          `INSERT INTO tracks SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'),
             'bench', json_extract(j.value, '$[3]'), t.album_id, t.track_number, t.genre_id, t.release_date,
             t.release_precision, t.added_date, t.duration_ms, t.licence, t.copyright, t.source_package,
             t.binary_package, t.package_version, t.source_file, t.comment, t.bpm, t.art_id, t.bkgcolor, t.preview_ms
           FROM json_each(?1) j JOIN tracks t ON t.key = json_extract(j.value, '$[4]')`,
        )
        .bind(JSON.stringify(trackRows)),
      db
        .prepare(
          `INSERT INTO lyrics (track_key, lyrics_id, provider, footer, lines, synced)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), 'bench', '', json_extract(value, '$[2]'), '[]'
           FROM json_each(?1)`,
        )
        .bind(JSON.stringify(lyricRows)),
      db
        .prepare(
          "INSERT INTO tag_counts (track_key, total) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1)",
        )
        .bind(JSON.stringify(counts)),
    ]);
  }
  // What the scheduled run does after the names changed (origin/scheduled.ts).
  await refreshSpellingVariants(db);
  const { results } = await db
    .prepare(
      "SELECT (SELECT COUNT(*) FROM tracks) AS tracks, (SELECT COUNT(*) FROM search_names) + (SELECT COUNT(*) FROM search_lyrics) AS indexed",
    )
    .all<{ tracks: number; indexed: number }>();
  return results[0];
}

/** The search call (spec 002 §7 GET search) as the origin answers it: songs and artists, 3 of each. */
async function searchCall(db: D1Database, term: string) {
  const searched = new SearchTerm(db, term);
  const [songs, artists] = await Promise.all([searchSongs(searched, 0, 3), searchArtists(searched, 0, 3)]);
  return songs.hits.length + artists.hits.length;
}

/** The query plan of the songs query (by name, then lyrics) for a term, recorded from the origin's own statement. */
async function songsPlan(db: D1Database, term: string): Promise<string[]> {
  const prepared: { sql: string; params: unknown[] }[] = [];
  const recording = {
    prepare: (sql: string) => ({
      bind: (...params: unknown[]) => {
        prepared.push({ sql, params });
        return db.prepare(sql).bind(...params);
      },
    }),
  } as unknown as D1Database;
  const queries = termQueries(term);
  if (!queries) return [];
  await songsFound(recording, queries, 4);
  const plans: string[] = [];
  for (const statement of prepared) {
    const { results } = await db
      .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .bind(...statement.params)
      .all<{ detail: string }>();
    plans.push(...results.map((row) => row.detail), "");
  }
  return plans;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    switch (url.pathname) {
      case "/statements":
        await runAll(env.DB, (await request.json()) as string[]);
        return Response.json({ ok: true });
      case "/grow":
        return Response.json(
          await grow(env.DB, Number(url.searchParams.get("from")), Number(url.searchParams.get("k"))),
        );
      case "/time": {
        const { terms, runs } = (await request.json()) as { terms: string[]; runs: number };
        const times: number[] = [];
        const found: number[] = [];
        for (let run = 0; run < runs; run++) {
          for (const term of terms) {
            // Date.now() moves across D1 calls in workerd (the I/O a search waits for).
            const start = Date.now();
            const count = await searchCall(env.DB, term);
            times.push(Date.now() - start);
            if (run === 0) found.push(count);
          }
        }
        return Response.json({ times, found });
      }
      case "/floor": {
        // One D1 round trip that reads nothing: what any query costs here before it reads.
        const times: number[] = [];
        for (let run = 0; run < Number(url.searchParams.get("runs")); run++) {
          const start = Date.now();
          await env.DB.prepare("SELECT 1").first();
          times.push(Date.now() - start);
        }
        return Response.json(times);
      }
      case "/plan":
        return Response.json(await songsPlan(env.DB, url.searchParams.get("term") ?? ""));
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
