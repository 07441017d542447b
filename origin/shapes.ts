import type * as v from "valibot";
import type { AlbumRow } from "#origin/db/albums.ts";
import type { ArtistRow } from "#origin/db/artists.ts";
import type { LyricsRow } from "#origin/db/lyrics.ts";
import type { PlaylistRow } from "#origin/db/playlists.ts";
import type { TrackRow } from "#origin/db/tracks.ts";
import {
  artistPagePath,
  catalogArtistViewPath,
  relatedTracksServicePath,
  syncedLyricsServicePath,
  trackPath,
  videoServicePath,
} from "#rules/addresses.ts";
import { defaultImageWidth, isNewRelease } from "#rules/content-rules.ts";
import type {
  albumSchema,
  artistAttributesSchema,
  playlistSchema,
  songSchema,
} from "#rules/schemas/amapi.ts";
import type { artistSchema } from "#rules/schemas/artist.ts";
import type { StoreName, storeSchema, trackSchema, trackSummarySchema } from "#rules/schemas/track.ts";
import { artTrackPosterUrl, artworkTemplate, artworkUrl, coloursOf, previewUrl } from "./catalog-rules";

/** What an answer depends on besides the rows: the path's country and language, and the time. */
export type AnswerContext = {
  /** ISO code, upper case ("GB"). */
  country: string;
  /** Interface language of the path ("en", "de", "pt-br"). */
  lang: string;
  /** `web`, or `iphone` for the native app's variant of the track URL (spec 001 §7). */
  platform: "web" | "iphone";
  now: Date;
};

type Input<S extends v.GenericSchema> = v.InferInput<S>;

/** The catalogue storefront in paths and hrefs is lower case, as in the Apple Music API. */
export function storefront(ctx: AnswerContext): string {
  return ctx.country.toLowerCase();
}

function searchTerm(...parts: string[]): string {
  return encodeURIComponent(parts.join(" "));
}

/** Plausible store links: each store's own search for the recording. */
export function storeLinks(row: TrackRow, ctx: AnswerContext): Record<StoreName, string> {
  const q = searchTerm(row.title, row.artist_name);
  const sf = storefront(ctx);
  const app = ctx.platform === "iphone";
  return {
    apple: app
      ? `music://music.apple.com/${sf}/search?term=${q}`
      : `https://music.apple.com/${sf}/search?term=${q}`,
    spotify: app ? `spotify:search:${q}` : `https://open.spotify.com/search/${q}`,
    itunes: `https://itunes.apple.com/${sf}/search?term=${q}&media=music`,
    google: `https://play.google.com/store/search?q=${q}&c=music`,
    amazon: `https://music.amazon.com/search/${q}`,
    xboxmusic: `https://www.microsoft.com/${ctx.lang}/search/shop/music?q=${q}`,
  };
}

/** Apple Music's joecolor string: background, then four text colours. */
function joecolor(colours: ReturnType<typeof coloursOf>): string {
  const hex = (c: string) => c.replace("#", "");
  return `b:${colours.bkgcolor}p:${hex(colours.colors.text)}s:${hex(colours.colors.secondaryText)}t:${hex(colours.colors.text)}q:${hex(colours.colors.secondaryText)}`;
}

export function trackPayload(
  row: TrackRow,
  ctx: AnswerContext,
  lyrics: LyricsRow | undefined,
): Input<typeof trackSchema> {
  const sf = storefront(ctx);
  const colours = coloursOf(row.bkgcolor);
  const links = storeLinks(row, ctx);
  const preview = previewUrl(row.key);
  const store = (name: StoreName): Input<typeof storeSchema> => ({
    previewurl: preview,
    explicit: false,
    actions: [{ name: `hub:${name}:searchdeeplink`, type: "uri", uri: links[name] }],
    ...(name === "apple" || name === "itunes" ? { trackid: row.adamid, productid: row.album_id } : {}),
    coverarturl: artworkUrl(row.art_id, 400),
  });
  const year = row.release_date.slice(0, 4);
  const sections: Input<typeof trackSchema>["sections"] = [
    {
      type: "SONG",
      tabname: "Song",
      metadata: [
        { title: "Album", text: row.album_title },
        { title: "Released", text: row.release_precision === "year" ? year : row.release_date },
        {
          title: "Label",
          text: `${row.source_package} (Debian ${row.binary_package} ${row.package_version})`,
        },
        { title: "Licence", text: row.licence },
      ],
      metapages: [
        { image: artworkUrl(row.art_id, 400), caption: row.title },
        { image: artworkUrl(row.artist_art_id, 400), caption: row.artist_name },
      ],
    },
    {
      type: "ARTIST",
      tabname: "Artist",
      id: String(row.artist_id),
      adamid: row.artist_adamid,
      name: row.artist_name,
      avatar: artworkUrl(row.artist_art_id, 400),
      url: artistPagePath(row.artist_alias, row.artist_adamid),
      toptracks: { url: catalogArtistViewPath(sf, row.artist_adamid, "top-songs") },
    },
  ];
  if (lyrics) {
    sections.push({
      type: "LYRICS",
      tabname: "Lyrics",
      text: lyrics.lines,
      footer: lyrics.footer,
      demo: true,
      beacondata: {
        lyricsid: lyrics.lyrics_id,
        providername: lyrics.provider,
        commontrackid: String(row.key),
      },
      url: syncedLyricsServicePath(sf, row.adamid),
    });
  }
  // Every preview has an art track (origin/catalog/art-track.ts), so every track has a video.
  sections.push({
    type: "VIDEO",
    tabname: "Video",
    watchurl: videoServicePath("watch", row.key),
    embedurl: videoServicePath("embed", row.key),
    image: artTrackPosterUrl(row.key),
    arttrack: true,
  });
  sections.push({
    type: "RELATED",
    tabname: "Related",
    url: relatedTracksServicePath(ctx.lang, ctx.country, ctx.platform, row.key),
  });

  return {
    key: String(row.key),
    title: row.title,
    subtitle: row.artist_name,
    heading: { title: row.title, subtitle: row.artist_name },
    type: "MUSIC",
    images: {
      default: artworkUrl(row.art_id, defaultImageWidth),
      coverart: artworkUrl(row.art_id, 300),
      coverarthq: artworkUrl(row.art_id, 800),
      background: artworkUrl(row.artist_art_id, 800),
      joecolor: joecolor(colours),
      template: artworkTemplate(row.art_id),
    },
    url: trackPath(row.key, row.alias),
    alias: row.alias,
    layout: "5",
    sections,
    hub: {
      type: "APPLEMUSIC",
      displayname: "APPLE MUSIC",
      actions: [
        { name: "apple", type: "applemusicplay", id: row.adamid },
        { name: "apple", type: "uri", uri: preview },
      ],
      options: [
        {
          caption: "OPEN IN APPLE MUSIC",
          actions: [{ name: "hub:applemusic:deeplink", type: "applemusicopen", uri: links.apple }],
        },
      ],
      providers: [
        {
          caption: "Open in Spotify",
          type: "SPOTIFY",
          actions: [{ name: "hub:spotify:searchdeeplink", type: "uri", uri: links.spotify }],
        },
        {
          caption: "Open in Amazon Music",
          type: "AMAZON",
          actions: [{ name: "hub:amazon:searchdeeplink", type: "uri", uri: links.amazon }],
        },
      ],
      explicit: false,
    },
    stores: {
      apple: store("apple"),
      spotify: store("spotify"),
      itunes: store("itunes"),
      google: store("google"),
      amazon: store("amazon"),
      xboxmusic: store("xboxmusic"),
    },
    share: {
      href: trackPath(row.key, row.alias),
      subject: `${row.title} - ${row.artist_name}`,
      text: `I used Tunewave to discover ${row.title} by ${row.artist_name}.`,
      image: artworkUrl(row.art_id, 400),
      twitter: `I used @Tunewave to discover ${row.title} by ${row.artist_name}.`,
    },
    properties: {
      numberOfShazams: row.total,
      colors: colours.colors,
      bkgcolor: colours.bkgcolor,
      bkglight: colours.bkglight,
      bkgblack: colours.bkgblack,
      whiteContrast: colours.whiteContrast,
    },
    artists: [{ id: String(row.artist_id), adamid: row.artist_adamid }],
    albumadamid: row.album_id,
    trackadamid: row.adamid,
    isNewRelease: isNewRelease(row.release_date, ctx.now),
    dateInfo: { releaseDate: row.release_date, precision: row.release_precision, addedDate: row.added_date },
    genres: { primary: row.genre_name },
    durationMs: row.duration_ms,
    licence: { name: row.licence, copyright: row.copyright },
    source: {
      package: row.source_package,
      binaryPackage: row.binary_package,
      version: row.package_version,
      file: row.source_file,
    },
  };
}

export function trackSummary(row: TrackRow): Input<typeof trackSummarySchema> {
  const colours = coloursOf(row.bkgcolor);
  return {
    key: String(row.key),
    title: row.title,
    subtitle: row.artist_name,
    alias: row.alias,
    url: trackPath(row.key, row.alias),
    images: {
      default: artworkUrl(row.art_id, defaultImageWidth),
      coverart: artworkUrl(row.art_id, 300),
      template: artworkTemplate(row.art_id),
    },
    artists: [{ id: String(row.artist_id), adamid: row.artist_adamid }],
    trackadamid: row.adamid,
    previewurl: previewUrl(row.key),
    properties: { bkgcolor: colours.bkgcolor, bkglight: colours.bkglight },
  };
}

function artwork(artId: string, bkgcolor: string) {
  const colours = coloursOf(bkgcolor);
  return {
    url: artworkTemplate(artId),
    width: 800,
    height: 800,
    bgColor: colours.bkgcolor,
    textColor1: colours.colors.text.slice(1),
    textColor2: colours.colors.secondaryText.slice(1),
  };
}

function appleLink(ctx: AnswerContext, ...terms: string[]): string {
  return `https://music.apple.com/${storefront(ctx)}/search?term=${searchTerm(...terms)}`;
}

export type Relate = {
  /** relate[songs]=artists: artist references on each song. */
  artists: boolean;
  /** include=artists: those references carry the artist's attributes. */
  includeArtists: Map<number, ArtistRow> | undefined;
  /** relate[songs]=music-videos: the (empty) music-videos relationship. */
  musicVideos: boolean;
};

export const noRelate: Relate = { artists: false, includeArtists: undefined, musicVideos: false };

export function songResource(
  row: TrackRow,
  ctx: AnswerContext,
  relate: Relate = noRelate,
): Input<typeof songSchema> {
  const sf = storefront(ctx);
  const relationships: NonNullable<Input<typeof songSchema>["relationships"]> = {};
  if (relate.artists || relate.includeArtists) {
    const included = relate.includeArtists?.get(row.artist_id);
    relationships.artists = {
      href: `/v1/catalog/${sf}/songs/${row.adamid}/artists`,
      data: [
        included
          ? artistResource(included, ctx, new Set())
          : {
              id: row.artist_adamid,
              type: "artists",
              href: `/v1/catalog/${sf}/artists/${row.artist_adamid}`,
            },
      ],
    };
    relationships.albums = {
      href: `/v1/catalog/${sf}/songs/${row.adamid}/albums`,
      data: [{ id: row.album_id, type: "albums", href: `/v1/catalog/${sf}/albums/${row.album_id}` }],
    };
  }
  if (relate.musicVideos)
    relationships["music-videos"] = { href: `/v1/catalog/${sf}/songs/${row.adamid}/music-videos`, data: [] };
  return {
    id: row.adamid,
    type: "songs",
    href: `/v1/catalog/${sf}/songs/${row.adamid}`,
    attributes: {
      name: row.title,
      artistName: row.artist_name,
      albumName: row.album_title,
      artwork: artwork(row.art_id, row.bkgcolor),
      url: appleLink(ctx, row.title, row.artist_name),
      previews: [{ url: previewUrl(row.key) }],
      releaseDate: row.release_date,
      durationInMillis: row.duration_ms,
      genreNames: [row.genre_name, "Music"],
      playParams: { id: row.adamid, kind: "song" },
      ...(row.track_number !== null ? { trackNumber: row.track_number } : {}),
      hasLyrics: row.has_lyrics,
      composerName: row.artist_name,
      shazamKey: String(row.key),
      alias: row.alias,
    },
    ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
  };
}

/** Artist extensions the catalogue answers with only when asked (`extend=`). */
export const artistExtensions = ["artistBio", "bornOrFormed", "origin"] as const;
export type ArtistExtension = (typeof artistExtensions)[number];

export function artistResource(
  row: ArtistRow,
  ctx: AnswerContext,
  extend: ReadonlySet<ArtistExtension>,
): { id: string; type: "artists"; href: string; attributes: Input<typeof artistAttributesSchema> } {
  return {
    id: row.adamid,
    type: "artists",
    href: `/v1/catalog/${storefront(ctx)}/artists/${row.adamid}`,
    attributes: {
      name: row.name,
      artwork: artwork(row.art_id, row.bkgcolor),
      url: appleLink(ctx, row.name),
      genreNames: [row.genre_name],
      ...(extend.has("artistBio") ? { artistBio: row.bio } : {}),
      ...(extend.has("bornOrFormed") && row.born_or_formed ? { bornOrFormed: row.born_or_formed } : {}),
      ...(extend.has("origin") && row.origin ? { origin: row.origin } : {}),
      alias: row.alias,
      shazamId: String(row.id),
    },
  };
}

/** The artist service answer (spec 001 §3 Artist). */
export function artistPayload(row: ArtistRow): Input<typeof artistSchema> {
  return {
    id: String(row.id),
    adamid: row.adamid,
    name: row.name,
    alias: row.alias,
    avatar: artworkUrl(row.art_id, 400),
    avatarTemplate: artworkTemplate(row.art_id),
    url: artistPagePath(row.alias, row.adamid),
    weburl: artistPagePath(row.alias, row.adamid),
    share: {
      href: artistPagePath(row.alias, row.adamid),
      subject: row.name,
      text: `Discover ${row.name} on Tunewave.`,
      image: artworkUrl(row.art_id, 400),
    },
    layout: "2",
    genres: { primary: row.genre_name },
    bio: row.bio,
    bkgcolor: coloursOf(row.bkgcolor).bkgcolor,
  };
}

export function albumResource(
  row: AlbumRow,
  ctx: AnswerContext,
  tracks: TrackRow[] | undefined,
  artists: ArtistRow[] | undefined,
): Input<typeof albumSchema> {
  const sf = storefront(ctx);
  const relationships: NonNullable<Input<typeof albumSchema>["relationships"]> = {};
  if (tracks)
    relationships.tracks = {
      href: `/v1/catalog/${sf}/albums/${row.id}/tracks`,
      data: tracks.map((t) => songResource(t, ctx)),
    };
  if (artists) {
    relationships.artists = {
      href: `/v1/catalog/${sf}/albums/${row.id}/artists`,
      data: artists.map((a) => ({
        id: a.adamid,
        type: "artists",
        href: `/v1/catalog/${sf}/artists/${a.adamid}`,
      })),
    };
  }
  return {
    id: row.id,
    type: "albums",
    href: `/v1/catalog/${sf}/albums/${row.id}`,
    attributes: {
      name: row.title,
      artistName: row.artist_name,
      artwork: artwork(row.art_id, row.bkgcolor),
      url: appleLink(ctx, row.title, row.artist_name),
      releaseDate: row.release_date,
      trackCount: row.track_count,
      genreNames: [row.genre_name, "Music"],
      copyright: row.copyright,
      isSingle: row.is_single,
      isCompilation: row.artist_name === "Various Artists",
      playParams: { id: row.id, kind: "album" },
      ...(row.description ? { editorialNotes: { standard: row.description } } : {}),
      recordLabel: row.source_package,
      alias: row.alias,
    },
    ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
  };
}

/** A playlist resource: editorial playlists, charts (list ids) and albums seen as playlists. */
export type PlaylistLike = Omit<PlaylistRow, "artist_id" | "genre_id"> & {
  playlistType: "editorial" | "chart" | "album";
};

export function playlistResource(
  row: PlaylistLike,
  ctx: AnswerContext,
  tracks: { data: Input<typeof songSchema>[] } | undefined,
): Input<typeof playlistSchema> {
  const sf = storefront(ctx);
  return {
    id: row.id,
    type: "playlists",
    href: `/v1/catalog/${sf}/playlists/${row.id}`,
    attributes: {
      name: row.name,
      artwork: artwork(row.art_id, row.bkgcolor),
      url: appleLink(ctx, row.name),
      description: { standard: row.description },
      curatorName: row.curator,
      lastModifiedDate: row.last_modified,
      playParams: { id: row.id, kind: "playlist" },
      trackCount: row.track_count,
      playlistType: row.playlistType,
    },
    ...(tracks
      ? {
          relationships: {
            tracks: { href: `/v1/catalog/${sf}/playlists/${row.id}/tracks`, data: tracks.data },
          },
        }
      : {}),
  };
}
