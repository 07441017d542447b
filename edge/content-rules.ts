/**
 * Catalogue rules and constants shared by the catalogue builder (Node) and the origin (Workers).
 * Pure code only: no Node or Workers APIs.
 */

/** Spec 001 §9 "Image sets: widths 200 to 800 step 200 by default". */
export const catalogueImageWidths = [200, 400, 600, 800] as const;
/** Spec 001 §9 "tracks 75 to 300 step 75". */
export const trackImageWidths = [75, 150, 225, 300] as const;
/** Spec 001 §9 "default size 375". */
export const defaultImageWidth = 375;
/** Every square size written for a piece of artwork. */
export const artworkWidths = [
  ...new Set([...trackImageWidths, defaultImageWidth, ...catalogueImageWidths]),
].sort((a, b) => a - b);

/** Spec 001 §9 "New release window 90 days". */
export const newReleaseWindowDays = 90;
/** Spec 001 §9 "Chart sizes: top 200, top 50 per city, discovery 200, world default 200". */
export const chartSizes = { top: 200, city: 50, discovery: 200, world: 200 } as const;
/** Spec 001 §9 "Colour contrast target 4.5 against white, up to 10 darkening steps of 10%". */
export const contrastTarget = 4.5;
export const darkeningSteps = 10;
/** Length of the preview clip cut from each recording, in seconds. */
export const previewSeconds = 30;
/** Spec 000 §9 "Search page size 3". */
export const searchPageSize = 3;

/** Spec 001 §4 "A track is a new release if released 90 days or fewer ago". */
export function isNewRelease(releaseDate: string, now: Date): boolean {
  const released = Date.parse(`${releaseDate}T00:00:00Z`);
  if (Number.isNaN(released)) return false;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const ageDays = Math.round((today - released) / 86_400_000);
  return ageDays >= 0 && ageDays <= newReleaseWindowDays;
}

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

/** Chart list ids (spec 001 §3 Chart: listid, momentum_listid). */
export const listIds = {
  world: "ip-world-chart",
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

/** Discovery ranks by momentum: the share of a track's tags that are recent. */
export function discoveryScore(total: number, recent: number): number {
  return total > 0 ? Math.round((recent / total) * 1_000_000) : 0;
}

/** Relative luminance of an sRGB colour (WCAG 2). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio between two colours. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Darkens by 10% steps (at most `darkeningSteps`) until white text reaches `contrastTarget`. */
export function darkenForWhiteText(hex: string): string {
  let colour = hex;
  for (let step = 0; step < darkeningSteps && contrastRatio(colour, "#ffffff") < contrastTarget; step++) {
    colour = rgbToHex(hexToRgb(colour).map((channel) => channel * 0.9) as [number, number, number]);
  }
  return colour;
}

export function hexToRgb(hex: string): [number, number, number] {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) throw new Error(`not a colour: ${hex}`);
  const value = Number.parseInt(match[1], 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function rgbToHex(rgb: readonly [number, number, number]): string {
  return `#${rgb
    .map((c) =>
      Math.max(0, Math.min(255, Math.round(c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
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
