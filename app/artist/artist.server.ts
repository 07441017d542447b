import type { AppLoadContext } from "@remix-run/cloudflare";
import { visitorFeatures } from "#app/shell/features.server.ts";
import type { Translate } from "#app/shell/i18n.server.ts";
import { absoluteUrl, requestMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import { trackSummaryOfSong } from "#app/shell/view.server.ts";
import type { Image, TrackSummary } from "#app/shell/view.ts";
import { imageFromTemplate } from "#app/shell/view.ts";
import {
  type ArtistRoute,
  albumPath,
  artistEventSummaryServicePath,
  artistPagePath,
  artistPath,
  artistServicePath,
  catalogArtistPath,
  playlistPath,
  storefrontOf,
} from "#rules/addresses.ts";
import { catalogueImageWidths, darkenForWhiteText } from "#rules/content-rules.ts";
import { SiteError } from "#rules/errors.ts";
import { type FeatureEnvironment, type FeaturePlatform, isFeatureEnabled } from "#rules/feature-flags.ts";
import { featureNames } from "#rules/feature-names.ts";
import { dateTimeFormat } from "#rules/intl.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import {
  type Album,
  type ArtistFull,
  type ArtistView,
  artistsDocumentSchema,
  type Playlist,
  type Song,
} from "#rules/schemas/amapi.ts";
import { type Artist, artistSchema } from "#rules/schemas/artist.ts";
import { artistEventSummarySchema } from "#rules/schemas/events.ts";

type Context = Pick<AppLoadContext, "edge" | "services" | "account">;

/**
 * Spec 001 §2: "A numeric id or an adam id with alias is accepted depending on a feature switch".
 * The switch's name in `/services/config/features.json`.
 */
export const adamIdRouteFeature = featureNames.adamIdRoute;
/** Items asked of each artist view. */
const artistViewLimit = 10;
/** The artist views the page shows (spec 001 §3 Catalogue item views). */
const artistPageViews = [
  "latest-release",
  "top-songs",
  "full-albums",
  "featured-albums",
  "playlists",
  "featured-playlists",
  "similar-artists",
] as const;
/** Longest meta description, in characters (what search results and cards show). */
const descriptionLength = 160;

/**
 * Whether the adam-id route is on for this visitor (rules/feature-flags.ts `isFeatureEnabled`). A
 * failed config load gives the default config, where every switch is off.
 */
export async function isAdamIdRouteOn(
  context: Context,
  options: { environment: FeatureEnvironment; platform: FeaturePlatform },
): Promise<boolean> {
  return isFeatureEnabled(await visitorFeatures(context, options), adamIdRouteFeature);
}

/** Spec 001 §8 "Missing artist data gives not found": an upstream 404 is the not-found page. */
async function orNotFound<T>(load: () => Promise<T>, message: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof SiteError && (error.type === "notfound" || error.status === 404)) {
      throw new SiteError("notfound", message);
    }
    throw error;
  }
}

/** A tile of the artist page: an album, a playlist or a similar artist. */
export type ArtistTile = {
  key: string;
  title: string;
  subtitle: string | undefined;
  /** The item's page of ours: albums, playlists and artists each have one. */
  href: string;
  image: Image | undefined;
};

export type ArtistRelease = ArtistTile & {
  /** The album in the streaming service (spec 001 §3 catalogue item `url`). */
  listenHref: string;
  releaseDate: string;
  releaseDateLabel: string;
  trackCount: number;
  isSingle: boolean;
};

function viewItems(view: ArtistView | undefined) {
  return view?.data ?? [];
}

function isSong(item: ArtistView["data"][number]): item is Song {
  return item.type === "songs";
}

function isAlbum(item: ArtistView["data"][number]): item is Album {
  return item.type === "albums";
}

function isPlaylist(item: ArtistView["data"][number]): item is Playlist {
  return item.type === "playlists";
}

function catalogueImage(template: string): Image {
  return imageFromTemplate(template, catalogueImageWidths);
}

function dateLabel(date: string, locale: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time)
    ? date
    : dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(time);
}

function albumTile(album: Album, lang: LanguageKey, locale: string): ArtistRelease {
  const { attributes } = album;
  return {
    key: album.id,
    title: attributes.name,
    subtitle: attributes.releaseDate.slice(0, 4),
    href: localizedPath(lang, albumPath(album.id, attributes.alias)),
    listenHref: attributes.url,
    image: catalogueImage(attributes.artwork.url),
    releaseDate: attributes.releaseDate,
    releaseDateLabel: dateLabel(attributes.releaseDate, locale),
    trackCount: attributes.trackCount,
    isSingle: attributes.isSingle,
  };
}

/** A playlist as a tile: the artist page's playlists, the album page's "featured in". */
export function playlistTile(playlist: Playlist, lang: LanguageKey) {
  return {
    key: playlist.id,
    title: playlist.attributes.name,
    subtitle: playlist.attributes.curatorName,
    href: localizedPath(lang, playlistPath(playlist.id)),
    image: catalogueImage(playlist.attributes.artwork.url),
  };
}

/** A bio cut at a word boundary for the meta description. */
export function shortDescription(text: string, length = descriptionLength): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > length / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

/**
 * The artist page (spec 001 §1 "Artist pages with biography, albums, playlists, top songs and
 * similar artists"): the artist by id (spec 001 §7 "Artist by artistId") and the catalogue artist
 * with its bio, origin and views. Shared by React and AMP.
 */
export async function loadArtistPage(
  context: Context,
  route: ArtistRoute,
  options: { adamIdRoute: boolean },
  now: Date,
) {
  const { edge, services } = context;
  const country = storefrontOf(edge.country);
  const artistById = (id: string) =>
    orNotFound(
      () => services.getJson(artistServicePath(edge.lang, country, id), artistSchema),
      `No artist ${id}`,
    );
  let artist: Artist | undefined = route.by === "artistId" ? await artistById(route.id) : undefined;
  const adamId = artist?.adamid ?? route.id;
  const document = await orNotFound(
    () =>
      services.getJson(
        catalogArtistPath(country, adamId, {
          extend: ["artistBio", "bornOrFormed", "origin"],
          views: artistPageViews,
          limit: artistViewLimit,
        }),
        artistsDocumentSchema,
      ),
    `No catalogue artist ${adamId}`,
  );
  const full: ArtistFull | undefined = document.data[0];
  if (!full) throw new SiteError("notfound", `No catalogue artist ${adamId}`);
  artist ??= await artistById(full.attributes.shazamId);
  const concerts = await artistConcerts(context, country, artist.id);

  const { attributes } = full;
  const views = full.views ?? {};
  const linkOf = (entry: { shazamId: string; adamid: string; alias: string }) =>
    localizedPath(edge.lang, artistPath(entry, options.adamIdRoute));
  const playlists = new Map<string, ArtistTile>();
  for (const item of [...viewItems(views.playlists), ...viewItems(views["featured-playlists"])]) {
    if (isPlaylist(item) && !playlists.has(item.id)) playlists.set(item.id, playlistTile(item, edge.lang));
  }
  const latest = viewItems(views["latest-release"]).find(isAlbum);
  return {
    artist: {
      id: artist.id,
      adamid: full.id,
      name: attributes.name,
      alias: attributes.alias,
      genre: attributes.genreNames[0] ?? artist.genres.primary,
      origin: attributes.origin,
      bornOrFormed: attributes.bornOrFormed,
      bio: attributes.artistBio ?? artist.bio,
      avatar: catalogueImage(artist.avatarTemplate),
      /** Spec 001 §3 Artist share: shared by link on Twitter and by e-mail (spec 002 "Share options"). */
      share: { subject: artist.share.subject, text: artist.share.text },
      /** The artist's colour behind white text, darkened to the contrast target (spec 001 §9). */
      background: darkenForWhiteText(`#${artist.bkgcolor}`),
      path: artistPath(
        { shazamId: artist.id, adamid: full.id, alias: attributes.alias },
        options.adamIdRoute,
      ),
      href: linkOf({ shazamId: artist.id, adamid: full.id, alias: attributes.alias }),
    },
    concerts,
    latestRelease: latest ? albumTile(latest, edge.lang, edge.locale) : undefined,
    topSongs: viewItems(views["top-songs"])
      .filter(isSong)
      .map((song): TrackSummary => trackSummaryOfSong(song, edge.lang, now)),
    albums: viewItems(views["full-albums"])
      .filter(isAlbum)
      .map((album) => albumTile(album, edge.lang, edge.locale)),
    appearsOn: viewItems(views["featured-albums"])
      .filter(isAlbum)
      .map((album) => albumTile(album, edge.lang, edge.locale)),
    playlists: [...playlists.values()],
    similarArtists: viewItems(views["similar-artists"]).flatMap((item): ArtistTile[] =>
      item.type === "artists" && "attributes" in item && item.attributes
        ? [
            {
              key: item.id,
              title: item.attributes.name,
              subtitle: item.attributes.genreNames[0],
              href: linkOf({
                shazamId: item.attributes.shazamId,
                adamid: item.id,
                alias: item.attributes.alias,
              }),
              image: item.attributes.artwork ? catalogueImage(item.attributes.artwork.url) : undefined,
            },
          ]
        : [],
    ),
  };
}

export type ArtistPage = Awaited<ReturnType<typeof loadArtistPage>>;

/**
 * The artist's upcoming concerts, from the artist event summary (spec 002 §7): a count and the
 * concert list filtered to the artist. "On error an error statistic is recorded": logged, and the
 * page goes on without the link.
 */
async function artistConcerts(
  { edge, services }: Context,
  country: string,
  artistId: string,
): Promise<{ count: number; href: string } | undefined> {
  try {
    const summary = await services.getJson(
      artistEventSummaryServicePath(country, edge.lang, artistId),
      artistEventSummarySchema,
    );
    if (summary.upcomingCount === 0) return undefined;
    return {
      count: summary.upcomingCount,
      href: `${localizedPath(edge.lang, "/concerts")}?artist=${artistId}`,
    };
  } catch (error) {
    console.warn("artist summary failed", error);
    return undefined;
  }
}

/** The language-free canonical path, to compare with the requested one. */
export function isCanonicalArtistPath(
  requested: { artistIdOrName: string; adamIdOrAlias: string },
  page: ArtistPage,
): boolean {
  return artistPagePath(requested.artistIdOrName, requested.adamIdOrAlias) === page.artist.path;
}

/** The artist page's head, for the React route and its AMP form. */
export function artistPageMeta(
  page: ArtistPage,
  context: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
  t: Translate,
): PageMeta {
  const base = requestMeta(context, request);
  const { artist } = page;
  const avatarUrl = absoluteUrl(context, artist.avatar.src);
  return {
    ...base,
    title: t("artist:metaTitle", { name: artist.name }),
    description: artist.bio
      ? shortDescription(artist.bio)
      : t("artist:metaDescription", { name: artist.name }),
    type: "music.musician",
    image: {
      url: avatarUrl,
      width: artist.avatar.width,
      height: artist.avatar.height,
      alt: t("artist:avatarAlt", { name: artist.name }),
    },
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "MusicGroup",
      name: artist.name,
      url: base.canonical,
      image: avatarUrl,
      ...(artist.bio ? { description: artist.bio } : {}),
      ...(artist.genre ? { genre: artist.genre } : {}),
      ...(artist.origin ? { foundingLocation: { "@type": "Place", name: artist.origin } } : {}),
      track: page.topSongs.map((song) => ({
        "@type": "MusicRecording",
        name: song.title,
        url: absoluteUrl(context, song.href),
      })),
      album: page.albums.map((album) => ({
        "@type": "MusicAlbum",
        name: album.title,
        datePublished: album.releaseDate,
        url: absoluteUrl(context, album.href),
      })),
    },
  };
}
