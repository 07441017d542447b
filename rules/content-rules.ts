import { dayMs } from "./time";

/**
 * Display rules from the spec that the pages (app/) and the embedded origin both apply: image
 * sizes, chart sizes, the new-release window, the search page size, the colour contrast rule.
 * Pure code only: no Node or Workers APIs.
 */

/** Spec 001 §9 "Image sets: widths 200 to 800 step 200 by default". */
export const catalogueImageWidths = [200, 400, 600, 800] as const;

/** Spec 001 §9 "tracks 75 to 300 step 75". */
export const trackImageWidths = [75, 150, 225, 300] as const;

/** Spec 001 §9 "default size 375". */
export const defaultImageWidth = 375;

/** Spec 001 §9 "New release window 90 days". */
export const newReleaseWindowDays = 90;

/** Spec 001 §9 "Chart sizes: top 200, top 50 per city, discovery 200, world default 200". */
export const chartSizes = { top: 200, city: 50, discovery: 200, world: 200 } as const;

/** Spec 001 §9 "Colour contrast target 4.5 against white, up to 10 darkening steps of 10%". */
export const contrastTarget = 4.5;

export const darkeningSteps = 10;

/** Spec 000 §9 "Search page size 3". */
export const searchPageSize = 3;

/** Spec 001 §9 "Lyric sample 150 characters; snippet 100 characters". */
export const lyricSampleLength = 150;
export const lyricSnippetLength = 100;

/**
 * The lyrics' first lines as one line (" / " between them), at most `max` characters: cut at the
 * last word that fits, with "…" inside the limit.
 */
export function lyricExcerpt(lines: readonly string[], max: number): string {
  const whole = lines
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" / ");
  if (whole.length <= max) return whole;
  const cut = whole.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s/]+$/, "")}…`;
}

/** Spec 002 §9 "track search 10" (002 §7 "GET track search with pageSize default 10"). */
export const trackSearchPageSize = 10;

/** Spec 001 §4 "A track is a new release if released 90 days or fewer ago". */
export function isNewRelease(releaseDate: string, now: Date): boolean {
  const released = Date.parse(`${releaseDate}T00:00:00Z`);
  if (Number.isNaN(released)) return false;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const ageDays = Math.round((today - released) / dayMs);
  return ageDays >= 0 && ageDays <= newReleaseWindowDays;
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
