import * as v from "valibot";
import type { SiteStorage } from "#app/shell/browser/storage.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import type { WebrecMatch } from "#rules/schemas/webrec.ts";
import type { TrackLookup } from "./match-service";

/**
 * What a match leads to (spec 002 §2, §3, §4 "On match: stop, store flags, go to the track page
 * or the interstitial"): the stored match, and the track page address that makes the synced
 * lyrics follow the song from where it was heard (spec 001 §2 parameters, read by
 * app/track/synced-lyrics.ts).
 */

/** The record kept under webrec.fab_match (the latest match) and webrec.prev_match (the one before). */
export const storedMatchSchema = v.object({
  trackId: v.pipe(v.string(), v.regex(/^\d+$/)),
  weburl: v.string(),
  /** Epoch ms of the recording's first sample, and where the song was then (ms). */
  startDate: v.number(),
  offset: v.number(),
  timeskew: v.number(),
  frequencyskew: v.number(),
  /** When the match answered, epoch ms. */
  matchedAt: v.number(),
  title: v.optional(v.string()),
  artist: v.optional(v.string()),
  bkgcolor: v.optional(v.string()),
  bkglight: v.optional(v.boolean()),
  trackLength: v.optional(v.number()),
});
export type StoredMatch = v.InferOutput<typeof storedMatchSchema>;

export function storedMatchOf(
  match: WebrecMatch,
  heard: { startDate: number; matchedAt: number },
  track: TrackLookup | undefined,
): StoredMatch {
  return {
    trackId: match.trackId,
    weburl: match.weburl,
    startDate: heard.startDate,
    offset: match.offset,
    timeskew: match.timeskew,
    frequencyskew: match.frequencyskew,
    matchedAt: heard.matchedAt,
    ...(track
      ? {
          title: track.title,
          artist: track.subtitle,
          bkgcolor: track.properties.bkgcolor,
          bkglight: track.properties.bkglight,
          trackLength: track.durationMs,
        }
      : {}),
  };
}

/**
 * Spec 002 §3 storage keys: the new match becomes webrec.fab_match and the one it replaces
 * webrec.prev_match. Storage that does not work costs nothing but the memory of the match.
 */
export function storeMatch(storage: Pick<SiteStorage, "get" | "set">, match: StoredMatch): void {
  const previous = storage.get("webrec.fab_match");
  if (previous.ok && v.is(storedMatchSchema, previous.value))
    storage.set("webrec.prev_match", previous.value);
  storage.set("webrec.fab_match", match);
}

/**
 * The track page of a match, in the page's language, with the synced-lyrics parameters: startDate
 * (when the recording started), offsetInMilliseconds (where the song was then), trackLength and
 * timeSkew.
 */
export function trackPageHref(lang: LanguageKey, match: StoredMatch): string {
  const search = new URLSearchParams({
    startDate: String(Math.round(match.startDate)),
    offsetInMilliseconds: String(Math.round(match.offset)),
  });
  if (match.trackLength !== undefined && match.trackLength > 0)
    search.set("trackLength", String(match.trackLength));
  search.set("timeSkew", String(match.timeskew));
  return `${localizedPath(lang, match.weburl)}?${search}`;
}

/**
 * Spec 002 §2: the interstitial is shown "after a match when the user is already on that track
 * page". `pathname` is the current location's, with or without the language prefix.
 */
export function isOnTrackPage(pathname: string, lang: LanguageKey, weburl: string): boolean {
  const current = pathname.replace(/\/+$/, "");
  return current === weburl || current === localizedPath(lang, weburl);
}

/** Spec 002 §2: the track page "reached after a web match, with origin webrec, the button source, id, colours, title and artist". */
export type WebrecNavigationState = {
  origin: "webrec";
  source: string;
  id: string;
  bkgcolor: string | undefined;
  bkglight: boolean | undefined;
  title: string | undefined;
  artist: string | undefined;
};

export function navigationStateOf(match: StoredMatch, source: string): WebrecNavigationState {
  return {
    origin: "webrec",
    source,
    id: match.trackId,
    bkgcolor: match.bkgcolor,
    bkglight: match.bkglight,
    title: match.title,
    artist: match.artist,
  };
}
