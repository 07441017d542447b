import * as v from "valibot";
import { digitsSchema } from "#rules/schemas/common.ts";
import { trackSummarySchema } from "#rules/schemas/track.ts";

/**
 * My Library (spec 002 §3 Tag, §5, §7 "Tags and status", §9): the rules the site, the browser and
 * the embedded origin's account service share. docs/decisions/019-library.md says why.
 */

/** Spec 002 §9 "Tag list page 20". */
export const tagPageSize = 20;
/** The most tags one page may ask for (the export reads in pages of this size). */
export const maxTagPageSize = 100;
/** Spec 002 §5 "A tag list with start -1 means no more pages". */
export const noMorePages = -1;
/** Spec 002 §9 "cloud query page 250 records". */
export const cloudQueryPageSize = 250;
/** Spec 002 §9 "request timeout 45 s" (the cloud zone list). */
export const cloudRequestTimeoutMs = 45_000;
/** Spec 002 §3 "Cloud record: type Track with fields ShazamKey and Date; zone name shazam-library". */
export const cloudLibraryZone = "shazam-library";
/** How long a removed (hidden) tag can be brought back before it is deleted for good. */
export const hiddenTagLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * The earliest moment a tag can name: 2000-01-01 UTC, before any recording this service could have
 * identified. Earlier is a wrong clock or a made-up value.
 */
export const earliestTagTime = Date.UTC(2000, 0, 1);
/**
 * How far ahead of the service's clock a tag time may be: a phone's clock a few minutes fast.
 * Anything later is a tag from the future, refused (decision 019).
 */
export const tagTimeLeewayMs = 5 * 60 * 1000;

/** Whether a tag time (epoch ms) is one the service accepts at `now`: whole ms within the window. */
export function isAcceptedTagTime(tagTime: number, now: number): boolean {
  return Number.isSafeInteger(tagTime) && tagTime >= earliestTagTime && tagTime <= now + tagTimeLeewayMs;
}

/**
 * The privacy pages promise a "rough" position: two decimals of a degree, about 1.1 km north-south
 * (less east-west away from the equator): a neighbourhood, never a street or a house (decision 019).
 * Every position is rounded to this before it is stored, whoever sent it.
 */
export const positionDecimals = 2;

/** A position as the service stores it: rounded to `positionDecimals`, or null when unknown or out of range. */
export function roughPosition(
  lat: number | null | undefined,
  lng: number | null | undefined,
): { lat: number | null; lng: number | null } {
  if (typeof lat !== "number" || typeof lng !== "number") return { lat: null, lng: null };
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return { lat: null, lng: null };
  const scale = 10 ** positionDecimals;
  // `+ 0` turns a rounded -0 into 0, so that no file says "-0".
  return { lat: Math.round(lat * scale) / scale + 0, lng: Math.round(lng * scale) / scale + 0 };
}

/** Where a song was identified, as far as it is known. */
export const tagLocationSchema = v.object({
  country: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))),
  lat: v.nullable(v.pipe(v.number(), v.minValue(-90), v.maxValue(90))),
  lng: v.nullable(v.pipe(v.number(), v.minValue(-180), v.maxValue(180))),
});
export type TagLocation = v.InferOutput<typeof tagLocationSchema>;
export const unknownLocation: TagLocation = { country: null, lat: null, lng: null };

/** An opaque tag id (what a removal names): the account service's random id. */
export const tagIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/, "Invalid tag id"));

/** Spec 002 §3 "Tag (my tracks): track, key (track key), tagdata", with the library item's tagTime and location. */
export const libraryTagSchema = v.object({
  tagid: tagIdSchema,
  key: digitsSchema,
  /** Spec 002 §3 library item tagTime: epoch ms. */
  timestamp: v.pipe(v.number(), v.integer()),
  location: tagLocationSchema,
  track: trackSummarySchema,
});
export type LibraryTag = v.InferOutput<typeof libraryTagSchema>;

const tagCountSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * Spec 002 §7 "GET my tags list … Response: tags[] with track, and token": `token` asks for the
 * next page; `start` is where the next page starts, or -1 when there is none.
 */
export const tagListSchema = v.object({
  tags: v.array(libraryTagSchema),
  token: v.optional(v.string()),
  start: v.pipe(v.number(), v.integer()),
  /**
   * Ours, beyond spec 002's fields: every tag the library shows, as `GET tag count` answers it, read
   * with this page. The embedded origin sends it (the library page's one call, decision 048); an
   * upstream that answers the spec's fields alone does not, and the page then asks for the count.
   */
  count: v.optional(tagCountSchema),
});
export type TagList = v.InferOutput<typeof tagListSchema>;

/** Spec 002 §3 "A count object holds count". */
export const libraryCountSchema = v.object({ count: tagCountSchema });

/** The `token` of a tag list request: what an earlier page answered (base64url). */
export const tagPageTokenSchema = v.pipe(v.string(), v.maxLength(256), v.regex(/^[A-Za-z0-9_-]+$/));

/**
 * A tag the app made (spec 002 §1 "the bridge enables tagging"): the track, when, where, and the
 * app's own id of the recognition, so that telling the service twice tags once.
 */
export const tagWriteSchema = v.object({
  /**
   * `web` is a recognition of this site made before signing in (its session id), moved
   * into the library on sign-in; the app's own tags say `app` or nothing.
   */
  source: v.optional(v.picklist(["app", "web"]), "app"),
  trackKey: digitsSchema,
  recognitionId: v.pipe(v.string(), v.regex(/^[A-Za-z0-9:._-]{1,96}$/, "Invalid recognitionId")),
  tagTime: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lat: v.optional(v.pipe(v.number(), v.minValue(-90), v.maxValue(90))),
  lng: v.optional(v.pipe(v.number(), v.minValue(-180), v.maxValue(180))),
});
export type TagWrite = v.InferOutput<typeof tagWriteSchema>;

/** The library export's formats (decision 019): one command on the page, two files. */
export const libraryExportFormats = ["csv", "json"] as const;
export type LibraryExportFormat = (typeof libraryExportFormats)[number];

/** The export's CSV header, in this order (decision 019). */
export const libraryCsvHeader = ["Index", "TagTime", "Title", "Artist", "URL", "TrackKey"] as const;
