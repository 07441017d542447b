import * as v from "valibot";
import { digitsSchema, hexColourSchema } from "./common";

/** Spec 001 §3 track types; any other gives 'Track data type not valid' (spec 001 §5). */
export const trackTypes = ["MUSIC", "CAMPAIGN", "VIDEO", "CONTEXT", "OVERRIDE", "TELEVISION"] as const;
/** Spec 001 §3 "stores or streams per store". */
export const storeNames = ["apple", "spotify", "itunes", "google", "amazon", "xboxmusic"] as const;
export type StoreName = (typeof storeNames)[number];

export const actionSchema = v.object({
  name: v.optional(v.string()),
  type: v.string(),
  id: v.optional(v.string()),
  uri: v.optional(v.string()),
});

/** Spec 001 §3: each store has previewurl, explicit, actions, trackid, productid. */
export const storeSchema = v.object({
  previewurl: v.optional(v.string()),
  explicit: v.boolean(),
  actions: v.array(actionSchema),
  trackid: v.optional(v.string()),
  productid: v.optional(v.string()),
  coverarturl: v.optional(v.string()),
});

export const imagesSchema = v.object({
  default: v.string(),
  coverart: v.string(),
  coverarthq: v.optional(v.string()),
  background: v.string(),
  joecolor: v.string(),
  /** The artwork in every size: replace {w} and {h} (tracks 75 to 300 step 75, default 375). */
  template: v.optional(v.string()),
});

const metadataSchema = v.object({ title: v.string(), text: v.string() });

export const songSectionSchema = v.object({
  type: v.literal("SONG"),
  tabname: v.string(),
  metadata: v.array(metadataSchema),
  metapages: v.array(v.object({ image: v.string(), caption: v.string() })),
});

export const artistSectionSchema = v.object({
  type: v.literal("ARTIST"),
  tabname: v.string(),
  id: digitsSchema,
  adamid: digitsSchema,
  name: v.string(),
  avatar: v.string(),
  url: v.string(),
  /** Top tracks need the artist adam id (spec 001 §5): the catalogue view URL. */
  toptracks: v.object({ url: v.string() }),
});

/** Spec 001 §3 Lyrics: text lines, footer, provider name, beacon data. */
export const lyricsSectionSchema = v.object({
  type: v.literal("LYRICS"),
  tabname: v.string(),
  text: v.array(v.string()),
  footer: v.string(),
  demo: v.boolean(),
  beacondata: v.object({ lyricsid: v.string(), providername: v.string(), commontrackid: v.string() }),
  /** Synced lyrics URL (spec 001 §7 "from the lyrics feed item"). */
  url: v.optional(v.string()),
});

export const relatedSectionSchema = v.object({
  type: v.literal("RELATED"),
  tabname: v.string(),
  /** Recommendations URL. */
  url: v.string(),
});

/** The track's video on the video site: its watch and embed pages and its 520x280 preview image. */
export const videoSectionSchema = v.object({
  type: v.literal("VIDEO"),
  tabname: v.string(),
  watchurl: v.string(),
  embedurl: v.string(),
  image: v.string(),
  /** An art track (the cover over the preview), not a music video: the page says so. */
  arttrack: v.boolean(),
  /** Spec 002 §4: a negative offset delays play by that many ms. */
  offset: v.optional(v.number()),
});

export const sectionSchema = v.variant("type", [
  songSectionSchema,
  artistSectionSchema,
  lyricsSectionSchema,
  relatedSectionSchema,
  videoSectionSchema,
]);

export const hubSchema = v.object({
  type: v.string(),
  displayname: v.optional(v.string()),
  image: v.optional(v.string()),
  actions: v.array(actionSchema),
  options: v.array(v.object({ caption: v.string(), actions: v.array(actionSchema) })),
  providers: v.array(
    v.object({
      caption: v.string(),
      type: v.string(),
      images: v.optional(v.object({})),
      actions: v.array(actionSchema),
    }),
  ),
  explicit: v.boolean(),
});

/** Spec 001 §3 properties{numberOfShazams, colors, bkgcolor, bkglight, bkgblack, whiteContrast}. */
export const trackPropertiesSchema = v.object({
  numberOfShazams: v.pipe(v.number(), v.integer(), v.minValue(0)),
  colors: v.object({
    background: v.string(),
    /** The background darkened until white text reaches contrast 4.5 (spec 001 §9). */
    accessible: v.string(),
    text: v.string(),
    secondaryText: v.string(),
  }),
  bkgcolor: hexColourSchema,
  bkglight: v.boolean(),
  bkgblack: v.boolean(),
  whiteContrast: v.number(),
});

export const shareSchema = v.object({
  href: v.string(),
  subject: v.string(),
  text: v.string(),
  image: v.optional(v.string()),
  twitter: v.optional(v.string()),
});

/** `GET /services/track/v1/{lang}/{country}/{web|iphone}/{trackId}` (spec 001 §3 Track). */
export const trackSchema = v.object({
  key: digitsSchema,
  title: v.string(),
  subtitle: v.string(),
  heading: v.object({ title: v.string(), subtitle: v.string() }),
  type: v.picklist(trackTypes, "Track data type not valid"),
  images: imagesSchema,
  url: v.string(),
  alias: v.string(),
  layout: v.string(),
  sections: v.array(sectionSchema),
  hub: hubSchema,
  stores: v.object(
    Object.fromEntries(storeNames.map((name) => [name, v.optional(storeSchema)])) as {
      [K in StoreName]: v.OptionalSchema<typeof storeSchema, undefined>;
    },
  ),
  share: shareSchema,
  highlightsurls: v.optional(
    v.object({ trackhighlighturl: v.optional(v.string()), artisthighlightsurl: v.optional(v.string()) }),
  ),
  properties: trackPropertiesSchema,
  artists: v.array(v.object({ id: digitsSchema, adamid: digitsSchema })),
  albumadamid: digitsSchema,
  trackadamid: digitsSchema,
  /** Released 90 days or fewer ago (spec 001 §4), as of the answer. */
  isNewRelease: v.boolean(),
  dateInfo: v.object({
    releaseDate: v.string(),
    /** "year" when only the year is known (releaseDate is then 1 January). */
    precision: v.picklist(["year", "day"]),
    /** When the recording entered the catalogue's source (its Debian package). */
    addedDate: v.string(),
  }),
  genres: v.object({ primary: v.string() }),
  durationMs: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The recording's free licence and where it comes from, shown on the track page. */
  licence: v.object({ name: v.string(), copyright: v.string() }),
  source: v.object({ package: v.string(), binaryPackage: v.string(), version: v.string(), file: v.string() }),
});

/** A track in lists (related tracks). */
export const trackSummarySchema = v.object({
  key: digitsSchema,
  title: v.string(),
  subtitle: v.string(),
  alias: v.string(),
  url: v.string(),
  images: v.object({ default: v.string(), coverart: v.string(), template: v.optional(v.string()) }),
  artists: v.array(v.object({ id: digitsSchema, adamid: digitsSchema })),
  trackadamid: digitsSchema,
  previewurl: v.optional(v.string()),
  properties: v.object({ bkgcolor: hexColourSchema, bkglight: v.boolean() }),
});

/** `GET /services/track/v1/{lang}/{country}/{web|iphone}/{trackId}/related`. */
export const relatedTracksSchema = v.object({ tracks: v.array(trackSummarySchema) });

export type Track = v.InferOutput<typeof trackSchema>;
export type TrackSummary = v.InferOutput<typeof trackSummarySchema>;
export type TrackSection = v.InferOutput<typeof sectionSchema>;
