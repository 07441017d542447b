import { trackPath } from "#rules/addresses.ts";
import { trackImageWidths } from "#rules/content-rules.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import type { TrackSummary as TrackSummaryPayload } from "#rules/schemas/track.ts";

/**
 * What pages render: small view models made by the page data functions from upstream payloads.
 * Shared by the React routes and amp/, so both show the same data.
 */
export type Image = {
  src: string;
  /** `srcset` at the spec's widths (tracks 75–300 step 75; catalogue 200–800 step 200). */
  srcSet: string;
  /** The same widths as WebP, where the origin has them (event photos); React pages offer it first. */
  webpSrcSet?: string;
  width: number;
  height: number;
};

export type TrackSummary = {
  key: string;
  title: string;
  artist: string;
  href: string;
  cover: Image | undefined;
  isNewRelease: boolean;
};

export type ArtistSummary = {
  id: string;
  name: string;
  href: string;
  avatar: Image | undefined;
};

/** A colour from the data for a `style` attribute: a hex colour only, else none. */
export function safeColour(colour: string | undefined): string | undefined {
  return colour !== undefined && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(colour) ? colour : undefined;
}

/** One entry of a page's playlist: what the player plays (the track page and its related songs). */
export type PlaylistEntry = {
  key: string;
  title: string;
  artist: string;
  /** The preview clip (Ogg: Opus or Vorbis). */
  src: string;
  /** Playback stops at the end of this track instead of moving on. */
  playlistBreak: boolean;
};

/** Adds a song to a page's playlist when it has a preview: its place in the playlist, else undefined. */
export function addToPlaylist(
  playlist: PlaylistEntry[],
  song: { key: string; title: string; subtitle: string },
  src: string | undefined,
): number | undefined {
  if (!src) return undefined;
  playlist.push({ key: song.key, title: song.title, artist: song.subtitle, src, playlistBreak: false });
  return playlist.length - 1;
}

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

/** A track's canonical address in a language (rules/addresses.ts `trackPath`). */
export function trackHref(lang: LanguageKey, key: string, alias: string): string {
  return localizedPath(lang, trackPath(key, alias));
}

/** An artwork URL of ours in one size ("…/400x400.jpg") as an image at the given widths. */
export function imageOfArtworkUrl(url: string, widths: readonly number[]): Image {
  const template = url.replace(/\/(\d+)x(\d+)\.jpg$/, "/{w}x{h}.jpg");
  if (template !== url) return imageFromTemplate(template, widths);
  return {
    src: url,
    srcSet: `${url} 1x`,
    width: widths[widths.length - 1] ?? 300,
    height: widths[widths.length - 1] ?? 300,
  };
}

/** A track summary of the track service (related songs, library tags) as a row of a list. */
export function trackSummaryOfPayload(summary: TrackSummaryPayload, lang: LanguageKey): TrackSummary {
  const template = summary.images.template;
  return {
    key: summary.key,
    title: summary.title,
    artist: summary.subtitle,
    href: trackHref(lang, summary.key, summary.alias),
    cover: template
      ? imageFromTemplate(template, trackImageWidths)
      : imageOfArtworkUrl(summary.images.coverart, trackImageWidths),
    isNewRelease: false,
  };
}
