import {
  catalogueImageWidths,
  contrastRatio,
  darkenForWhiteText,
  defaultImageWidth,
  relativeLuminance,
  trackImageWidths,
} from "#rules/content-rules.ts";

/**
 * The catalogue's own rules, shared by the catalogue builder (Node) and the embedded origin
 * (Workers): media addresses, chart list ids, seeded hashes and ranking, track colours.
 * Pure code only: no Node or Workers APIs.
 */

/** Every square size written for a piece of artwork. */
export const artworkWidths = [
  ...new Set([...trackImageWidths, defaultImageWidth, ...catalogueImageWidths]),
].sort((a, b) => a - b);

/** Length of the preview clip cut from each recording, in seconds. */
export const previewSeconds = 30;

/** URL path of one square size of a piece of artwork (see `artworkWidths`). */
export function artworkUrl(artId: string, width: number): string {
  return `/media/art/${artId}/${width}x${width}.jpg`;
}

/** The artwork URL template in the catalogue (amapi) form, with {w} and {h}. */
export function artworkTemplate(artId: string): string {
  return `/media/art/${artId}/{w}x{h}.jpg`;
}

export function previewUrl(trackKey: number): string {
  return `/media/previews/${trackKey}.ogg`;
}

/**
 * The art track of a track's preview (origin/catalog/art-track.ts): every preview has one, so the
 * catalogue needs no column to say which tracks have a video.
 */
export function artTrackUrl(trackKey: number): string {
  return `/media/videos/${trackKey}.webm`;
}

/** The art track's 520x280 poster, the video preview image of spec 002 §9. */
export function artTrackPosterUrl(trackKey: number): string {
  return `/media/videos/${trackKey}.jpg`;
}

/** Illustrated concert photos the catalogue draws (origin/catalog/venues.ts). */
export const eventPhotoCount = 8;

/** URL paths of the concert media the catalogue draws: photos, the featured background and logo. */
export const eventMedia = {
  photo: (n: number, width: number, format: "jpg" | "webp") =>
    `/media/events/photo-${n}-${width}x${width}.${format}`,
  background: (width: number) => `/media/events/featured-${width}x${width}.jpg`,
  logo: (width: number) => `/media/events/logo-${width}.png`,
  /** The listings provider's attribution logo; the size is "0x50" (height 50) once filled in. */
  attribution: (size: string) => `/media/events/attribution-${size}.png`,
};

/** Chart list ids (spec 001 §3 Chart: listid, momentum_listid). */
export const listIds = {
  world: "ip-world-chart",
  worldDiscovery: "ip-world-discovery",
  worldGenre: (genreId: string) => `genre-global-chart-${genreId}`,
  country: (country: string) => `ip-country-chart-${country}`,
  discovery: (country: string) => `ip-country-discovery-${country}`,
  city: (cityId: number) => `ip-city-chart-${cityId}`,
  countryGenre: (country: string, genreId: string) => `genre-country-chart-${country}-${genreId}`,
};

/** A 32-bit FNV-1a hash with a final avalanche: the seed of every deterministic choice. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) from a seed string. */
export function unitHash(text: string): number {
  return hash32(text) / 0x1_0000_0000;
}

/** A URL alias: lower case ASCII words joined by dashes ("Journey's End" → "journeys-end"). */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "-";
}

export type RankedEntry = { trackKey: number; score: number };

/** Ranks by score, highest first; ties broken by track key so the order is total. */
export function rankEntries<T extends RankedEntry>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => b.score - a.score || a.trackKey - b.trackKey);
}

/**
 * A city chart is its country's counts reweighted by a city-seeded hash: the same tracks lead
 * everywhere in a country, with local differences.
 */
export function cityScore(countryTotal: number, trackKey: number, cityId: number): number {
  return Math.round(countryTotal * (0.6 + 0.8 * unitHash(`city:${cityId}:${trackKey}`)));
}

/**
 * Radio airplay (spec 001 §1 "radio airplay charts per genre"): a week's plays of a track on the
 * radio, from its world-wide tags reweighted by a genre-seeded hash, so radio and tags agree on
 * the big songs and differ on the rest, the same on every run.
 */
export function radioSpins(worldTotal: number, trackKey: number, genreId: string): number {
  return Math.round(worldTotal * (0.3 + 1.4 * unitHash(`radio:${genreId}:${trackKey}`)));
}

/** Discovery ranks by momentum: the share of a track's tags that are recent. */
export function discoveryScore(total: number, recent: number): number {
  return total > 0 ? Math.round((recent / total) * 1_000_000) : 0;
}

/** Spec 001 §3 properties colours, derived from one background colour. */
export type TrackColours = {
  bkgcolor: string;
  bkglight: boolean;
  bkgblack: boolean;
  whiteContrast: number;
  colors: { background: string; accessible: string; text: string; secondaryText: string };
};

export function coloursOf(background: string): TrackColours {
  const luminance = relativeLuminance(background);
  const bkglight = luminance > 0.179;
  const whiteContrast = Math.round(contrastRatio(background, "#ffffff") * 100) / 100;
  return {
    bkgcolor: background.slice(1),
    bkglight,
    bkgblack: luminance < 0.01,
    whiteContrast,
    colors: {
      background,
      accessible: darkenForWhiteText(background),
      text: bkglight ? "#111111" : "#ffffff",
      secondaryText: bkglight ? "#3c3c3c" : "#d6d6d6",
    },
  };
}
