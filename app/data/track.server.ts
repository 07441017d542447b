import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import {
  contrastRatio,
  contrastTarget,
  defaultImageWidth,
  isNewRelease,
  lyricExcerpt,
  lyricSampleLength,
  lyricSnippetLength,
  trackImageWidths,
} from "../../rules/content-rules";
import { findCountry } from "../../rules/countries";
import { siteOriginOf } from "../../rules/env";
import { SiteError } from "../../rules/errors";
import { dateTimeFormat, numberFormat } from "../../rules/intl";
import type { LanguageKey } from "../../rules/languages";
import { localizedPath } from "../../rules/path";
import { artistViewSchema } from "../../rules/schemas/amapi";
import { syncedLyricsSchema } from "../../rules/schemas/lyrics";
import { tagCountListSchema, tagCountSchema } from "../../rules/schemas/tagcount";
import { relatedTracksSchema, type StoreName, type Track, trackSchema } from "../../rules/schemas/track";
import { platformOf } from "../../rules/user-agent";
import type { Translate } from "../i18n.server";
import type { PageMeta } from "../meta";
import {
  type LyricsSync,
  type SyncedLine,
  type SyncedLyricsState,
  syncedLyricsState,
  trackStartOf,
} from "../synced-lyrics";
import { readLyricsSync } from "../synced-lyrics.server";
import { absoluteUrl, requestMeta } from "./meta.server";
import type { Image, PlaylistEntry, TrackSummary } from "./view";
import { imageFromTemplate, imageOfArtworkUrl, trackSummaryOfPayload } from "./view";
import { trackSummaryOfSong } from "./view.server";

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
/** The storefront asked when the visitor's country has none (world, global). */
const defaultStorefront = "GB";

const internalMessages = {
  /** Spec 001 §8 internal message. */
  trackNoId: "Track service No id",
  typeNotValid: "Track data type not valid",
} as const;

/**
 * Spec 001 §5 "Track id must be numeric (leading digits from the path)". No leading digits is an
 * invalid parameter; more digits than an id has is not an id either.
 */
export function trackKeyOf(segment: string | undefined): string {
  const digits = /^\d+/.exec(segment ?? "")?.[0];
  if (!digits || digits.length > 15) throw new SiteError("invalidparam", internalMessages.trackNoId);
  return digits;
}

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
function mediaHref(uri: string | undefined): string | undefined {
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

function albumNameOf(track: Track): string | undefined {
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

/** The track's video on the video site (spec 002 §2, §4), when the data has one. */
export type TrackVideo = {
  watch: string;
  embed: string;
  /** The 520x280 preview image (spec 002 §9). */
  image: Image;
  artTrack: boolean;
  /** Spec 002 §4: a negative offset delays play by that many ms. */
  offsetMs: number;
};

/** The video site is the embedded origin's (origin/routes/video.ts): only its addresses are followed. */
const videoSitePath = /^\/services\/video\/(watch|embed)\/\d{1,15}$/;
const videoImagePath = /^\/media\/videos\/\d{1,15}\.jpg$/;

function videoOf(track: Track): TrackVideo | undefined {
  for (const section of track.sections) {
    if (section.type !== "VIDEO") continue;
    const { watchurl, embedurl, image } = section;
    if (!videoSitePath.test(watchurl) || !videoSitePath.test(embedurl) || !videoImagePath.test(image))
      continue;
    return {
      watch: watchurl,
      embed: embedurl,
      image: { src: image, srcSet: `${image} 1x`, width: 520, height: 280 },
      artTrack: section.arttrack,
      offsetMs: section.offset ?? 0,
    };
  }
  return undefined;
}

/** A row of the related list, where it sits in the page's playlist, and how often it was identified. */
export type RelatedTrack = TrackSummary & {
  playlistIndex: number | undefined;
  count: { total: number; formatted: string } | undefined;
};

export type TrackLyrics = {
  lines: string[];
  footer: string;
  provider: string;
  demo: boolean;
  /** Present after a web match while the song can still be followed. */
  synced: { lines: SyncedLine[]; sync: LyricsSync; initial: SyncedLyricsState } | undefined;
};

export type TrackPageInput = {
  /** The track segment of the path, as written ("123", "123abc"). */
  keySegment: string | undefined;
  search: URLSearchParams;
  userAgent: string | null;
  /** Origin of the request, for absolute share and meta URLs. */
  origin: string;
  now: Date;
};

function siteErrorOf(error: unknown): SiteError | undefined {
  return error instanceof SiteError ? error : undefined;
}

/** Optional parts of the page: a failure leaves the part out instead of failing the page. */
async function optional<T>(what: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    const siteError = siteErrorOf(error);
    if (!siteError) throw error;
    console.warn(`track page: no ${what}: ${siteError.type} ${siteError.message}`);
    return undefined;
  }
}

/** `GET /services/count/v2/web/tracks?id=1&id=2…` (spec 001 §7 tag count list). */
export function tagCountListPath(keys: readonly string[]): string {
  return `/services/count/v2/web/tracks?${keys.map((key) => `id=${encodeURIComponent(key)}`).join("&")}`;
}

function withQuery(path: string, query: Record<string, string>): string {
  const url = new URL(path, "https://services.internal");
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}

/** Spec 001 §2 parameters passed on to the track call (spec 001 §7 "with itsct and trackLength"). */
const trackCallQuerySchema = v.object({
  itsct: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/))),
  trackLength: v.optional(v.pipe(v.string(), v.regex(/^\d{1,8}$/))),
});

function trackCallPath(
  edge: Pick<AppLoadContext["edge"], "lang" | "country">,
  key: string,
  search: URLSearchParams,
): string {
  const { lang, country } = edge;
  const query: Record<string, string> = {};
  for (const name of ["itsct", "trackLength"] as const) {
    const value = search.get(name);
    const parsed = v.safeParse(trackCallQuerySchema.entries[name], value ?? undefined);
    if (value !== null && parsed.success) query[name] = value;
  }
  const storefront = /^[A-Z]{2}$/.test(country) && findCountry(country) ? country : defaultStorefront;
  // Always /web/: the /iphone/ variant (spec 001 §7) answers app links (music://, spotify:) that
  // a page's store list drops (webHref); see docs/calls.md.
  return withQuery(`/services/track/v1/${lang}/${storefront}/web/${key}`, query);
}

/**
 * The track page (spec 001 §2 /track/{trackKey}/{alias}), shared by the React route and amp/.
 * Fails with `invalidparam` (no numeric id), `notfound` (no such track) or `baddata` (a track of
 * another type, or data that is not a track). The caller compares `alias` with the address and
 * redirects to `path` when they differ.
 */
export async function loadTrackPage(
  { edge, services }: Pick<AppLoadContext, "edge" | "services">,
  input: TrackPageInput,
) {
  const key = trackKeyOf(input.keySegment);
  const track = await loadTrack(services, trackCallPath(edge, key, input.search));
  const now = input.now.getTime();

  const sections = new Map(track.sections.map((section) => [section.type, section]));
  const artistSection = sections.get("ARTIST");
  const lyricsSection = sections.get("LYRICS");
  const relatedSection = sections.get("RELATED");
  const artistData = artistSection?.type === "ARTIST" ? artistSection : undefined;
  const lyricsData = lyricsSection?.type === "LYRICS" ? lyricsSection : undefined;
  const sync = lyricsData?.url ? readLyricsSync(input.search, track.durationMs) : undefined;
  const syncStillAhead = sync !== undefined && now <= trackStartOf(sync) + sync.trackLength;

  const [related, count, topSongs, synced] = await Promise.all([
    relatedSection?.type === "RELATED"
      ? optional("related tracks", () =>
          services.getJson(
            withQuery(relatedSection.url, { limit: String(relatedLimit) }),
            relatedTracksSchema,
          ),
        )
      : undefined,
    // Spec 001 §5 "Tag count applies only to tracks of type MUSIC".
    track.type === "MUSIC"
      ? optional("tag count", () =>
          services.getJson(`/services/count/v2/web/track/${track.key}`, tagCountSchema),
        )
      : undefined,
    artistData
      ? optional("top songs", () =>
          services.getJson(
            withQuery(artistData.toptracks.url, { limit: String(artistTopSongsLimit + 1) }),
            artistViewSchema,
          ),
        )
      : undefined,
    lyricsData?.url && syncStillAhead
      ? optional("synced lyrics", () => services.getJson(lyricsData.url ?? "", syncedLyricsSchema))
      : undefined,
  ]);

  // Spec 001 §7 "a tag count list using repeated id= parameters": one call for the whole list.
  const relatedKeys = (related?.tracks ?? []).map((summary) => summary.key).filter((k) => k !== track.key);
  const relatedCounts = new Map(
    (relatedKeys.length > 0
      ? ((await optional("tag counts", () =>
          services.getJson(tagCountListPath(relatedKeys), tagCountListSchema),
        )) ?? [])
      : []
    ).map((item) => [item.id, item.total]),
  );
  const countOf = (total: number | undefined) =>
    total === undefined ? undefined : { total, formatted: numberFormat(edge.locale).format(total) };

  const preview = previewOf(track);
  const playlist: PlaylistEntry[] = [];
  if (preview) {
    playlist.push({
      key: track.key,
      title: track.title,
      artist: track.subtitle,
      src: preview,
      // A campaign, video or programme is a one-off, not the first song of a playlist.
      playlistBreak: track.type !== "MUSIC",
    });
  }
  const relatedTracks: RelatedTrack[] = (related?.tracks ?? [])
    .filter((summary) => summary.key !== track.key)
    .map((summary) => {
      const src = mediaHref(summary.previewurl);
      let playlistIndex: number | undefined;
      if (src) {
        playlistIndex = playlist.length;
        playlist.push({
          key: summary.key,
          title: summary.title,
          artist: summary.subtitle,
          src,
          playlistBreak: false,
        });
      }
      return {
        ...trackSummaryOfPayload(summary, edge.lang),
        playlistIndex,
        count: countOf(relatedCounts.get(summary.key)),
      };
    });

  const total = count?.total ?? (track.type === "MUSIC" ? track.properties.numberOfShazams : undefined);
  const template = track.images.template;
  const cover = template
    ? imageFromTemplate(template, coverWidths)
    : imageOfArtworkUrl(track.images.default, coverWidths);
  const shareImage = template
    ? imageFromTemplate(template, [shareImageWidth])
    : imageOfArtworkUrl(track.images.coverarthq ?? track.images.default, [shareImageWidth]);
  const path = trackPathOf(edge.lang, track);
  const platform = storePlatformOf(input.userAgent, edge.params.device);
  const artistHref = artistData ? localizedPath(edge.lang, artistData.url) : undefined;

  let lyrics: TrackLyrics | undefined;
  if (lyricsData) {
    lyrics = {
      lines: lyricsData.text,
      footer: lyricsData.footer,
      provider: lyricsData.beacondata.providername,
      demo: lyricsData.demo,
      synced:
        sync && synced && synced.syncedtext.length > 0
          ? { lines: synced.syncedtext, sync, initial: syncedLyricsState(sync, synced.syncedtext, now) }
          : undefined,
    };
  }

  return {
    key: track.key,
    alias: track.alias,
    /** The page's own address, language prefix included. */
    path,
    type: track.type,
    title: track.title,
    artist: {
      name: artistData?.name ?? track.subtitle,
      href: artistHref,
      avatar: artistData ? imageOfArtworkUrl(artistData.avatar, trackImageWidths) : undefined,
      topSongs: (topSongs?.data ?? [])
        .flatMap((item) => (item.type === "songs" ? [item] : []))
        .filter((song) => song.attributes.shazamKey !== track.key)
        .slice(0, artistTopSongsLimit)
        .map((song) => trackSummaryOfSong(song, edge.lang, input.now)),
    },
    cover,
    shareImage,
    background: headingBackgroundOf(track),
    isNewRelease: isNewRelease(track.dateInfo.releaseDate, input.now),
    details: {
      album: albumNameOf(track),
      released: releasedText(track.dateInfo, edge.locale),
      releaseDate: track.dateInfo.releaseDate,
      genre: track.genres.primary,
      durationMs: track.durationMs,
      duration: clockDuration(track.durationMs),
      durationIso: isoDuration(track.durationMs),
    },
    count: total === undefined ? undefined : { total, formatted: numberFormat(edge.locale).format(total) },
    platform,
    stores: orderedStores(track.stores, platform),
    playlist,
    /** The main track's place in the playlist; undefined without a preview. */
    mainIndex: preview ? 0 : undefined,
    related: relatedTracks,
    lyrics,
    video: videoOf(track),
    share: shareLinks(track.share, input.origin),
    credits: {
      licence: track.licence.name,
      copyright: track.licence.copyright,
      package: track.source.binaryPackage,
      version: track.source.version,
      packageHref: `https://packages.debian.org/${encodeURIComponent(track.source.binaryPackage)}`,
    },
  };
}

export type TrackPage = Awaited<ReturnType<typeof loadTrackPage>>;

/** The canonical address of a track (`/track/{key}` redirects there): the track call alone. */
export async function loadTrackPath(
  { edge, services }: Pick<AppLoadContext, "edge" | "services">,
  keySegment: string | undefined,
  search: URLSearchParams,
): Promise<string> {
  const key = trackKeyOf(keySegment);
  const track = await loadTrack(services, trackCallPath(edge, key, search));
  return trackPathOf(edge.lang, track);
}

function trackPathOf(lang: LanguageKey, track: Pick<Track, "key" | "alias">): string {
  return localizedPath(lang, `/track/${track.key}/${encodeURIComponent(track.alias)}`);
}

/** The track call: an unknown track is not found; a payload of another type is a data error. */
async function loadTrack(services: AppLoadContext["services"], path: string): Promise<Track> {
  try {
    return await services.getJson(path, trackSchema);
  } catch (error) {
    const siteError = siteErrorOf(error);
    if (!siteError) throw error;
    if (siteError.type === "serviceerror" && siteError.status === 404) {
      throw new SiteError("notfound", `No track at ${path}`, { status: 404 });
    }
    if (siteError.type === "baddata" && siteError.message.includes(internalMessages.typeNotValid)) {
      throw new SiteError("baddata", internalMessages.typeNotValid);
    }
    throw siteError;
  }
}

/** schema.org MusicRecording of the page (spec issue: JSON-LD on every page). */
export function musicRecordingJsonLd(page: TrackPage, origin: string): Record<string, unknown> {
  const absolute = (path: string) => new URL(path, origin).href;
  return {
    "@context": "https://schema.org",
    "@type": "MusicRecording",
    name: page.title,
    url: absolute(page.path),
    image: absolute(page.shareImage.src),
    duration: page.details.durationIso,
    datePublished: page.details.releaseDate,
    genre: page.details.genre,
    byArtist: {
      "@type": "MusicGroup",
      name: page.artist.name,
      ...(page.artist.href ? { url: absolute(page.artist.href) } : {}),
    },
    ...(page.details.album ? { inAlbum: { "@type": "MusicAlbum", name: page.details.album } } : {}),
    // Spec 001 §9 "Lyric sample 150 characters": what a search engine may quote, never the whole text.
    ...(page.lyrics && page.lyrics.lines.length > 0
      ? {
          recordingOf: {
            "@type": "MusicComposition",
            name: page.title,
            lyrics: { "@type": "CreativeWork", text: lyricExcerpt(page.lyrics.lines, lyricSampleLength) },
          },
        }
      : {}),
  };
}

/** The track page's head, for the React route and its AMP form. */
export function trackPageMeta(
  page: TrackPage,
  context: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
  t: Translate,
): PageMeta {
  const names = { title: page.title, artist: page.artist.name };
  return {
    ...requestMeta(context, request),
    title: t("track:metaTitle", names),
    // Spec 001 §9 "snippet 100 characters": the lyrics' opening after the page's own description.
    description: page.lyrics?.lines.length
      ? `${t("track:metaDescription", names)} — ${lyricExcerpt(page.lyrics.lines, lyricSnippetLength)}`
      : t("track:metaDescription", names),
    type: "music.song",
    image: {
      url: absoluteUrl(context, page.shareImage.src),
      width: page.shareImage.width,
      height: page.shareImage.height,
      alt: t("track:coverAlt", names),
    },
    jsonLd: musicRecordingJsonLd(page, siteOriginOf(context.config)),
    song: {
      durationSeconds: Math.round(page.details.durationMs / 1000),
      musicianUrl: page.artist.href ? absoluteUrl(context, page.artist.href) : undefined,
    },
  };
}
