import * as v from "valibot";
import { digitsSchema } from "./common";

/**
 * The catalogue listings (docs/decisions/018-sitemaps-and-home-screen.md): every track, artist,
 * album and playlist, in pages, with the date each last changed. They are what the sitemaps are made of, read
 * through the services proxy like any other call, so a remote origin (SERVICES_ORIGIN) answers
 * them too.
 *
 * `GET /services/catalogue/v1/tracks?limit={1…1000}[&after={key}]`,
 * `GET /services/catalogue/v1/artists?limit={1…1000}[&after={id}]`,
 * `GET /services/catalogue/v1/albums?limit={1…1000}[&after={id}]` and
 * `GET /services/catalogue/v1/playlists?limit={1…1000}[&after={id}]`: items in ascending id order,
 * the ones after `after`; `next` is the path of the following page, absent on the last one.
 */

/** Largest page a listing answers. */
export const catalogueListingMaxLimit = 1000;

/** A W3C date or date-time (https://www.w3.org/TR/NOTE-datetime), as sitemaps write `lastmod`. */
export const w3cDateSchema = v.pipe(
  v.string(),
  v.regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/,
    "not a W3C date or date-time",
  ),
);

/** The following page: another call of the same listing, never an address elsewhere. */
const nextPageSchema = v.pipe(
  v.string(),
  v.regex(/^\/services\/catalogue\/v1\/[a-z]+\?/, "not a listing page"),
);

export const catalogueTrackSchema = v.object({
  /** The track key of `/track/{key}/{alias}`. */
  key: digitsSchema,
  alias: v.pipe(v.string(), v.minLength(1)),
  /** When the track last changed; absent when the catalogue does not know. */
  lastModified: v.optional(w3cDateSchema),
});

export const catalogueArtistSchema = v.object({
  /** The numeric artist id of `/artist/{shazamId}/{alias}`. */
  shazamId: digitsSchema,
  /** The catalogue (adam) id of `/artist/{alias}/{adamid}`. */
  adamid: digitsSchema,
  alias: v.pipe(v.string(), v.minLength(1)),
  /** When the artist's page last changed: its newest track; absent for an artist without one. */
  lastModified: v.optional(w3cDateSchema),
});

export const catalogueAlbumSchema = v.object({
  /** The album id of `/album/{id}/{alias}`. */
  id: digitsSchema,
  alias: v.pipe(v.string(), v.minLength(1)),
  /** When the album's page last changed: its newest track; absent when the catalogue does not know. */
  lastModified: v.optional(w3cDateSchema),
});

/** A playlist id of `/playlist/{id}`: the catalogue's `pl.` ids. */
export const cataloguePlaylistIdSchema = v.pipe(
  v.string(),
  v.regex(/^pl\.[A-Za-z0-9_-]{1,100}$/, "not a playlist id"),
);

export const cataloguePlaylistSchema = v.object({
  id: cataloguePlaylistIdSchema,
  lastModified: v.optional(w3cDateSchema),
});

export const catalogueTracksPageSchema = v.object({
  data: v.array(catalogueTrackSchema),
  next: v.optional(nextPageSchema),
});

export const catalogueArtistsPageSchema = v.object({
  data: v.array(catalogueArtistSchema),
  next: v.optional(nextPageSchema),
});

export const catalogueAlbumsPageSchema = v.object({
  data: v.array(catalogueAlbumSchema),
  next: v.optional(nextPageSchema),
});

export const cataloguePlaylistsPageSchema = v.object({
  data: v.array(cataloguePlaylistSchema),
  next: v.optional(nextPageSchema),
});

export type CatalogueTrack = v.InferOutput<typeof catalogueTrackSchema>;
export type CatalogueArtist = v.InferOutput<typeof catalogueArtistSchema>;
