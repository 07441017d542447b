import { describe, expect, test } from "vitest";
import { readLyricsSync } from "#app/track/synced-lyrics.server.ts";
import {
  currentLineIndex,
  isSyncedLyricsShown,
  type LyricsSync,
  msUntilNextChange,
  songPosition,
  syncedLyricsState,
} from "#app/track/synced-lyrics.ts";

const heardAt = Date.UTC(2025, 5, 1, 12, 0, 0);

function sync(overrides: Partial<LyricsSync> = {}): LyricsSync {
  return { startDate: heardAt, offset: 60_000, trackLength: 180_000, timeSkew: 0, ...overrides };
}

const lines = [
  { offset: 10_000, text: "first" },
  { offset: 30_000, text: "second" },
  { offset: 61_000, text: "third" },
  { offset: 90_000, text: "fourth" },
];

describe("spec 001 §4: synced lyrics only while now is within [track start, track start + length] and the offset within [0, length]", () => {
  // Track start is heardAt − offset; with the defaults that is heardAt − 60 s, the end heardAt + 120 s.
  test.each([
    ["at the match", sync(), heardAt, true],
    ["a minute after the match", sync(), heardAt + 60_000, true],
    ["exactly at the track start", sync(), heardAt - 60_000, true],
    ["just before the track start", sync(), heardAt - 60_001, false],
    ["exactly at the track end", sync(), heardAt + 120_000, true],
    ["just after the track end", sync(), heardAt + 120_001, false],
    ["an hour later", sync(), heardAt + 3_600_000, false],
    ["offset 0 at the match", sync({ offset: 0 }), heardAt, true],
    ["offset equal to the length", sync({ offset: 180_000 }), heardAt, true],
    ["a negative offset", sync({ offset: -1 }), heardAt, false],
    ["an offset past the length", sync({ offset: 180_001 }), heardAt, false],
    ["a zero length", sync({ trackLength: 0, offset: 0 }), heardAt, false],
  ])("%s → %s", (_name, value, now, shown) => {
    expect(isSyncedLyricsShown(value, now)).toBe(shown);
    expect(syncedLyricsState(value, lines, now).shown).toBe(shown);
  });
});

describe("the song position follows the clock from the heard offset", () => {
  test.each([
    ["at the match", sync(), heardAt, 60_000],
    ["ten seconds on", sync(), heardAt + 10_000, 70_000],
    ["ten seconds on, heard 1 % fast", sync({ timeSkew: 0.01 }), heardAt + 10_000, 70_100],
    ["ten seconds on, heard 1 % slow", sync({ timeSkew: -0.01 }), heardAt + 10_000, 69_900],
    ["never before the start", sync(), heardAt - 120_000, 0],
    ["never past the end", sync(), heardAt + 600_000, 180_000],
  ])("%s", (_name, value, now, position) => {
    expect(songPosition(value, now)).toBeCloseTo(position, 6);
  });
});

describe("the current line is the last one started", () => {
  test.each([
    [0, -1],
    [9_999, -1],
    [10_000, 0],
    [29_999, 0],
    [30_000, 1],
    [60_999, 1],
    [61_000, 2],
    [179_000, 3],
  ])("at %i ms → line %i", (position, index) => {
    expect(currentLineIndex(lines, position)).toBe(index);
  });

  test("the highlight moves as time passes", () => {
    const value = sync();
    expect(syncedLyricsState(value, lines, heardAt)).toEqual({ shown: true, lineIndex: 1 });
    expect(syncedLyricsState(value, lines, heardAt + 1_000)).toEqual({ shown: true, lineIndex: 2 });
    expect(syncedLyricsState(value, lines, heardAt + 30_000)).toEqual({ shown: true, lineIndex: 3 });
    expect(syncedLyricsState(value, lines, heardAt + 200_000)).toEqual({ shown: false, lineIndex: -1 });
  });
});

describe("the next moment the view can change", () => {
  test.each([
    ["the next line starts", sync(), heardAt, 1_000],
    ["the window opens", sync({ startDate: heardAt + 5_000, offset: 0 }), heardAt, 5_000],
    ["the window closes after the last line", sync(), heardAt + 100_000, 20_001],
    ["never again once closed", sync(), heardAt + 200_000, undefined],
    ["never with a bad offset", sync({ offset: -5 }), heardAt, undefined],
  ])("%s", (_name, value, now, wait) => {
    expect(msUntilNextChange(value, lines, now)).toBe(wait);
  });
});

describe("reading the address", () => {
  const read = (query: string) => readLyricsSync(new URLSearchParams(query), 200_000);

  test.each([
    [
      "epoch ms",
      `startDate=${heardAt}&offsetInMilliseconds=5000`,
      sync({ offset: 5_000, trackLength: 200_000 }),
    ],
    [
      "an ISO date-time",
      "startDate=2025-06-01T12:00:00.000Z&offsetInMilliseconds=5000&trackLength=180000",
      sync({ offset: 5_000 }),
    ],
    [
      "every parameter",
      `startDate=${heardAt}&offsetInMilliseconds=1234.6&trackLength=180000&timeSkew=0.0012`,
      sync({ offset: 1_235, timeSkew: 0.0012 }),
    ],
    [
      "a negative offset (kept; the window rule refuses it)",
      `startDate=${heardAt}&offsetInMilliseconds=-10`,
      sync({ offset: -10, trackLength: 200_000 }),
    ],
  ])("%s", (_name, query, expected) => {
    expect(read(query)).toEqual(expected);
  });

  test.each([
    ["nothing", ""],
    ["no offset", `startDate=${heardAt}`],
    ["no start", "offsetInMilliseconds=100"],
    ["a start that is no date", "startDate=yesterday&offsetInMilliseconds=100"],
    ["an offset that is no number", `startDate=${heardAt}&offsetInMilliseconds=1e9`],
    ["a zero track length", `startDate=${heardAt}&offsetInMilliseconds=100&trackLength=0`],
    ["a broken time skew", `startDate=${heardAt}&offsetInMilliseconds=100&timeSkew=3`],
  ])("%s → none", (_name, query) => {
    expect(read(query)).toBeUndefined();
  });
});
