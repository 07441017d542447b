import { isNewRelease, trackImageWidths } from "../../edge/content-rules";
import type { LanguageKey } from "../../edge/languages";
import { localizedPath } from "../../edge/path";
import type { Song } from "../../edge/schemas/amapi";
import type { Image, TrackSummary } from "./view";

/** An image from a `{w}x{h}` artwork template at the given widths (the largest is `src`). */
export function imageFromTemplate(template: string, widths: readonly number[]): Image {
  const sized = (width: number) => template.replace("{w}", String(width)).replace("{h}", String(width));
  const largest = widths[widths.length - 1] ?? 300;
  return {
    src: sized(largest),
    srcSet: widths.map((width) => `${sized(width)} ${width}w`).join(", "),
    width: largest,
    height: largest,
  };
}

/** A track's canonical path, without language prefix. */
export function trackPath(key: string, alias: string): string {
  return `/track/${key}/${encodeURIComponent(alias)}`;
}

export function trackHref(lang: LanguageKey, key: string, alias: string): string {
  return localizedPath(lang, trackPath(key, alias));
}

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
