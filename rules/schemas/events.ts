import * as v from "valibot";

/**
 * The events calls (spec 002 §3 Event, event response, upcoming events; §7 Events), as
 * JSON:API-style resources keyed by type and id. Resources the pages do not read are not parsed.
 */

const reference = v.object({ id: v.string(), type: v.string() });
const relationship = v.object({ data: v.array(reference) });

const eventTimeSchema = v.object({
  startTime: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  endTime: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  timezone: v.string(),
});

export const shazamEventSchema = v.object({
  id: v.string(),
  type: v.literal("shazam-events"),
  attributes: v.object({
    name: v.string(),
    // Spec 002 §3 "appleMusicCuratedPageUrl (default empty)".
    appleMusicCuratedPageUrl: v.optional(v.string(), ""),
    provider: v.optional(
      v.object({
        attribution: v.optional(v.object({ name: v.optional(v.string()), logo: v.optional(v.string()) })),
      }),
    ),
    time: eventTimeSchema,
    featuredEvent: v.optional(
      v.object({ background: v.object({ url: v.string() }), logo: v.object({ url: v.string() }) }),
    ),
  }),
  relationships: v.optional(v.record(v.string(), relationship), {}),
});
export type ShazamEvent = v.InferOutput<typeof shazamEventSchema>;

export const venueSchema = v.object({
  id: v.string(),
  type: v.literal("venues"),
  attributes: v.object({
    name: v.string(),
    geo: v.object({ lat: v.number(), lng: v.number() }),
    timezone: v.optional(v.string()),
    address: v.object({ structuredAddress: v.object({ city: v.optional(v.string()), country: v.string() }) }),
  }),
});
export type Venue = v.InferOutput<typeof venueSchema>;

export const eventArtistSchema = v.object({
  id: v.string(),
  type: v.literal("artists"),
  attributes: v.object({
    name: v.string(),
    adamid: v.optional(v.string()),
    alias: v.optional(v.string()),
    artwork: v.optional(v.object({ url: v.string() })),
  }),
});
export type EventArtist = v.InferOutput<typeof eventArtistSchema>;

const photoAlbumSchema = v.object({
  id: v.string(),
  type: v.literal("photo-albums"),
  attributes: v.object({ photos: v.array(v.object({ id: v.string(), url: v.string() })) }),
});

const setlistSchema = v.object({
  id: v.string(),
  type: v.literal("setlists"),
  attributes: v.object({
    entries: v.array(
      v.object({
        adamId: v.string(),
        key: v.optional(v.string()),
        title: v.string(),
        alias: v.optional(v.string()),
      }),
    ),
  }),
});

const playlistSchema = v.object({
  id: v.string(),
  type: v.literal("playlists"),
  attributes: v.object({ name: v.string(), curatorName: v.optional(v.string()) }),
});

const table = <S extends v.GenericSchema>(schema: S) => v.optional(v.record(v.string(), schema), {});

export const eventResourcesSchema = v.object({
  "shazam-events": table(shazamEventSchema),
  venues: table(venueSchema),
  artists: table(eventArtistSchema),
  "photo-albums": table(photoAlbumSchema),
  setlists: table(setlistSchema),
  playlists: table(playlistSchema),
});
export type EventResources = v.InferOutput<typeof eventResourcesSchema>;

/** Spec 002 §7 "GET event details by {shazamid}" and "GET upcoming events" (data, resources, next; myLoc). */
export const eventsDocumentSchema = v.object({
  data: v.array(reference),
  resources: eventResourcesSchema,
  next: v.optional(v.string()),
  myLoc: v.optional(v.object({ lat: v.number(), lng: v.number() })),
});
export type EventsDocument = v.InferOutput<typeof eventsDocumentSchema>;

/** Spec 002 §7 "GET /services/musicevents/artistsummary/GB/en/{id}: artist event summary". */
export const artistEventSummarySchema = v.object({
  artistId: v.string(),
  name: v.string(),
  upcomingCount: v.number(),
  upcomingInCountryCount: v.number(),
});
