import * as db from "./db";
import {
  closestWord,
  ftsQuery,
  minTypoWordLength,
  termLength,
  termWords,
  trigramQuery,
} from "./search-terms";

// The catalogue's search, shared by the catalogue API's search and the search service: which
// songs and artists match a term, and how well (docs/decisions/033-full-text-search.md).

/** A page of a search: the rows asked for, and whether any follow. */
export type SearchPage<T> = { hits: T[]; more: boolean };

/** Part of a matched lyric line: the words the term matched are `matched`. */
export type LinePart = { text: string; matched: boolean };

/** The lyric line a song was found by: its index, when it is sung (synced lyrics), its parts. */
export type LyricLineMatch = { index: number; offsetMs: number | undefined; parts: LinePart[] };

export type SongHit = { row: db.TrackRow; tier: number; lyric: LyricLineMatch | undefined };
export type ArtistHit = { row: db.ArtistRow; tier: number };

/** Titles and names read per misspelt word: enough to hold the word meant, few enough to compare. */
const spellingCandidateCount = 24;

/** Songs matching the term, best first, `limit` from `offset`; a misspelt term is corrected. */
export async function searchSongs(
  d1: D1Database,
  term: string,
  offset: number,
  limit: number,
): Promise<SearchPage<SongHit>> {
  const found = await songsFor(d1, term, offset, limit);
  if (found.hits.length > 0) return found;
  const corrected = await correctedTerm(d1, term);
  return corrected === undefined ? found : songsFor(d1, corrected, offset, limit);
}

/** Artists whose name matches the term, best first; a misspelt term is corrected. */
export async function searchArtists(
  d1: D1Database,
  term: string,
  offset: number,
  limit: number,
): Promise<SearchPage<ArtistHit>> {
  const found = await artistsFor(d1, term, offset, limit);
  if (found.hits.length > 0) return found;
  const corrected = await correctedTerm(d1, term);
  return corrected === undefined ? found : artistsFor(d1, corrected, offset, limit);
}

/** Whether the top result is the artist: a name matched at least as well as the song's title wins. */
export function artistIsTopResult(artist: ArtistHit | undefined, song: SongHit | undefined): boolean {
  return artist !== undefined && (song === undefined || artist.tier <= song.tier);
}

async function songsFor(d1: D1Database, term: string, offset: number, limit: number) {
  const query = ftsQuery(term);
  if (query === undefined) return { hits: [], more: false };
  const matches = await db.songMatches(d1, query, termLength(term), offset, limit + 1);
  const page = matches.slice(0, limit);
  const lineIds = page.flatMap((match) => (match.lineId === null ? [] : [match.lineId]));
  // A second round trip only for songs found by their lyrics: the matched line, marked.
  const lines = await db.lyricMatches(d1, ftsQuery(term, "lyric") ?? query, lineIds);
  const lineById = new Map(lines.map((line) => [line.line_id, line]));
  const hits = page.map((match): SongHit => {
    const line = match.lineId === null ? undefined : lineById.get(match.lineId);
    return { row: match.row, tier: match.tier, lyric: line && lyricLineOf(line) };
  });
  return { hits, more: matches.length > limit };
}

async function artistsFor(d1: D1Database, term: string, offset: number, limit: number) {
  const query = ftsQuery(term, "artist");
  if (query === undefined) return { hits: [], more: false };
  const matches = await db.artistMatches(d1, query, termLength(term), offset, limit + 1);
  return { hits: matches.slice(0, limit), more: matches.length > limit };
}

/**
 * The term with each misspelt word replaced by the closest word of a title or name (one edit, two
 * from eight letters), when nothing in the index matches it as typed (an artist search finding no
 * name, while a lyric line holds the term, is not a misspelling); undefined when no word changes.
 */
async function correctedTerm(d1: D1Database, term: string): Promise<string | undefined> {
  const query = ftsQuery(term);
  if (query === undefined || (await db.anyMatch(d1, query))) return undefined;
  const words = termWords(term);
  const misspelt = words.flatMap((word, at) => {
    const grams = word.length >= minTypoWordLength ? trigramQuery(word) : undefined;
    return grams === undefined ? [] : [{ at, grams }];
  });
  const candidates = await db.spellingCandidates(
    d1,
    misspelt.map((word) => word.grams),
    spellingCandidateCount,
  );
  const corrected = [...words];
  for (const [i, { at }] of misspelt.entries()) {
    corrected[at] = closestWord(words[at] ?? "", candidates[i] ?? []) ?? words[at] ?? "";
  }
  return corrected.some((word, i) => word !== words[i]) ? corrected.join(" ") : undefined;
}

/** A lyric line as the index marked it (char(1) … char(2) around each matched word), in parts. */
function lyricLineOf(line: db.LyricMatch): LyricLineMatch {
  const parts: LinePart[] = [];
  const pieces = line.marked
    .replaceAll(db.highlightMarks.end, db.highlightMarks.start)
    .split(db.highlightMarks.start);
  for (const [i, piece] of pieces.entries()) {
    if (piece !== "") parts.push({ text: piece, matched: i % 2 === 1 });
  }
  return { index: Math.floor(line.line_id / 8) % 1024, offsetMs: line.offset_ms ?? undefined, parts };
}
