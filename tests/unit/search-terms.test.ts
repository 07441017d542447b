import { describe, expect, test } from "vitest";
import {
  closestWord,
  editDistance,
  foldWord,
  ftsQuery,
  termLength,
  trigramQuery,
} from "../../origin/search-terms";

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

  test("kept to a column", () => {
    expect(ftsQuery("beyon", "artist")).toBe('{artist} : ("beyon"*)');
  });

  test("the length an exact title is compared with: the words one space apart", () => {
    expect(termLength("  The   Project ")).toBe("The Project".length);
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

  test("trigrams of a word, folded; none for a short word", () => {
    expect(trigramQuery("Beyoncé")).toBe('"bey" OR "eyo" OR "yon" OR "onc" OR "nce"');
    expect(trigramQuery("abc")).toBeUndefined();
  });
});
