import * as v from "valibot";
import { addressHashPattern, utcDayOf, visitorHashPattern } from "#rules/visitor-hash.ts";

/**
 * One identification event (decision 032): a successful match or a new tag, as the identifications
 * queue carries it from the origin to its consumer (origin/identifications.ts). No address, no
 * webId: the visitor is a hash (rules/visitor-hash.ts).
 */
export const identificationEventSchema = v.pipe(
  v.object({
    /** Counted once however often the queue delivers it. */
    id: v.pipe(v.string(), v.uuid("id is not a UUID")),
    trackKey: v.pipe(v.number(), v.safeInteger("trackKey is not an integer"), v.minValue(1)),
    /** ISO 3166 alpha-2, upper case; `ZZ` (ISO's "unknown") when nothing said where the visitor was. */
    country: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, "country is not an ISO code")),
    /** `cities.id` where the edge knew the city, else 0. */
    cityId: v.pipe(v.number(), v.safeInteger("cityId is not an integer"), v.minValue(0)),
    /** UTC day of `at`, YYYY-MM-DD. */
    day: v.pipe(v.string(), v.isoDate("day is not a date")),
    visitorHash: v.pipe(v.string(), v.regex(visitorHashPattern, "visitorHash is not a visitor hash")),
    /**
     * The client address's hash of the day (rules/visitor-hash.ts `addressHashOf`): what the
     * per-address cap of a chart counts by. Absent in events sent before the cap: counted as one address.
     */
    addressHash: v.optional(
      v.pipe(v.string(), v.regex(addressHashPattern, "addressHash is not an address hash")),
    ),
    /**
     * A web match's recording: where in the track it starts and its signature's sketch
     * (signature/sketch.ts), by which the same recording sent again counts once. Absent for a tag.
     */
    recording: v.optional(
      v.object({
        offsetMs: v.pipe(v.number(), v.safeInteger("offsetMs is not an integer")),
        // As many numbers as signature/sketch.ts makes (16): compared bucket by bucket.
        sketch: v.pipe(
          v.array(v.pipe(v.number(), v.safeInteger(), v.minValue(-1), v.maxValue(2 ** 32 - 1))),
          v.minLength(1, "sketch is not a signature sketch"),
          v.maxLength(64, "sketch is not a signature sketch"),
        ),
      }),
    ),
    /** When it happened, ms since the epoch. */
    at: v.pipe(v.number(), v.safeInteger("at is not an integer"), v.minValue(0)),
  }),
  v.check((event) => utcDayOf(event.at) === event.day, "day is not the UTC day of at"),
);
export type IdentificationEvent = v.InferOutput<typeof identificationEventSchema>;

/**
 * Days of events and chart visits kept: today and the two before. Queues redeliver within hours
 * (10 retries with backoff), so an event is always still there when its copy comes back; an event
 * of an older day is dropped, since it might have been counted once already. The privacy pages
 * name it (app/routes/($lang).privacy.data-categories), hence here, where app/ and origin/ both read it.
 */
export const eventRetentionDays = 3;

/** The country of an event whose visitor no one located (ISO 3166 user-assigned "unknown"). */
export const unknownCountry = "ZZ";

/**
 * Where the edge located the caller of the calls that make identifications (webrec, account),
 * from Cloudflare's `request.cf`, under the names of Cloudflare's own visitor location headers.
 * Only the edge may say it: worker/steps/services.ts drops what a client sent. The city is
 * URI-encoded, as header values are bytes and city names are not ("Zürich").
 */
export const edgePlaceHeaders = { country: "cf-ipcountry", city: "cf-ipcity" } as const;

/**
 * The webId the edge vouched for (rules/visitor-voucher.ts): set by worker/steps/services.ts on the
 * calls that make identifications when the request's voucher is the site's for its webId, dropped
 * when a client sent it. Without it an identification counts under the day's address hash.
 */
export const vouchedVisitorHeader = "tw-vouched-webid";
