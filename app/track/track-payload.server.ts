import { contrastRatio, contrastTarget, defaultImageWidth, trackImageWidths } from "#rules/content-rules.ts";
import { dateTimeFormat } from "#rules/intl.ts";
import type { StoreName, Track } from "#rules/schemas/track.ts";
import { platformOf } from "#rules/user-agent.ts";

/** What a track page takes from the track service's payload (spec 001 §3): stores in the platform's order, preview, colours, durations, share links. */

/** Spec 001 §3 "Platform store priority". */
export type StorePlatform = "android" | "ios" | "web";

/**
 * Spec 001 §3: Android and iOS as the spec lists them. "Other platforms: not shown" in the spec;
 * ours: the services a browser can play in first (Spotify, Apple Music, Amazon Music), then the
 * stores, the two tied to a device family (Google Play, Xbox Music) last.
 */
export const storePriority = {
  android: ["google", "spotify", "amazon", "apple", "itunes", "xboxmusic"],
  ios: ["apple", "spotify", "itunes", "google", "amazon", "xboxmusic"],
  web: ["spotify", "apple", "amazon", "itunes", "google", "xboxmusic"],
} as const satisfies Record<StorePlatform, readonly StoreName[]>;

/** Brand names, the same in every language. */
export const storeLabels: Record<StoreName, string> = {
  apple: "Apple Music",
  spotify: "Spotify",
  itunes: "iTunes",
  google: "Google Play",
  amazon: "Amazon Music",
  xboxmusic: "Xbox Music",
};

/** Related tracks asked of the recommendations URL. */
export const relatedLimit = 10;
/** Songs of the artist shown in the artist section. */
export const artistTopSongsLimit = 5;
/** Widths of the cover art (spec 001 §9 "tracks 75 to 300 step 75; default size 375"). */
export const coverWidths = [...trackImageWidths, defaultImageWidth] as const;
/** The Open Graph image: the largest square the catalogue has. */
export const shareImageWidth = 800;

/** The platform whose store priority applies: the emulated device (`device=`), else the user agent. */
export function storePlatformOf(userAgent: string | null, device: string | undefined): StorePlatform {
  if (device === "ios" || device === "android") return device;
  return platformOf(userAgent);
}

export type StoreLink = { name: StoreName; label: string; href: string };

/** Only web addresses become links: an upstream `javascript:` or app scheme never reaches a page. */
function webHref(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    const url = new URL(uri);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A root-relative path of ours ("/media/…") or a web address; anything else is dropped. */
export function mediaHref(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  if (/^\/(?!\/)/.test(uri)) return uri;
  return webHref(uri);
}

/** Each store of the track with a web link, in the platform's order (spec 001 §3). */
export function orderedStores(stores: Track["stores"], platform: StorePlatform): StoreLink[] {
  return storePriority[platform].flatMap((name) => {
    const href = webHref(stores[name]?.actions.find((action) => action.uri)?.uri);
    return href ? [{ name, label: storeLabels[name], href }] : [];
  });
}

/** The track's preview clip: the first store that has one, in the spec's store order. */
export function previewOf(track: Track): string | undefined {
  for (const store of Object.values(track.stores)) {
    const href = mediaHref(store?.previewurl);
    if (href) return href;
  }
  return undefined;
}

/** The background behind the heading: the origin's accessible colour, kept only if white text reads on it. */
export function headingBackgroundOf(track: Track): string | undefined {
  const colour = track.properties.colors.accessible;
  if (!/^#[0-9a-f]{6}$/i.test(colour)) return undefined;
  return contrastRatio(colour, "#ffffff") >= contrastTarget ? colour : undefined;
}

/** ISO 8601 duration for JSON-LD ("PT3M44S"). */
export function isoDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `PT${hours ? `${hours}H` : ""}${hours || minutes ? `${minutes}M` : ""}${rest}S`;
}

/** "3:44", "1:02:05". */
export function clockDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

export function releasedText(dateInfo: Track["dateInfo"], locale: string): string {
  const time = Date.parse(`${dateInfo.releaseDate}T00:00:00Z`);
  if (Number.isNaN(time)) return dateInfo.releaseDate;
  if (dateInfo.precision === "year") return String(new Date(time).getUTCFullYear());
  return dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(time);
}

export function albumNameOf(track: Track): string | undefined {
  for (const section of track.sections) {
    if (section.type === "SONG") return section.metadata.find((entry) => entry.title === "Album")?.text;
  }
  return undefined;
}

/** The share links of spec 002 §9 "Share options: twitter and email", from the track's share data. */
export function shareLinks(
  share: Track["share"],
  origin: string,
): { twitter: string; email: string; url: string } {
  const url = new URL(share.href, origin).href;
  const twitter = new URL("https://twitter.com/intent/tweet");
  twitter.searchParams.set("text", share.twitter ?? share.text);
  twitter.searchParams.set("url", url);
  const email = `mailto:?subject=${encodeURIComponent(share.subject)}&body=${encodeURIComponent(`${share.text}\n\n${url}`)}`;
  return { twitter: twitter.href, email, url };
}
