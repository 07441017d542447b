import { expect, test } from "vitest";
import { timeLyrics } from "#origin/catalog/lyrics.ts";
import {
  artworkWidths,
  cityScore,
  coloursOf,
  discoveryScore,
  hash32,
  rankEntries,
  slugify,
  unitHash,
} from "#origin/catalog-rules.ts";
import { contrastRatio, darkenForWhiteText, hexToRgb, isNewRelease, rgbToHex } from "#rules/content-rules.ts";

test.each([
  ["Journey's End", "journeys-end"],
  ["Over the Northern Mountains", "over-the-northern-mountains"],
  ["Joseph G. Toscano (Zhaytee)", "joseph-g-toscano-zhaytee"],
  ["Menu Theme - Enhanced", "menu-theme-enhanced"],
  ["Åland Café", "aland-cafe"],
  ["  --  ", "-"],
])("slugify(%j) is %j", (title, alias) => {
  expect(slugify(title)).toBe(alias);
});

const now = new Date("2025-06-30T12:00:00Z");
test.each([
  ["2025-06-30", true],
  ["2025-04-01", true], // 90 days ago, counted in whole days
  ["2025-03-31", false],
  ["2025-07-15", false], // announced for a later date
  ["2007-01-01", false],
  ["not a date", false],
])("released %s: new release %s", (date, expected) => {
  expect(isNewRelease(date, now)).toBe(expected);
});

test("the artwork widths are the spec's track, default and catalogue sizes", () => {
  expect(artworkWidths).toEqual([75, 150, 200, 225, 300, 375, 400, 600, 800]);
});

test.each([
  ["#ffffff", "#000000", 21],
  ["#ffffff", "#ffffff", 1],
  ["#767676", "#ffffff", 4.54],
])("contrast of %s and %s is %d", (a, b, ratio) => {
  expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
});

test.each(["#ffffff", "#ffff00", "#ff0000", "#7a7a7a", "#66ccff"])(
  "%s is darkened in 10% steps just until white text reaches 4.5",
  (colour) => {
    const dark = darkenForWhiteText(colour);
    expect(contrastRatio(dark, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    // One step less would not have been enough.
    const lighter = rgbToHex(hexToRgb(dark).map((c) => c / 0.9) as [number, number, number]);
    expect(contrastRatio(lighter, "#ffffff")).toBeLessThan(4.5);
  },
);

test.each(["#3366ff", "#121212", "#000000"])(
  "%s already has contrast 4.5 with white and is kept",
  (colour) => {
    expect(darkenForWhiteText(colour)).toBe(colour);
  },
);

test.each([
  ["#ffffff", { bkglight: true, bkgblack: false }],
  ["#000000", { bkglight: false, bkgblack: true }],
  ["#1a2b6c", { bkglight: false, bkgblack: false }],
])("colours of %s", (background, flags) => {
  const colours = coloursOf(background);
  expect(colours).toMatchObject({ ...flags, bkgcolor: background.slice(1) });
  expect(colours.colors.text).toBe(flags.bkglight ? "#111111" : "#ffffff");
  expect(colours.whiteContrast).toBeCloseTo(contrastRatio(background, "#ffffff"), 2);
});

test("ranking is by score, ties by track key", () => {
  const ranked = rankEntries([
    { trackKey: 3, score: 10 },
    { trackKey: 1, score: 10 },
    { trackKey: 2, score: 20 },
  ]);
  expect(ranked.map((e) => e.trackKey)).toEqual([2, 1, 3]);
});

test("seeded hashes are stable, spread, and differ by seed", () => {
  expect(hash32("track:1")).toBe(hash32("track:1"));
  expect(hash32("track:1")).not.toBe(hash32("track:2"));
  const values = Array.from({ length: 1000 }, (_, i) => unitHash(`x${i}`));
  expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...values)).toBeLessThan(1);
  const mean = values.reduce((s, x) => s + x, 0) / values.length;
  expect(mean).toBeGreaterThan(0.45);
  expect(mean).toBeLessThan(0.55);
});

test("a city score stays within 60% to 140% of the country count", () => {
  for (let key = 1; key < 200; key++) {
    const score = cityScore(1000, key, 2643743);
    expect(score).toBeGreaterThanOrEqual(600);
    expect(score).toBeLessThanOrEqual(1400);
  }
});

test.each([
  [100, 50, 500_000],
  [100, 0, 0],
  [0, 0, 0],
])("discovery score of %i tags, %i recent, is %i", (total, recent, score) => {
  expect(discoveryScore(total, recent)).toBe(score);
});

test("lyrics are timed evenly between 10% and 90%, snapped to the strongest nearby onset", () => {
  const lines = ["one", "two", "three", "four"];
  const even = timeLyrics(lines, 100_000, []);
  expect(even.map((l) => l.offset)).toEqual([10_000, 30_000, 50_000, 70_000]);
  const snapped = timeLyrics(lines, 100_000, [
    { ms: 11_000, strength: 0.1 },
    { ms: 9_000, strength: 0.5 },
    { ms: 40_000, strength: 1 }, // too far from the 30 s slot
  ]);
  expect(snapped.map((l) => l.offset)).toEqual([9_000, 30_000, 50_000, 70_000]);
  expect(snapped.map((l) => l.text)).toEqual(lines);
});

test("timed lines never go backwards, even when onsets crowd", () => {
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
  const timed = timeLyrics(lines, 20_000, [{ ms: 2_000, strength: 1 }], 10_000);
  const offsets = timed.map((l) => l.offset);
  for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeGreaterThan(offsets[i - 1] ?? -1);
});
