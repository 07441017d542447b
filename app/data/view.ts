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
