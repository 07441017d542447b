import { type AppLoadContext, type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import * as v from "valibot";
import { playlistTile, shortDescription } from "#app/artist/artist.server.ts";
import { loadContentPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings, type Translate } from "#app/shell/i18n.server.ts";
import { absoluteUrl, requestMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import {
  addToPlaylist,
  type Image,
  imageFromTemplate,
  imageOfArtworkUrl,
  type PlaylistEntry,
  trackHref,
} from "#app/shell/view.ts";
import { clockDuration, isoDuration, previewOf } from "#app/track/track-payload.server.ts";
import {
  albumPath,
  catalogPlaylistPath,
  customAlbumPath,
  customAlbumTracksPath,
  customPlaylistsByAlbumPath,
  customPlaylistTracksPath,
  isNumericId,
  parseArtistPath,
  playlistPath,
  storefrontOf,
} from "#rules/addresses.ts";
import { catalogueImageWidths, darkenForWhiteText, trackImageWidths } from "#rules/content-rules.ts";
import { SiteError } from "#rules/errors.ts";
import { dateTimeFormat, numberFormat } from "#rules/intl.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import {
  albumsDocumentSchema,
  playlistsDocumentSchema,
  type Song,
  shazamTracksSchema,
} from "#rules/schemas/amapi.ts";
import { cataloguePlaylistIdSchema } from "#rules/schemas/catalogue.ts";
import type { Track } from "#rules/schemas/track.ts";

/**
 * The album and playlist pages (spec 001 §3 "Catalogue item", §7 custom calls): the item from the
 * catalogue, its tracks in the track service's shape (`shazamtracks`, which carries each track's
 * preview, artist and identification count), and for an album the playlists it is in. Shared by
 * the React routes and their AMP forms.
 */

type Context = Pick<AppLoadContext, "edge" | "services">;

export type CatalogueItemKind = "album" | "playlist";

/** The id of `/album/{id}/{alias}` (the catalogue's numeric id), or not found: an id that is not one names no album. */
export function albumIdOf(segment: string | undefined): string {
  if (!segment || !isNumericId(segment)) throw new SiteError("notfound", `No album ${segment}`);
  return segment;
}

/**
 * The id of `/playlist/{id}`, or not found. A playlist id is the catalogue's `pl.` id; chart lists,
 * which the catalogue also answers as playlists, have pages of their own (the charts).
 */
export function playlistIdOf(segment: string | undefined): string {
  if (!segment || !v.is(cataloguePlaylistIdSchema, segment))
    throw new SiteError("notfound", `No playlist ${segment}`);
  return segment;
}

/** One row of an album's or playlist's track list. */
export type ItemTrack = {
  key: string;
  title: string;
  artist: string;
  /** The artist's page, when the track data names one. */
  artistHref: string | undefined;
  href: string;
  cover: Image;
  /** The place in the list, from 1. */
  position: number;
  duration: string | undefined;
  durationIso: string | undefined;
  count: { total: number; formatted: string } | undefined;
  /** Where the track sits in the page's playlist; undefined without a preview. */
  playlistIndex: number | undefined;
};

/** A playlist of the album's "featured in" tiles. */
export type ItemTile = { key: string; title: string; subtitle: string; href: string; image: Image };

/** An upstream 404 (or not found) is this item's not-found page. */
async function orNotFound<T>(load: () => Promise<T>, message: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof SiteError && (error.type === "notfound" || error.status === 404))
      throw new SiteError("notfound", message);
    throw error;
  }
}

function artistHrefOf(track: Track, lang: LanguageKey): string | undefined {
  const section = track.sections.find((entry) => entry.type === "ARTIST");
  return section && parseArtistPath(section.url) ? localizedPath(lang, section.url) : undefined;
}

/**
 * The rows and the page's playlist: the tracks in the track service's shape, with each song's
 * number and length from the catalogue when it has the song.
 */
function itemTracks(
  tracks: readonly Track[],
  songs: readonly Song[],
  { lang, locale }: { lang: LanguageKey; locale: string },
): { tracks: ItemTrack[]; playlist: PlaylistEntry[] } {
  const songOf = new Map(songs.map((song) => [song.attributes.shazamKey, song]));
  const playlist: PlaylistEntry[] = [];
  const number = numberFormat(locale);
  const rows = tracks.map((track, index): ItemTrack => {
    const song = songOf.get(track.key);
    const playlistIndex = addToPlaylist(playlist, track, previewOf(track));
    const template = track.images.template;
    const total = track.type === "MUSIC" ? track.properties.numberOfShazams : undefined;
    return {
      key: track.key,
      title: track.title,
      artist: track.subtitle,
      artistHref: artistHrefOf(track, lang),
      href: trackHref(lang, track.key, track.alias),
      cover: template
        ? imageFromTemplate(template, trackImageWidths)
        : imageOfArtworkUrl(track.images.coverart, trackImageWidths),
      // The place in the list: track numbers repeat on each disc, and a playlist has its own order.
      position: index + 1,
      duration: song ? clockDuration(song.attributes.durationInMillis) : undefined,
      durationIso: song ? isoDuration(song.attributes.durationInMillis) : undefined,
      count: total === undefined ? undefined : { total, formatted: number.format(total) },
      playlistIndex,
    };
  });
  return { tracks: rows, playlist };
}

function dateLabel(date: string, locale: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time)
    ? date
    : dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(time);
}

function totalDuration(songs: readonly Song[]): string | undefined {
  const ms = songs.reduce((sum, song) => sum + song.attributes.durationInMillis, 0);
  return ms > 0 ? clockDuration(ms) : undefined;
}

/** The share text of an item: the spec's share options (002 §9) with the item's own words. */
export type ItemShare = { subject: string; text: string };

/** `/album/{id}/{alias}`: the album, its tracks, its credits and the playlists it is in. */
export async function loadAlbumPage(context: Context, idSegment: string | undefined, t: Translate) {
  const { edge, services } = context;
  const id = albumIdOf(idSegment);
  const country = storefrontOf(edge.country);
  const [document, shazamTracks, featuredIn] = await Promise.all([
    orNotFound(() => services.getJson(customAlbumPath(country, id), albumsDocumentSchema), `No album ${id}`),
    orNotFound(
      () => services.getJson(customAlbumTracksPath(edge.lang, country, id), shazamTracksSchema),
      `No album ${id}`,
    ),
    // The playlists are a part of the page, not the page: without them it still answers.
    services
      .getJson(customPlaylistsByAlbumPath(edge.lang, country, id), playlistsDocumentSchema)
      .catch((error: unknown) => {
        if (!(error instanceof SiteError)) throw error;
        console.warn(`album page: no playlists: ${error.type} ${error.message}`);
        return { data: [] };
      }),
  ]);
  const album = document.data[0];
  if (!album) throw new SiteError("notfound", `No album ${id}`);
  const { attributes } = album;
  const songs = album.relationships?.tracks?.data ?? [];
  const { tracks, playlist } = itemTracks(shazamTracks.tracks, songs, edge);
  // The album's artist: the first track by the album's artist names them and their page.
  const byAlbumArtist = tracks.find((track) => track.artist === attributes.artistName);
  return {
    kind: "album" as const,
    id: album.id,
    alias: attributes.alias,
    path: localizedPath(edge.lang, albumPath(album.id, attributes.alias)),
    name: attributes.name,
    artist: { name: attributes.artistName, href: byAlbumArtist?.artistHref },
    artwork: imageFromTemplate(attributes.artwork.url, catalogueImageWidths),
    /** The artwork's colour behind white text, darkened to the contrast target (spec 001 §9). */
    background: darkenForWhiteText(`#${attributes.artwork.bgColor}`),
    notes: attributes.editorialNotes?.standard,
    kindLabel: attributes.isSingle ? t("catalogue:single") : t("catalogue:album"),
    facts: [
      attributes.releaseDate.slice(0, 4),
      attributes.genreNames[0],
      t("artist:trackCount", { count: attributes.trackCount }),
      totalDuration(songs),
    ].filter((fact): fact is string => Boolean(fact)),
    listenHref: webHrefOf(attributes.url),
    tracks,
    playlist,
    credits: {
      released: dateLabel(attributes.releaseDate, edge.locale),
      releaseDate: attributes.releaseDate,
      label: attributes.recordLabel,
      copyright: attributes.copyright,
      genre: attributes.genreNames[0],
    },
    featuredIn: featuredIn.data.map((item) => playlistTile(item, edge.lang)),
    share: {
      subject: attributes.name,
      text: t("catalogue:albumShareText", { name: attributes.name, artist: attributes.artistName }),
    } satisfies ItemShare,
  };
}

export type AlbumPage = Awaited<ReturnType<typeof loadAlbumPage>>;

/** `/playlist/{id}`: the playlist, its curator and description, and its tracks. */
export async function loadPlaylistPage(context: Context, idSegment: string | undefined, t: Translate) {
  const { edge, services } = context;
  const id = playlistIdOf(idSegment);
  const country = storefrontOf(edge.country);
  const [document, shazamTracks] = await Promise.all([
    orNotFound(
      () => services.getJson(catalogPlaylistPath(country, id), playlistsDocumentSchema),
      `No playlist ${id}`,
    ),
    orNotFound(
      () => services.getJson(customPlaylistTracksPath(edge.lang, country, id), shazamTracksSchema),
      `No playlist ${id}`,
    ),
  ]);
  const item = document.data[0];
  if (!item) throw new SiteError("notfound", `No playlist ${id}`);
  const { attributes } = item;
  const songs = item.relationships?.tracks?.data ?? [];
  const { tracks, playlist } = itemTracks(shazamTracks.tracks, songs, edge);
  return {
    kind: "playlist" as const,
    id: item.id,
    path: localizedPath(edge.lang, playlistPath(item.id)),
    name: attributes.name,
    curator: attributes.curatorName,
    artwork: imageFromTemplate(attributes.artwork.url, catalogueImageWidths),
    /** The artwork's colour behind white text, darkened to the contrast target (spec 001 §9). */
    background: darkenForWhiteText(`#${attributes.artwork.bgColor}`),
    notes: attributes.description?.standard,
    kindLabel: t("catalogue:playlist"),
    facts: [
      t("artist:trackCount", { count: attributes.trackCount }),
      totalDuration(songs),
      attributes.lastModifiedDate
        ? t("catalogue:updated", { date: dateLabel(attributes.lastModifiedDate, edge.locale) })
        : undefined,
    ].filter((fact): fact is string => Boolean(fact)),
    listenHref: webHrefOf(attributes.url),
    lastModified: attributes.lastModifiedDate,
    tracks,
    playlist,
    share: {
      subject: attributes.name,
      text: t("catalogue:playlistShareText", { name: attributes.name, curator: attributes.curatorName }),
    } satisfies ItemShare,
  };
}

export type PlaylistPage = Awaited<ReturnType<typeof loadPlaylistPage>>;

/** Only web addresses leave the site: an upstream `javascript:` or app scheme is dropped. */
function webHrefOf(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function recordingsJsonLd(tracks: readonly ItemTrack[], context: Pick<AppLoadContext, "config">) {
  return tracks.map((track) => ({
    "@type": "MusicRecording",
    name: track.title,
    url: absoluteUrl(context, track.href),
    position: track.position,
    byArtist: { "@type": "MusicGroup", name: track.artist },
    ...(track.durationIso ? { duration: track.durationIso } : {}),
  }));
}

/** What an item page's head is made of besides the page. */
type ItemMetaArgs = [context: Pick<AppLoadContext, "edge" | "config">, request: Request, t: Translate];

const itemSchemaTypes = { album: "MusicAlbum", playlist: "MusicPlaylist" } as const;

/**
 * An item page's head, for the React route and its AMP form: title and description in the kind's
 * words (`names` fill them), the artwork as the share image, and the schema.org item (MusicAlbum,
 * MusicPlaylist) with `about`, what only the kind says, before its tracks.
 */
function itemPageMeta(
  page: AlbumPage | PlaylistPage,
  [context, request, t]: ItemMetaArgs,
  names: Record<string, string>,
  about: Record<string, unknown>,
): PageMeta {
  const base = requestMeta(context, request);
  const image = absoluteUrl(context, page.artwork.src);
  return {
    ...base,
    title: t(`catalogue:${page.kind}MetaTitle`, names),
    description: page.notes
      ? shortDescription(page.notes)
      : t(`catalogue:${page.kind}MetaDescription`, names),
    type: `music.${page.kind}`,
    image: {
      url: image,
      width: page.artwork.width,
      height: page.artwork.height,
      alt: t("catalogue:artworkAlt", { name: page.name }),
    },
    jsonLd: {
      "@context": "https://schema.org",
      "@type": itemSchemaTypes[page.kind],
      name: page.name,
      url: base.canonical,
      image,
      ...about,
      numTracks: page.tracks.length,
      track: recordingsJsonLd(page.tracks, context),
    },
  };
}

/** The album page's head (MusicAlbum). */
export function albumPageMeta(page: AlbumPage, ...args: ItemMetaArgs): PageMeta {
  const [context] = args;
  return itemPageMeta(
    page,
    args,
    { name: page.name, artist: page.artist.name },
    {
      datePublished: page.credits.releaseDate,
      ...(page.credits.genre ? { genre: page.credits.genre } : {}),
      byArtist: {
        "@type": "MusicGroup",
        name: page.artist.name,
        ...(page.artist.href ? { url: absoluteUrl(context, page.artist.href) } : {}),
      },
      ...(page.credits.label ? { recordLabel: { "@type": "Organization", name: page.credits.label } } : {}),
    },
  );
}

/** The playlist page's head (MusicPlaylist). */
export function playlistPageMeta(page: PlaylistPage, ...args: ItemMetaArgs): PageMeta {
  return itemPageMeta(
    page,
    args,
    { name: page.name, curator: page.curator },
    {
      ...(page.notes ? { description: page.notes } : {}),
      author: { "@type": "Organization", name: page.curator },
      ...(page.lastModified ? { dateModified: page.lastModified } : {}),
    },
  );
}

/**
 * The loader data of an album or playlist page: the item (not found: content no longer available,
 * `loadContentPage`), its head, and its strings. An address that spells the id or alias otherwise
 * moves to the item's own (301).
 */
export async function catalogueItemRouteData<TPage extends { id: string; path: string; alias?: string }>(
  { params, context, request }: Pick<LoaderFunctionArgs, "params" | "context" | "request">,
  loadItem: (context: Context, idSegment: string | undefined, t: Translate) => Promise<TPage>,
  metaOf: (page: TPage, context: AppLoadContext, request: Request, t: Translate) => PageMeta,
) {
  requireKnownLanguage(params);
  const { t } = serverStrings(context.edge.lang);
  const page = await loadContentPage(() => loadItem(context, params.id, t));
  if (params.id !== page.id || params.alias !== page.alias)
    throw redirect(`${page.path}${new URL(request.url).search}`, 301);
  const meta = metaOf(page, context, request, t);
  const strings = pickResources(context.edge.lang, ["catalogue", "track"]);
  return { page, meta, strings: strings.catalogue, trackStrings: strings.track };
}
