/**
 * What a person typed, made into full-text queries (docs/decisions/033-full-text-search.md). Pure:
 * the index's SQL is in origin/db/search-index.ts, the order of a search in origin/catalogue-search.ts.
 */

/** A word is whatever holds a letter or a digit; quotes, stars and lone punctuation are not words. */
const wordChar = /[\p{L}\p{N}]/u;

/** The words of a term, in order: whitespace-separated chunks holding a letter or a digit. */
export function termWords(term: string): string[] {
  return term
    .normalize("NFC")
    .split(/\s+/u)
    .filter((chunk) => wordChar.test(chunk));
}

/**
 * The FTS5 query of a term: every word a quoted string (its own quotes doubled), so `"`, `*`,
 * `AND`, `OR`, `NEAR`, `^` or a column name typed by a person are text, never syntax; all words
 * must match (FTS5's implicit AND); the last is a prefix (search as you type). Undefined when the
 * term has no word.
 */
export function ftsQuery(term: string): string | undefined {
  return queryOfWords(termWords(term).map((word) => [word]));
}

/**
 * The FTS5 query of words, each given as the words it may be (one: as typed; more: any of them,
 * an OR), quoted as ftsQuery says; all must match, the last is a prefix. Undefined for no word.
 * With an OR the words are joined by an explicit AND: FTS5 reads a parenthesised OR after an
 * implicit AND (`"a" ("b" OR "c")`) as a syntax error.
 */
function queryOfWords(words: readonly (readonly string[])[]): string | undefined {
  if (words.length === 0) return undefined;
  const loose = words.some((alternatives) => alternatives.length > 1);
  return words
    .map((alternatives, i) => {
      const star = i === words.length - 1 ? "*" : "";
      const quoted = alternatives.map((word) => `"${word.replaceAll('"', '""')}"${star}`);
      return quoted.length === 1 ? quoted[0] : `(${quoted.join(" OR ")})`;
    })
    .join(loose ? " AND " : " ");
}

/** What a search asks the indexes for a term (origin/db/search-index.ts songsFound, artistMatches). */
export type TermQueries = {
  /** Titles, names and album titles holding the term (search_names; `{artist}`: names only). */
  names: string;
  /** Those whose first word is the term's first (FTS5's initial token, `^`). */
  starting: string;
  /** Those that are the term, whole: its words without spaces, from the `whole` column's start. */
  whole: string;
  /** Lyric lines holding the term (search_lyrics). */
  lyrics: string;
  /** The length a title or name the term matches whole has. */
  termLength: number;
};

/**
 * The queries of a term for songs (any name, then lyrics) or for artists
 * (`"artist"`: artist names only); undefined when the term has no word.
 */
export function termQueries(term: string, column?: "artist"): TermQueries | undefined {
  const query = ftsQuery(term);
  if (query === undefined) return undefined;
  const columns = column ?? "title artist album";
  const words = termWords(term);
  return {
    names: `{${columns}} : (${query})`,
    starting: `{${columns}} : (^${query})`,
    whole: `{whole} : ^"${words.join("").replaceAll('"', '""')}"`,
    lyrics: query,
    termLength: words.join(" ").length,
  };
}

/** Case and diacritics folded, as the index's tokenizers fold them (remove_diacritics). */
export function foldWord(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The folded words of a title or name, split where the index's unicode61 tokenizer splits. */
export function nameWords(name: string): string[] {
  return foldWord(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * The forms a misspelt word is looked up under in the spelling variants (origin/db/search-index.ts):
 * itself and each form with one letter deleted, two from eight letters on (allowedEdits). A catalogue word is
 * filed the same way, so one lookup finds the words one insertion, deletion, substitution or swap
 * of neighbours away (SymSpell), two from eight letters. Undefined for a word too short to correct.
 */
export function spellingForms(word: string): string[] | undefined {
  const typed = foldWord(word);
  if ([...typed].length < minTypoWordLength) return undefined;
  const forms = new Set([typed]);
  let edge = [typed];
  for (let edits = 0; edits < allowedEdits([...typed].length); edits++) {
    edge = edge.flatMap(deletions);
    for (const form of edge) forms.add(form);
  }
  return [...forms];
}

/** The word with each one of its letters left out, by code point. */
function deletions(word: string): string[] {
  const letters = [...word];
  return letters.map((_, at) => [...letters.slice(0, at), ...letters.slice(at + 1)].join(""));
}

/** Shorter words are not corrected: one edit in three letters is another word, not a typo. */
export const minTypoWordLength = 4;

/** The shortest catalogue word a typo is corrected to: a four-letter typo may be a three-letter word with a letter too many. */
export const shortestSpellingWord = minTypoWordLength - 1;

/** Words this long or longer allow two edits. */
export const twoEditsFrom = 8;

/** Edits allowed in a word of this length: one, two from eight letters on. */
export function allowedEdits(length: number): number {
  return length >= twoEditsFrom ? 2 : 1;
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours (the usual typos) each cost one. By code point, so a letter outside the BMP is one.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/**
 * The catalogue's words within `word`'s allowed edits, from the words of `candidates` (titles and
 * names, or lyric words), the closest first, the first found first within a distance (the
 * candidates come commonest first). Undefined when the word is there as typed or too short to correct.
 */
export function closeWords(word: string, candidates: readonly string[]): string[] | undefined {
  const typed = foldWord(word);
  if (typed.length < minTypoWordLength) return undefined;
  const limit = allowedEdits(typed.length);
  const close: { word: string; distance: number }[] = [];
  for (const candidate of candidates) {
    for (const known of nameWords(candidate)) {
      if (Math.abs(known.length - typed.length) > limit) continue;
      const distance = editDistance(typed, known);
      if (distance === 0) return undefined;
      if (distance <= limit && !close.some((found) => found.word === known))
        close.push({ word: known, distance });
    }
  }
  // A stable sort: within a distance, the candidates' order.
  return close.sort((a, b) => a.distance - b.distance).map((found) => found.word);
}

/**
 * The catalogue's word closest to `word` within its allowed edits (closeWords), the first found
 * winning a tie. Undefined when none is close enough, or when the word is there as typed.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  return closeWords(word, candidates)?.[0];
}

/** A word of a term the spelling fallback looks up: its place among the term's words, and its forms (spellingForms). */
export type CorrectableWord = { at: number; forms: string[] };

/** The words of a term long enough to correct, each with the forms it is looked up under. */
export function correctableWords(term: string): CorrectableWord[] {
  return termWords(term).flatMap((word, at) => {
    const forms = spellingForms(word);
    return forms === undefined ? [] : [{ at, forms }];
  });
}

/**
 * The term with each correctable word replaced by the closest of its candidates (`candidates[i]`
 * for `correctable[i]`: words of one index's vocabulary, the commonest first; closestWord), its
 * other words as typed, so they must still match; undefined when no word changes.
 */
export function correctedWords(
  term: string,
  correctable: readonly CorrectableWord[],
  candidates: readonly (readonly string[])[],
): string | undefined {
  const words = termWords(term);
  const corrected = [...words];
  for (const [i, { at }] of correctable.entries()) {
    corrected[at] = closestWord(words[at] ?? "", candidates[i] ?? []) ?? words[at] ?? "";
  }
  return corrected.some((word, i) => word !== words[i]) ? corrected.join(" ") : undefined;
}

/**
 * The lyric-line query of a term that found nothing as typed: each correctable word matched
 * loosely, by any of its candidates within its allowed edits (closeWords; `candidates[i]` for
 * `correctable[i]`, words of the lyrics), its other words as typed; all must match, so the line's
 * other words decide between close words ("watr": "war" or "water"), where the closest alone is
 * often a tie. Undefined when no word has a close word.
 */
export function looseQuery(
  term: string,
  correctable: readonly CorrectableWord[],
  candidates: readonly (readonly string[])[],
): string | undefined {
  const words: string[][] = termWords(term).map((word) => [word]);
  let loosened = false;
  for (const [i, { at }] of correctable.entries()) {
    const close = closeWords(words[at]?.[0] ?? "", candidates[i] ?? []);
    if (close === undefined || close.length === 0) continue;
    words[at] = close;
    loosened = true;
  }
  return loosened ? queryOfWords(words) : undefined;
}
