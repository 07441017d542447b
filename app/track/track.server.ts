import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Translate } from "#app/shell/i18n.server.ts";
import { absoluteUrl, requestMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import { trackSummaryOfSong } from "#app/shell/view.server.ts";
import type { Image, PlaylistEntry, TrackSummary } from "#app/shell/view.ts";
import {
  addToPlaylist,
  imageFromTemplate,
  imageOfArtworkUrl,
  trackHref,
  trackSummaryOfPayload,
} from "#app/shell/view.ts";
import {
  catalogSongCreditsPath,
  storefrontOf,
  tagCountListServicePath,
  tagCountServicePath,
  withQuery,
} from "#rules/addresses.ts";
import {
  isNewRelease,
  lyricExcerpt,
  lyricSampleLength,
  lyricSnippetLength,
  trackImageWidths,
} from "#rules/content-rules.ts";
import { siteOriginOf } from "#rules/env.ts";
import { numberFormat } from "#rules/intl.ts";
import { localizedPath } from "#rules/path.ts";
import { artistViewSchema, creditsDocumentSchema } from "#rules/schemas/amapi.ts";
import { syncedLyricsSchema } from "#rules/schemas/lyrics.ts";
import { tagCountListSchema, tagCountSchema } from "#rules/schemas/tagcount.ts";
import { relatedTracksSchema, type Track } from "#rules/schemas/track.ts";
import {
  type LyricsSync,
  type SyncedLine,
  type SyncedLyricsState,
  syncedLyricsState,
  trackStartOf,
} from "./synced-lyrics";
import { readLyricsSync } from "./synced-lyrics.server";
import { loadTrack, optional, trackCallPath, trackKeyOf } from "./track-calls.server";
import {
  albumNameOf,
  artistTopSongsLimit,
  clockDuration,
  coverWidths,
  headingBackgroundOf,
  isoDuration,
  mediaHref,
  orderedStores,
  previewOf,
  relatedLimit,
  releasedText,
  shareImageWidth,
  shareLinks,
  storePlatformOf,
} from "./track-payload.server";

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
  count: TrackCountView | undefined;
};

/**
 * How often a track was identified, as a page shows it. `demo`: the number includes the demo
 * catalogue's seeded count (decision 032), so it is labelled as demo data, like the lyrics.
 */
export type TrackCountView = { total: number; formatted: string; demo: boolean };

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
  /** The `syncedlyrics` flag (spec 001 §4): off, the lyrics are shown as plain text only. */
  syncedLyrics: boolean;
};

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
  const sync =
    input.syncedLyrics && lyricsData?.url ? readLyricsSync(input.search, track.durationMs) : undefined;
  const syncStillAhead = sync !== undefined && now <= trackStartOf(sync) + sync.trackLength;

  const [related, count, topSongs, synced, songCredits] = await Promise.all([
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
      ? optional("tag count", () => services.getJson(tagCountServicePath(track.key), tagCountSchema))
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
    optional("song credits", () =>
      services.getJson(
        catalogSongCreditsPath(storefrontOf(edge.country), track.trackadamid, edge.locale),
        creditsDocumentSchema,
      ),
    ),
  ]);

  // Spec 001 §7 "a tag count list using repeated id= parameters": one call for the whole list.
  const relatedKeys = (related?.tracks ?? []).map((summary) => summary.key).filter((k) => k !== track.key);
  const relatedCounts = new Map(
    (relatedKeys.length > 0
      ? ((await optional("tag counts", () =>
          services.getJson(tagCountListServicePath(relatedKeys), tagCountListSchema),
        )) ?? [])
      : []
    ).map((item) => [item.id, item]),
  );
  const countOf = (
    item: { total: number; demo?: boolean | undefined } | undefined,
  ): TrackCountView | undefined =>
    item === undefined
      ? undefined
      : {
          total: item.total,
          formatted: numberFormat(edge.locale).format(item.total),
          demo: item.demo === true,
        };

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
      return {
        ...trackSummaryOfPayload(summary, edge.lang),
        playlistIndex: addToPlaylist(playlist, summary, mediaHref(summary.previewurl)),
        count: countOf(relatedCounts.get(summary.key)),
      };
    });

  // Without the tag count, the track's own number, which does not say whether it is seeded.
  const trackCount =
    count ?? (track.type === "MUSIC" ? { total: track.properties.numberOfShazams } : undefined);
  const template = track.images.template;
  const cover = template
    ? imageFromTemplate(template, coverWidths)
    : imageOfArtworkUrl(track.images.default, coverWidths);
  const shareImage = template
    ? imageFromTemplate(template, [shareImageWidth])
    : imageOfArtworkUrl(track.images.coverarthq ?? track.images.default, [shareImageWidth]);
  const path = trackHref(edge.lang, track.key, track.alias);
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
    count: countOf(trackCount),
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
      /** Who performed and wrote the song, by category (the song's credits call); none when it failed. */
      people: (songCredits?.data ?? []).map((category) => ({
        kind: category.attributes.kind,
        title: category.attributes.title,
        names: category.relationships["credit-artists"].data.map((artist) => artist.attributes.name),
      })),
      licence: track.licence.name,
      copyright: track.licence.copyright,
      package: track.source.binaryPackage,
      version: track.source.version,
      packageHref: `https://packages.debian.org/${encodeURIComponent(track.source.binaryPackage)}`,
    },
  };
}

export type TrackPage = Awaited<ReturnType<typeof loadTrackPage>>;

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
