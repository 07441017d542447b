import { expect, test } from "vitest";
import { lyricExcerpt, lyricSampleLength, lyricSnippetLength } from "#rules/content-rules.ts";

test("spec 001 §9: sample 150, snippet 100", () => {
  expect([lyricSampleLength, lyricSnippetLength]).toEqual([150, 100]);
});

test.each([
  { name: "short lyrics stay whole", lines: ["One line", "two"], max: 100, expected: "One line / two" },
  { name: "blank lines are left out", lines: ["a", "  ", "b "], max: 100, expected: "a / b" },
  {
    name: "cut at the last whole word, … inside the limit",
    lines: ["aaa bbb ccc ddd"],
    max: 10,
    expected: "aaa bbb…",
  },
  { name: "no separator left dangling", lines: ["aaaa", "bbbb cccc"], max: 8, expected: "aaaa…" },
  { name: "one long word is cut inside it", lines: ["x".repeat(30)], max: 10, expected: `${"x".repeat(9)}…` },
])("$name", ({ lines, max, expected }) => {
  const excerpt = lyricExcerpt(lines, max);
  expect(excerpt).toBe(expected);
  expect(excerpt.length).toBeLessThanOrEqual(max);
});
