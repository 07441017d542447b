import { isNewRelease, trackImageWidths } from "#rules/content-rules.ts";
import type { LanguageKey } from "#rules/languages.ts";
import type { Song } from "#rules/schemas/amapi.ts";
import { imageFromTemplate, type TrackSummary, trackHref } from "./view";

/** A catalogue song as a row of a list (charts, home, top songs). */
export function trackSummaryOfSong(song: Song, lang: LanguageKey, now: Date): TrackSummary {
  const { attributes } = song;
  return {
    key: attributes.shazamKey,
    title: attributes.name,
    artist: attributes.artistName,
    href: trackHref(lang, attributes.shazamKey, attributes.alias),
    cover: imageFromTemplate(attributes.artwork.url, trackImageWidths),
    isNewRelease: isNewRelease(attributes.releaseDate, now),
  };
}
