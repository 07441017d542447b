import { describe, expect, test } from "vitest";
import {
  closestWord,
  closeWords,
  correctableWords,
  correctedWords,
  editDistance,
  foldWord,
  ftsQuery,
  looseQuery,
  spellingForms,
  termQueries,
} from "#origin/search-terms.ts";

describe("ftsQuery: what a person typed is text, never FTS5 syntax", () => {
  test.each([
    ["wanderer", '"wanderer"*'],
    ["  still   another wand ", '"still" "another" "wand"*'],
    ['say "hello"', '"say" """hello"""*'],
    ["wanderer OR project", '"wanderer" "OR" "project"*'],
    ["NEAR(a b)", '"NEAR(a" "b)"*'],
    ["title: x", '"title:" "x"*'],
    ["^the * -", '"^the"*'],
    ["Земф", '"Земф"*'],
    ['"', undefined],
    ["* - !", undefined],
  ])("%j → %j", (term, query) => {
    expect(ftsQuery(term)).toBe(query);
  });

  test("the queries of a term: names, names starting with it, lyric lines; artists kept to their column", () => {
    expect(termQueries("  The   Project ")).toEqual({
      names: '{title artist album} : ("The" "Project"*)',
      starting: '{title artist album} : (^"The" "Project"*)',
      whole: '{whole} : ^"TheProject"',
      lyrics: '"The" "Project"*',
      // The length an exact title is compared with: the words one space apart.
      termLength: "The Project".length,
    });
    expect(termQueries("beyon", "artist")).toMatchObject({
      names: '{artist} : ("beyon"*)',
      starting: '{artist} : (^"beyon"*)',
    });
    expect(termQueries('say "hi" ^x')?.whole).toBe('{whole} : ^"say""hi""^x"');
    expect(termQueries(" * ")).toBeUndefined();
  });
});

describe("the spelling fallback", () => {
  test.each([
    ["kitten", "sitting", 3],
    ["wanderer", "wandrer", 1],
    ["laurelmor", "laurelmoor", 1],
    ["underground", "undergruond", 1],
    ["ab", "ba", 1],
    ["", "abc", 3],
  ])("editDistance(%j, %j) = %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });

  test.each([
    ["Beyonse", ["Beyoncé", "Crazy in Tunewave"], "beyonce"],
    ["Laurelmoor", ["Siege of Laurelmor"], "laurelmor"],
    ["wandererr", ["Still Another Wanderer"], "wanderer"],
    // Two edits in a long word, one in a short one.
    ["undrgruond", ["Underground"], "underground"],
    ["wndrer", ["Still Another Wanderer"], undefined],
    // Present as typed: nothing to correct. Too short to correct.
    ["siege", ["Siege of Laurelmor"], undefined],
    ["sage", ["Siege of Laurelmor"], undefined],
    ["the", ["They"], undefined],
  ])("closestWord(%j) → %j", (word, candidates, corrected) => {
    expect(closestWord(word, candidates)).toBe(corrected);
  });

  test("folding as the index folds: case and diacritics", () => {
    expect(foldWord("BEYONCÉ")).toBe("beyonce");
    expect(foldWord("Øre")).toBe("øre");
    expect(foldWord("Земфира")).toBe("земфира");
  });

  test("the forms a typo is looked up under: folded, itself and its deletions; none for a short word", () => {
    expect(spellingForms("Beyonsé")).toEqual([
      "beyonse",
      "eyonse",
      "byonse",
      "beonse",
      "beynse",
      "beyose",
      "beyone",
      "beyons",
    ]);
    expect(spellingForms("abc")).toBeUndefined();
    // Two deletions from eight letters: every form with two letters left out is there too.
    expect(spellingForms("undrgruond")).toContain("undgruond".replace("g", ""));
    expect(spellingForms("земфирра")).toContain("земфира");
  });

  // As the spelling table files a catalogue word (origin/db/search-index.ts rebuildSpellingVariants):
  // the forms of spellingForms, by the word's length. A typo finds the word when one of its forms is filed there.
  const filedForms = (word: string) => spellingForms(word) ?? [];
  test.each([
    ["beyonse", "beyonce", true], // a substitution
    ["wandrer", "wanderer", true], // a letter missing
    ["laurelmoor", "laurelmor", true], // a letter too many
    ["undergruond", "underground", true], // neighbours swapped
    ["projetc", "project", true],
    ["undrgruond", "underground", true], // two edits in a long word: a missing letter and a swap
    ["stil", "still", true],
    ["siegee", "siege", true],
    ["colapse", "collapse", true],
    ["wndrr", "wanderer", false], // three edits (closestWord then holds a short word to one)
    ["zzqxv", "wanderer", false],
  ])("the typo %j is looked up where %j is filed: %s", (typo, word, found) => {
    const forms = new Set(filedForms(word));
    expect((spellingForms(typo) ?? []).some((form) => forms.has(form))).toBe(found);
  });

  // Each correctable word's candidates from one index (origin/db/search-index.ts spellingCandidates),
  // the commonest first.
  test.each<[string, string[][], string | undefined]>([
    ["Stil Another Wandrer", [["still"], ["another"], ["wanderer", "wander"]], "still Another wanderer"],
    ["siege of laurelmr", [["siege"], ["laurelmor"]], "siege of laurelmor"],
    // Against the names' words a word only a lyric line holds becomes a name's: why lines are not corrected so.
    ["dust of the suthern roads", [["just"], ["southern"], []], "just of the southern roads"],
    ["zzqxv", [[]], undefined],
    ["of the", [], undefined],
  ])("the names' correction: correctedWords(%j, %j) → %j", (term, candidates, corrected) => {
    const correctable = correctableWords(term);
    expect(correctable).toHaveLength(candidates.length);
    expect(correctedWords(term, correctable, candidates)).toBe(corrected);
  });

  test.each<[string, string[][], string | undefined]>([
    // The misspelt word by any close word of the lyrics, the last one a prefix; the others as typed, all must match.
    ["village sleps", [["village"], ["sleeps", "sleep", "steps"]], '"village" AND ("sleeps"* OR "steps"*)'],
    [
      "he asks for watr",
      [["asks"], ["war", "water", "what"]],
      '"he" AND "asks" AND "for" AND ("war"* OR "water"*)',
    ],
    [
      "dust of the suthern roads",
      [["dust"], ["southern"], ["roads", "loads"]],
      '"dust" "of" "the" "southern" "roads"*',
    ],
    // Nothing close to the typo: no query, rather than a line without the word.
    ["village zzqxv", [["village"], []], undefined],
    ["village sleeps", [["village"], ["sleeps"]], undefined],
  ])("the lyrics' loose query: looseQuery(%j, %j) → %j", (term, candidates, query) => {
    const correctable = correctableWords(term);
    expect(correctable).toHaveLength(candidates.length);
    expect(looseQuery(term, correctable, candidates)).toBe(query);
  });

  test.each<[string, string[], string[] | undefined]>([
    ["watr", ["war", "water", "what", "wanderer"], ["war", "water"]],
    // Closest first, then the candidates' order.
    ["sleps", ["sleep", "steps", "sleeps"], ["steps", "sleeps"]],
    ["wandererr", ["wander", "wanderer"], ["wanderer"]],
    ["water", ["war", "water"], undefined],
    ["war", ["water"], undefined],
  ])("closeWords(%j, %j) → %j", (word, candidates, close) => {
    expect(closeWords(word, candidates)).toEqual(close);
  });

  test("the words long enough to correct, by their place in the term, with their forms", () => {
    expect(correctableWords("dust of the suthern").map(({ at, forms }) => [at, forms[0]])).toEqual([
      [0, "dust"],
      [3, "suthern"],
    ]);
  });
});
