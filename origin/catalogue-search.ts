import type { ArtistRow } from "#origin/db/artists.ts";
import type { Database } from "#origin/db/rows.ts";
import {
  anyMatch,
  artistMatches,
  highlightMarks,
  type LyricMatch,
  lyricMatches,
  type SongMatch,
  songsFound,
  spellingCandidates,
} from "#origin/db/search-index.ts";
import type { TrackRow } from "#origin/db/tracks.ts";
import { correctableWords, correctedWords, looseQuery, type TermQueries, termQueries } from "./search-terms";

// The catalogue's search, shared by the catalogue API's search and the search service: which
// songs and artists match a term, and how well (docs/decisions/033-full-text-search.md).

/** A page of a search: the rows asked for, and whether any follow. */
export type SearchPage<T> = { hits: T[]; more: boolean };

/** Part of a matched lyric line: the words the term matched are `matched`. */
export type LinePart = { text: string; matched: boolean };

/** The lyric line a song was found by: its index, when it is sung (synced lyrics), its parts. */
export type LyricLineMatch = { index: number; offsetMs: number | undefined; parts: LinePart[] };

export type SongHit = { row: TrackRow; tier: number; lyric: LyricLineMatch | undefined };
export type ArtistHit = { row: ArtistRow; tier: number };

/** Words read per misspelt word: enough to hold the word meant, few enough to compare. */
const spellingCandidateCount = 24;

/**
 * A term that found nothing as typed, corrected against each index's own words (decision 033,
 * "Spelling fallback"): `names`, the term with its misspelt words replaced by the closest words of
 * titles, artist names and album titles; `lyricsQuery`, the lyric lines' query with each matched
 * loosely by the close words of the lyrics. Undefined where no word has one.
 */
export type CorrectedTerm = { names: string | undefined; lyricsQuery: string | undefined };

/**
 * What a person searched for, against one catalogue: its correction, when the term finds nothing
 * as typed, is looked up once for the songs and the artists of the same answer.
 */
export class SearchTerm {
  #corrected: Promise<CorrectedTerm> | undefined;
  #matchedAsTyped: Promise<boolean> | undefined;

  constructor(
    readonly d1: Database,
    readonly text: string,
  ) {}

  /**
   * Whether anything in the indexes holds the term as typed: told by the songs' search, which reads
   * it in its own round trip, when that started first (the search call starts it before the
   * artists'); else asked.
   */
  matchedAsTyped(): Promise<boolean> {
    this.#matchedAsTyped ??= matchesAsTyped(this.d1, this.text);
    return this.#matchedAsTyped;
  }

  /** What the songs' search found out (see matchedAsTyped); a failure is the search's to report. */
  tellMatchedAsTyped(matched: Promise<boolean>) {
    matched.catch(() => undefined);
    this.#matchedAsTyped ??= matched;
  }

  /** The term with its misspelt words corrected (see correctedTerm). */
  corrected(): Promise<CorrectedTerm> {
    this.#corrected ??= correctedTerm(this.d1, this.text, this.matchedAsTyped());
    return this.#corrected;
  }
}

/** Songs matching the term, best first, `limit` from `offset`; a misspelt term is corrected. */
export async function searchSongs(
  term: SearchTerm,
  offset: number,
  limit: number,
): Promise<SearchPage<SongHit>> {
  const asTyped = songsFor(term.d1, term.text, offset, limit);
  term.tellMatchedAsTyped(asTyped.then((found) => found.anyMatch));
  const found = await asTyped;
  if (found.hits.length > 0) return found;
  const { names, lyricsQuery } = await term.corrected();
  if (names === undefined && lyricsQuery === undefined) return found;
  return songsFor(term.d1, names ?? term.text, offset, limit, lyricsQuery);
}

/** Artists whose name matches the term, best first; a misspelt term is corrected. */
export async function searchArtists(
  term: SearchTerm,
  offset: number,
  limit: number,
): Promise<SearchPage<ArtistHit>> {
  const found = await artistsFor(term.d1, term.text, offset, limit);
  if (found.hits.length > 0) return found;
  const { names } = await term.corrected();
  return names === undefined ? found : artistsFor(term.d1, names, offset, limit);
}

/** Whether the top result is the artist: a name matched at least as well as the song's title wins. */
export function artistIsTopResult(artist: ArtistHit | undefined, song: SongHit | undefined): boolean {
  return artist !== undefined && (song === undefined || artist.tier <= song.tier);
}

/**
 * Songs found by a name first, then by a lyric line (the term's, or `lyricsQuery`, the misspelt
 * term's loose one): the lyrics are read only when the names do not fill the page (a common word
 * is in far more lines than names); one round trip (songsFound), which also says whether anything
 * holds the term (`anyMatch`).
 */
async function songsFor(
  d1: Database,
  term: string,
  offset: number,
  limit: number,
  lyricsQuery?: string,
): Promise<SearchPage<SongHit> & { anyMatch: boolean }> {
  const ofTerm = termQueries(term);
  if (ofTerm === undefined) return { hits: [], more: false, anyMatch: false };
  const queries = { ...ofTerm, lyrics: lyricsQuery ?? ofTerm.lyrics };
  const { matches, anyMatch } = await songsFound(d1, queries, offset + limit + 1);
  const page = matches.slice(offset, offset + limit);
  return {
    hits: await withLyricLines(d1, queries, page),
    more: matches.length > offset + limit,
    anyMatch,
  };
}

/** The songs of a page, each found by its lyrics with its matched line, marked (one more round trip, only then). */
async function withLyricLines(d1: Database, queries: TermQueries, page: SongMatch[]): Promise<SongHit[]> {
  const lineIds = page.flatMap((match) => (match.lineId === null ? [] : [match.lineId]));
  const lines = await lyricMatches(d1, queries.lyrics, lineIds);
  const lineById = new Map(lines.map((line) => [line.line_id, line]));
  return page.map((match): SongHit => {
    const line = match.lineId === null ? undefined : lineById.get(match.lineId);
    return { row: match.row, tier: match.tier, lyric: line && lyricLineOf(line) };
  });
}

async function artistsFor(d1: Database, term: string, offset: number, limit: number) {
  const queries = termQueries(term, "artist");
  if (queries === undefined) return { hits: [], more: false };
  const matches = await artistMatches(d1, queries, offset, limit + 1);
  return { hits: matches.slice(0, limit), more: matches.length > limit };
}

/**
 * The term with each misspelt word replaced by the closest word of a title or name (one edit, two
 * from eight letters) for the names, and matched by any close word of a lyric line for the lyrics,
 * when nothing in the indexes matches it as typed (an artist search finding no name, while a lyric
 * line holds the term, is not a misspelling). Each index is searched with the words it holds: a
 * word only a line holds ("dust") is not made a name's ("just") for the lyrics, and a name's typo
 * is not made a commoner word of the lyrics.
 */
async function correctedTerm(
  d1: Database,
  term: string,
  matchedAsTyped: Promise<boolean>,
): Promise<CorrectedTerm> {
  if (await matchedAsTyped) return { names: undefined, lyricsQuery: undefined };
  const correctable = correctableWords(term);
  const candidates = await spellingCandidates(
    d1,
    correctable.map((word) => word.forms),
    spellingCandidateCount,
  );
  return {
    names: correctedWords(
      term,
      correctable,
      candidates.map((words) => words.names),
    ),
    lyricsQuery: looseQuery(
      term,
      correctable,
      candidates.map((words) => words.lyrics),
    ),
  };
}

/** Whether anything in the indexes holds the term as typed (false for a term of no word). */
async function matchesAsTyped(d1: Database, term: string): Promise<boolean> {
  const queries = termQueries(term);
  return queries !== undefined && (await anyMatch(d1, queries));
}

/** A lyric line as the index marked it (char(1) … char(2) around each matched word), in parts. */
function lyricLineOf(line: LyricMatch): LyricLineMatch {
  const parts: LinePart[] = [];
  const pieces = line.marked.replaceAll(highlightMarks.end, highlightMarks.start).split(highlightMarks.start);
  for (const [i, piece] of pieces.entries()) {
    if (piece !== "") parts.push({ text: piece, matched: i % 2 === 1 });
  }
  return { index: Math.floor(line.line_id / 8) % 1024, offsetMs: line.offset_ms ?? undefined, parts };
}
