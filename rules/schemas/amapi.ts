import * as v from "valibot";
import { digitsSchema, hexColourSchema } from "./common";
import { trackSchema } from "./track";

/**
 * The catalogue (`/services/amapi/...`) payloads, spec 001 §3 "Catalogue item": id; attributes
 * name, artistName, artwork{url,bgColor}, url, previews{url,hlsUrl}, releaseDate, playParams,
 * artistBio, bornOrFormed, origin, trackCount; relationships artists, tracks, music-videos; views.
 */

/** `url` is a template: replace {w} and {h} (200 to 800 step 200 by default). */
export const artworkSchema = v.object({
  url: v.string(),
  width: v.number(),
  height: v.number(),
  bgColor: hexColourSchema,
  textColor1: v.optional(hexColourSchema),
  textColor2: v.optional(hexColourSchema),
});

const playParamsSchema = v.object({ id: v.string(), kind: v.string() });

/** A reference in a relationship or a view: a full resource when included, else id and type. */
const refSchema = v.object({ id: v.string(), type: v.string(), href: v.optional(v.string()) });

export const songAttributesSchema = v.object({
  name: v.string(),
  artistName: v.string(),
  albumName: v.string(),
  artwork: artworkSchema,
  url: v.string(),
  previews: v.array(v.object({ url: v.string(), hlsUrl: v.optional(v.string()) })),
  releaseDate: v.string(),
  durationInMillis: v.number(),
  genreNames: v.array(v.string()),
  playParams: playParamsSchema,
  trackNumber: v.optional(v.number()),
  hasLyrics: v.boolean(),
  composerName: v.optional(v.string()),
  /** Our track key, so catalogue songs link to /track/{key}/{alias}. */
  shazamKey: digitsSchema,
  alias: v.string(),
});

export const artistAttributesSchema = v.object({
  name: v.string(),
  artwork: v.optional(artworkSchema),
  url: v.string(),
  genreNames: v.array(v.string()),
  /** With extend=artistBio. */
  artistBio: v.optional(v.string()),
  /** With extend=bornOrFormed (absent when unknown). */
  bornOrFormed: v.optional(v.string()),
  /** With extend=origin (absent when unknown). */
  origin: v.optional(v.string()),
  alias: v.string(),
  /** Our artist id, for /artist/{id}/{adamid}. */
  shazamId: digitsSchema,
});

const artistResourceSchema = v.object({
  id: digitsSchema,
  type: v.literal("artists"),
  href: v.string(),
  attributes: v.optional(artistAttributesSchema),
});

const artistRelationshipSchema = v.object({
  href: v.optional(v.string()),
  data: v.array(v.union([artistResourceSchema, refSchema])),
});

export const songSchema = v.object({
  id: digitsSchema,
  type: v.literal("songs"),
  href: v.string(),
  attributes: songAttributesSchema,
  relationships: v.optional(
    v.object({
      artists: v.optional(artistRelationshipSchema),
      albums: v.optional(v.object({ href: v.optional(v.string()), data: v.array(refSchema) })),
      "music-videos": v.optional(v.object({ href: v.optional(v.string()), data: v.array(refSchema) })),
    }),
  ),
});

export const albumAttributesSchema = v.object({
  name: v.string(),
  artistName: v.string(),
  artwork: artworkSchema,
  url: v.string(),
  releaseDate: v.string(),
  trackCount: v.number(),
  genreNames: v.array(v.string()),
  copyright: v.string(),
  isSingle: v.boolean(),
  isCompilation: v.boolean(),
  playParams: playParamsSchema,
  editorialNotes: v.optional(v.object({ standard: v.string(), short: v.optional(v.string()) })),
  recordLabel: v.string(),
  alias: v.string(),
});

export const albumSchema = v.object({
  id: digitsSchema,
  type: v.literal("albums"),
  href: v.string(),
  attributes: albumAttributesSchema,
  relationships: v.optional(
    v.object({
      tracks: v.optional(v.object({ href: v.optional(v.string()), data: v.array(songSchema) })),
      artists: v.optional(artistRelationshipSchema),
    }),
  ),
});

export const playlistAttributesSchema = v.object({
  name: v.string(),
  artwork: artworkSchema,
  url: v.string(),
  description: v.optional(v.object({ standard: v.string(), short: v.optional(v.string()) })),
  curatorName: v.string(),
  lastModifiedDate: v.string(),
  playParams: playParamsSchema,
  trackCount: v.number(),
  /** "editorial", "chart" or "album". */
  playlistType: v.string(),
});

export const playlistSchema = v.object({
  id: v.string(),
  type: v.literal("playlists"),
  href: v.string(),
  attributes: playlistAttributesSchema,
  relationships: v.optional(
    v.object({ tracks: v.optional(v.object({ href: v.optional(v.string()), data: v.array(songSchema) })) }),
  ),
});

/** Spec 001 §3 artist views. */
export const artistViewNames = [
  "full-albums",
  "featured-albums",
  "latest-release",
  "top-music-videos",
  "similar-artists",
  "top-songs",
  "playlists",
  "featured-playlists",
] as const;
export type ArtistViewName = (typeof artistViewNames)[number];

const viewItemSchema = v.union([songSchema, albumSchema, playlistSchema, artistResourceSchema]);

export const artistViewSchema = v.object({
  href: v.string(),
  next: v.optional(v.string()),
  attributes: v.object({ title: v.string() }),
  data: v.array(viewItemSchema),
});

export const artistFullSchema = v.object({
  ...artistResourceSchema.entries,
  attributes: artistAttributesSchema,
  relationships: v.optional(
    v.object({ albums: v.optional(v.object({ href: v.optional(v.string()), data: v.array(refSchema) })) }),
  ),
  views: v.optional(v.record(v.picklist(artistViewNames), v.optional(artistViewSchema))),
});

export const albumsDocumentSchema = v.object({ data: v.array(albumSchema) });
export const artistsDocumentSchema = v.object({ data: v.array(artistFullSchema) });
export const playlistsDocumentSchema = v.object({ data: v.array(playlistSchema) });

/** A page of a chart or playlist's tracks: size 200 for top, discovery and world, 50 for a city. */
export const playlistTracksDocumentSchema = v.object({
  data: v.array(songSchema),
  next: v.optional(v.string()),
  meta: v.object({
    total: v.number(),
    /**
     * Our addition (decision 032; the spec has no such field): when a chart list's numbers were
     * computed, ISO 8601. Absent on playlists that are not charts.
     */
    computedAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
    /**
     * Our addition (decision 032): whether a chart list's order rests on the demo catalogue's
     * seeded counts, which the page labels as demo data. Absent on playlists that are not charts.
     */
    demo: v.optional(v.boolean()),
  }),
});

/** `/artists/{id}/view/{view}`. */
export const creditsDocumentSchema = v.object({
  data: v.array(
    v.object({
      id: v.string(),
      type: v.literal("credit-categories"),
      attributes: v.object({ title: v.string(), kind: v.string() }),
      relationships: v.object({
        "credit-artists": v.object({
          data: v.array(
            v.object({
              id: v.string(),
              type: v.literal("credit-artists"),
              attributes: v.object({ name: v.string(), roleNames: v.array(v.string()) }),
            }),
          ),
        }),
      }),
    }),
  ),
});

const searchGroup = <S extends v.GenericSchema>(item: S) =>
  v.object({
    href: v.string(),
    /** The next page, to be fetched as /services/amapi{next}&limit=3 (spec 000 §7); absent at the end. */
    next: v.optional(v.string()),
    data: v.array(item),
  });

/** Spec 000 §3 search result payload: results.songs.data[], results.artists.data[], next links. */
export const searchResultsSchema = v.object({
  results: v.object({
    songs: v.optional(searchGroup(songSchema)),
    artists: v.optional(
      searchGroup(v.object({ ...artistResourceSchema.entries, attributes: artistAttributesSchema })),
    ),
  }),
});

/** `/amapi/custom/{lang}/{country}/playlist|album/shazamtracks/{id}/full`: tracks in the track shape. */
export const shazamTracksSchema = v.object({
  id: v.string(),
  type: v.picklist(["playlists", "albums"]),
  name: v.string(),
  tracks: v.array(trackSchema),
});

export type Song = v.InferOutput<typeof songSchema>;
export type Album = v.InferOutput<typeof albumSchema>;
export type ArtistFull = v.InferOutput<typeof artistFullSchema>;
export type Playlist = v.InferOutput<typeof playlistSchema>;
export type ArtistView = v.InferOutput<typeof artistViewSchema>;
export type SearchResults = v.InferOutput<typeof searchResultsSchema>;
