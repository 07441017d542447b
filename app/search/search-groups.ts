import { amapiLinkPath, catalogSearchPath, storefrontOf } from "#rules/addresses.ts";
import { searchPageSize, trackSearchPageSize } from "#rules/content-rules.ts";

/**
 * The search box's groups (spec 000 §2 "Search box", §4 "Search group states", "Result rules", §9)
 * and the search calls (000 §7, 002 §5 "The search query is URL-encoded"). Pure code, shared by the
 * box in the browser and the search page at the edge.
 */

/** Spec 000 §9 "Search page size 3" (one constant with the origin's default, rules/content-rules). */
export { searchPageSize };
/** Spec 000 §9 "search input debounce 500 ms". */
export const searchDebounceMs = 500;
/** Spec 000 §9 "screen-reader message removed after 3000 ms". */
export const searchLiveMessageMs = 3000;
/** Spec 000 §9 "dropdown width 300 px". */
export const searchDropdownWidthPx = 300;
/** Spec 000 §9 "max height 618 px". */
export const searchDropdownMaxHeightPx = 618;
export { searchTermMaxLength } from "./search-term";
/** Most recent searches kept under `search.recents`. Ours: the spec names none. */
export const recentSearchesMax = 10;
/** Results per group on the search page: the spec's track search page (decision 026). */
export const searchResultsPageSize = trackSearchPageSize;

export const searchGroupNames = ["recent", "songs", "artists"] as const;
export type SearchGroupName = (typeof searchGroupNames)[number];

export const searchGroupStates = ["INIT", "LOADING", "SUCCESS", "EMPTY", "NO_RESULTS", "HIDDEN"] as const;
export type SearchGroupState = (typeof searchGroupStates)[number];

/**
 * Spec 000 §4: "Allowed: INIT to LOADING or HIDDEN; LOADING to EMPTY, SUCCESS, HIDDEN or
 * NO_RESULTS; SUCCESS to LOADING or HIDDEN; EMPTY to HIDDEN or LOADING; HIDDEN to LOADING;
 * NO_RESULTS to LOADING."
 */
export const allowedSearchGroupTransitions: Readonly<Record<SearchGroupState, readonly SearchGroupState[]>> =
  {
    INIT: ["LOADING", "HIDDEN"],
    LOADING: ["EMPTY", "SUCCESS", "HIDDEN", "NO_RESULTS"],
    SUCCESS: ["LOADING", "HIDDEN"],
    EMPTY: ["HIDDEN", "LOADING"],
    HIDDEN: ["LOADING"],
    NO_RESULTS: ["LOADING"],
  };

export function isAllowedSearchGroupTransition(from: SearchGroupState, to: SearchGroupState): boolean {
  return allowedSearchGroupTransitions[from].includes(to);
}

/** Where invalid transitions are reported; the browser's console by default. */
export type SearchGroupLog = (message: string) => void;

/**
 * Moves a group from `from` to `to`. Spec 000 §4 "Any other transition is logged as invalid": it
 * is logged and refused, and the group stays in `from`.
 */
export function transitionSearchGroup(
  group: SearchGroupName,
  from: SearchGroupState,
  to: SearchGroupState,
  log: SearchGroupLog = (message) => console.error(message),
): SearchGroupState {
  if (isAllowedSearchGroupTransition(from, to)) return to;
  log(`search group ${group}: invalid transition ${from} → ${to}`);
  return from;
}

/**
 * Spec 000 §4 result rule of the Songs group: "with no songs and no artists: empty query gives
 * EMPTY, non-empty gives NO_RESULTS; no songs but some artists and non-empty query gives EMPTY".
 * Songs found: SUCCESS.
 */
export function songsGroupResult(query: string, songs: number, artists: number): SearchGroupState {
  if (songs > 0) return "SUCCESS";
  if (artists === 0) return query === "" ? "EMPTY" : "NO_RESULTS";
  return "EMPTY";
}

/** Spec 000 §4 result rule of the Artists group: "empty list gives EMPTY". */
export function artistsGroupResult(artists: number): SearchGroupState {
  return artists > 0 ? "SUCCESS" : "EMPTY";
}

/**
 * Spec 000 §4 result rule of the Recent group: "a non-empty query hides it; an empty list gives
 * EMPTY with a no-searches message".
 */
export function recentGroupResult(query: string, recents: number): SearchGroupState {
  if (query !== "") return "HIDDEN";
  return recents > 0 ? "SUCCESS" : "EMPTY";
}

/** Whitespace runs become one space, control characters go, the ends are trimmed. */
export function normalizeSearchTerm(raw: string): string {
  return raw
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * Spec 000 §7 "GET /services/amapi/v1/catalog/{country}/search with types=songs,artists, term,
 * limit=3", the term URL-encoded (002 §5).
 */
export function searchPath(
  country: string,
  term: string,
  options: { types?: readonly ("songs" | "artists")[]; limit?: number; offset?: number } = {},
): string {
  return catalogSearchPath(storefrontOf(country), {
    types: options.types ?? ["songs", "artists"],
    term,
    limit: options.limit ?? searchPageSize,
    offset: options.offset,
  });
}

/** A next link as the catalogue sends it: `/v1/catalog/{storefront}/search?…` and nothing else. */
const nextLinkPattern = /^\/v1\/catalog\/[a-z]{2}\/search\?[^#\s]*$/;

/**
 * Spec 000 §7 "GET /services/amapi{nextLink} with limit=3". The link comes from upstream data, so
 * only a search link of the catalogue is followed; anything else is no next page.
 */
export function searchNextPath(next: string | undefined, limit: number = searchPageSize): string | undefined {
  if (next === undefined || !nextLinkPattern.test(next)) return undefined;
  return `${amapiLinkPath(next)}&limit=${limit}`;
}

/** The offset a next link points at (the search page's paging links use it). */
export function offsetOfNext(next: string | undefined): number | undefined {
  if (next === undefined || !nextLinkPattern.test(next)) return undefined;
  const offset = new URLSearchParams(next.slice(next.indexOf("?") + 1)).get("offset");
  if (offset === null || !/^\d{1,6}$/.test(offset)) return undefined;
  return Number(offset);
}
