/**
 * What pages render: small view models made by the page data functions from upstream payloads.
 * Shared by the React routes and amp/, so both show the same data.
 */
export type Image = {
  src: string;
  /** `srcset` at the spec's widths (tracks 75–300 step 75; catalogue 200–800 step 200). */
  srcSet: string;
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
