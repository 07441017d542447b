import { type TrackSummary, trackSummaryOfPayload } from "#app/shell/view.ts";
import type { LanguageKey } from "#rules/languages.ts";
import type { LibraryTag } from "#rules/library.ts";

/** One identified song as the library shows it (server-rendered, or read from iCloud in the browser). */
export type LibraryItem = {
  tagid: string;
  track: TrackSummary;
  /** When, ISO 8601, and as the visitor reads it (their locale and, where known, time zone). */
  time: string;
  when: string;
  /** Where: the country's name in the visitor's language, when known. */
  where: string | undefined;
};

export function libraryItemOf(
  tag: LibraryTag,
  lang: LanguageKey,
  format: Intl.DateTimeFormat,
  placeName: (countryCode: string) => string,
): LibraryItem {
  return {
    tagid: tag.tagid,
    track: trackSummaryOfPayload(tag.track, lang),
    time: new Date(tag.timestamp).toISOString(),
    when: format.format(tag.timestamp),
    where: tag.location.country ? placeName(tag.location.country) : undefined,
  };
}
