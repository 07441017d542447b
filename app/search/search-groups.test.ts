import { describe, expect, test, vi } from "vitest";
import { checkSearchTerm } from "#app/search/search.server.ts";
import {
  artistsGroupResult,
  isAllowedSearchGroupTransition,
  normalizeSearchTerm,
  offsetOfNext,
  recentGroupResult,
  recentSearchesMax,
  type SearchGroupState,
  searchDebounceMs,
  searchDropdownMaxHeightPx,
  searchDropdownWidthPx,
  searchGroupStates,
  searchLiveMessageMs,
  searchNextPath,
  searchPageSize,
  searchPath,
  searchTermMaxLength,
  songsGroupResult,
  transitionSearchGroup,
} from "#app/search/search-groups.ts";

/**
 * Spec 000 §4, written out here from the spec's sentence (not from the implementation): "INIT to
 * LOADING or HIDDEN; LOADING to EMPTY, SUCCESS, HIDDEN or NO_RESULTS; SUCCESS to LOADING or
 * HIDDEN; EMPTY to HIDDEN or LOADING; HIDDEN to LOADING; NO_RESULTS to LOADING."
 */
const allowed = new Set([
  "INIT→LOADING",
  "INIT→HIDDEN",
  "LOADING→EMPTY",
  "LOADING→SUCCESS",
  "LOADING→HIDDEN",
  "LOADING→NO_RESULTS",
  "SUCCESS→LOADING",
  "SUCCESS→HIDDEN",
  "EMPTY→HIDDEN",
  "EMPTY→LOADING",
  "HIDDEN→LOADING",
  "NO_RESULTS→LOADING",
]);

const everyPair = searchGroupStates.flatMap((from) =>
  searchGroupStates.map((to) => ({ from, to, allowed: allowed.has(`${from}→${to}`) })),
);

describe("search group transitions (every pair of the six states)", () => {
  test("36 pairs, 12 of them allowed", () => {
    expect(everyPair).toHaveLength(36);
    expect(everyPair.filter((pair) => pair.allowed)).toHaveLength(12);
  });

  test.each(everyPair.filter((pair) => pair.allowed))("$from → $to is taken", ({ from, to }) => {
    const log = vi.fn();
    expect(isAllowedSearchGroupTransition(from, to)).toBe(true);
    expect(transitionSearchGroup("songs", from, to, log)).toBe(to);
    expect(log).not.toHaveBeenCalled();
  });

  test.each(everyPair.filter((pair) => !pair.allowed))(
    "$from → $to is logged and refused",
    ({ from, to }) => {
      const log = vi.fn();
      expect(isAllowedSearchGroupTransition(from, to)).toBe(false);
      expect(transitionSearchGroup("artists", from, to, log)).toBe(from);
      expect(log).toHaveBeenCalledOnce();
      expect(log.mock.calls[0]?.[0]).toBe(`search group artists: invalid transition ${from} → ${to}`);
    },
  );

  test("without a log function an invalid transition goes to the console", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(transitionSearchGroup("recent", "HIDDEN", "SUCCESS")).toBe("HIDDEN");
      expect(spy).toHaveBeenCalledWith("search group recent: invalid transition HIDDEN → SUCCESS");
    } finally {
      spy.mockRestore();
    }
  });
});

describe("result rules (spec 000 §4)", () => {
  test.each<[string, number, number, SearchGroupState]>([
    // "Songs group with no songs and no artists: empty query gives EMPTY, non-empty gives NO_RESULTS"
    ["", 0, 0, "EMPTY"],
    ["adele", 0, 0, "NO_RESULTS"],
    // "no songs but some artists and non-empty query gives EMPTY"
    ["adele", 0, 2, "EMPTY"],
    // Songs found
    ["adele", 3, 0, "SUCCESS"],
    ["adele", 1, 3, "SUCCESS"],
  ])("songs group: query %j, %i songs, %i artists → %s", (query, songs, artists, expected) => {
    expect(songsGroupResult(query, songs, artists)).toBe(expected);
  });

  test.each<[number, SearchGroupState]>([
    // "Artists group: empty list gives EMPTY"
    [0, "EMPTY"],
    [1, "SUCCESS"],
    [3, "SUCCESS"],
  ])("artists group: %i artists → %s", (artists, expected) => {
    expect(artistsGroupResult(artists)).toBe(expected);
  });

  test.each<[string, number, SearchGroupState]>([
    // "Recent group: a non-empty query hides it"
    ["a", 0, "HIDDEN"],
    ["adele", 5, "HIDDEN"],
    // "an empty list gives EMPTY with a no-searches message"
    ["", 0, "EMPTY"],
    ["", 2, "SUCCESS"],
  ])("recent group: query %j, %i recents → %s", (query, recents, expected) => {
    expect(recentGroupResult(query, recents)).toBe(expected);
  });
});

test("the constants are the spec's (000 §9)", () => {
  expect(searchPageSize).toBe(3);
  expect(searchDebounceMs).toBe(500);
  expect(searchLiveMessageMs).toBe(3000);
  expect(searchDropdownWidthPx).toBe(300);
  expect(searchDropdownMaxHeightPx).toBe(618);
  expect(searchTermMaxLength).toBe(100);
  expect(recentSearchesMax).toBeGreaterThan(searchPageSize);
});

describe("search terms", () => {
  test.each([
    ["  adele  ", "adele"],
    ["the\t\tbeat\nof  it", "the beat of it"],
    ["a\u0000b\u0007c", "a b c"],
    ["\u00a0ünïcödé 曲\u3000", "ünïcödé 曲"],
    ["", ""],
  ])("%j normalizes to %j", (raw, normalized) => {
    expect(normalizeSearchTerm(raw)).toBe(normalized);
  });

  test.each<[string | null | undefined, ReturnType<typeof checkSearchTerm>]>([
    [null, { ok: true, term: "" }],
    [undefined, { ok: true, term: "" }],
    ["   ", { ok: true, term: "" }],
    [`  ${"a".repeat(100)}  `, { ok: true, term: "a".repeat(100) }],
    ["a".repeat(101), { ok: false, reason: "toolong", term: "a".repeat(101) }],
    ["<script>alert(1)</script>", { ok: true, term: "<script>alert(1)</script>" }],
  ])("check %j", (raw, expected) => {
    expect(checkSearchTerm(raw)).toEqual(expected);
  });
});

describe("search calls (spec 000 §7, query URL-encoded per 002 §5)", () => {
  test.each([
    ["adele", "adele"],
    ["rock & roll", "rock%20%26%20roll"],
    ["#1 hits?", "%231%20hits%3F"],
    ["AC/DC", "AC%2FDC"],
    ["100% pure", "100%25%20pure"],
    ["a+b=c", "a%2Bb%3Dc"],
    ["曲", "%E6%9B%B2"],
  ])("the term %j is sent as %j", (term, encoded) => {
    expect(searchPath("GB", term)).toBe(
      `/services/amapi/v1/catalog/gb/search?types=songs,artists&term=${encoded}&limit=3`,
    );
  });

  test("a group, a page size and an offset", () => {
    expect(searchPath("de", "x", { types: ["songs"], limit: 10, offset: 20 })).toBe(
      "/services/amapi/v1/catalog/de/search?types=songs&term=x&limit=10&offset=20",
    );
    expect(searchPath("de", "x", { offset: 0 })).toBe(
      "/services/amapi/v1/catalog/de/search?types=songs,artists&term=x&limit=3",
    );
  });

  test.each([
    ["GB", "gb"],
    ["us", "us"],
    ["WORLD", "gb"],
    ["GLOBAL", "gb"],
    ["", "gb"],
  ])("country %j searches the %s storefront", (country, storefront) => {
    expect(searchPath(country, "x")).toBe(
      `/services/amapi/v1/catalog/${storefront}/search?types=songs,artists&term=x&limit=3`,
    );
  });

  test.each<[string | undefined, string | undefined, number | undefined]>([
    [
      "/v1/catalog/gb/search?offset=3&term=adele&types=songs",
      "/services/amapi/v1/catalog/gb/search?offset=3&term=adele&types=songs&limit=3",
      3,
    ],
    [
      "/v1/catalog/de/search?offset=6&term=rock%20%26%20roll&types=artists",
      "/services/amapi/v1/catalog/de/search?offset=6&term=rock%20%26%20roll&types=artists&limit=3",
      6,
    ],
    [undefined, undefined, undefined],
    ["https://evil.example/v1/catalog/gb/search?offset=3", undefined, undefined],
    ["//evil.example/v1/catalog/gb/search?offset=3", undefined, undefined],
    ["/v1/catalog/gb/songs?ids=1", undefined, undefined],
    ["/v1/catalog/gb/search/../../../log?x=1", undefined, undefined],
    [
      "/v1/catalog/gb/search?term=x&types=songs",
      "/services/amapi/v1/catalog/gb/search?term=x&types=songs&limit=3",
      undefined,
    ],
    [
      "/v1/catalog/gb/search?offset=abc&types=songs",
      "/services/amapi/v1/catalog/gb/search?offset=abc&types=songs&limit=3",
      undefined,
    ],
  ])("next link %j → %j (offset %j)", (next, path, offset) => {
    expect(searchNextPath(next)).toBe(path);
    expect(offsetOfNext(next)).toBe(offset);
  });

  test("the next page of the search page asks for its own page size", () => {
    expect(searchNextPath("/v1/catalog/gb/search?offset=10&term=a&types=songs", 10)).toBe(
      "/services/amapi/v1/catalog/gb/search?offset=10&term=a&types=songs&limit=10",
    );
  });
});
