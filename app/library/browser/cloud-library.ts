import * as v from "valibot";
import { getJson } from "#app/shell/browser/request.ts";
import { cloudLibraryKey, type SiteStorage } from "#app/shell/browser/storage.ts";
import type { CloudKitConfig } from "#rules/account.ts";
import { trackServicePath } from "#rules/addresses.ts";
import { SiteError } from "#rules/errors.ts";
import {
  cloudRequestTimeoutMs,
  type LibraryTag,
  noMorePages,
  tagIdSchema,
  tagPageSize,
  unknownLocation,
} from "#rules/library.ts";
import { trackSummarySchema, trackTypes } from "#rules/schemas/track.ts";
import { type CloudTagRecord, createCloudKitDatabase, SessionEnded } from "./cloudkit-database";

/**
 * My Library from the device maker's cloud (spec 002 §6 "With cloud storage type login the tags
 * come from cloud storage"; §7 "Cloud-storage provider" and "Cloud variant"; §8; §9): the person's
 * tags are `Track` records (fields `ShazamKey` and `Date`) in the `shazam-library` zone of their
 * CloudKit private database, read from the browser with the container's API token and the web
 * auth token of the iCloud sign-in (app/account/browser/cloud-auth.ts).
 *
 * - `zone()`: GET zones/list, looking for `shazam-library`. No such zone is an empty library.
 * - `page(marker?)`: one POST records/query page (250 records), each record's track looked up.
 * - `tags(start, count)`: the spec's "fetch tags by start and count (defaults 0 and 20)": query
 *   pages are read as far as `start + count` needs, and only those `count` tracks are looked up.
 * - Tracks are looked up one request per key (`/services/track/v1/{lang}/{country}/web/{key}`,
 *   the spec's "batch-request each track by trackId"): the site's batch songs call takes catalogue
 *   (adam) ids, not track keys. At most `cloudTrackLookupConcurrency` run at once.
 * - Spec 002 §3 "Tracks of type HIDDEN are dropped from the cloud list": a track whose lookup
 *   answers type HIDDEN is left out, and so is a key the catalogue does not know (404).
 * - Spec 002 §8 "Cloud query failure: Falls back to the cached list": the first page of each
 *   successful read is stored (`library.cloud`); when a first page cannot be read (network,
 *   timeout, an answer other than 2xx, not JSON, an unknown shape, a failed track lookup) that list
 *   is answered, marked `fromCache`. Without one, the failure is answered as a `SiteError`.
 * - 401 AUTHENTICATION_FAILED or 421 AUTHENTICATION_REQUIRED (Apple's error codes), or no web
 *   auth token at all: `session-ended`, for the caller to sign out (which clears the cache).
 *
 * Request shapes follow Apple's CloudKit Web Services Reference: "Fetching Zones (zones/list)"
 * (GET; `zones[]` of Zone Dictionaries `{zoneID: {zoneName}}` or Zone Fetch Error Dictionaries
 * with `serverErrorCode`), "Fetching Records Using a Query (records/query)" (POST `zoneID`,
 * `resultsLimit`, `query`, `continuationMarker`, `zoneWide`, `numbersAsStrings`; answer `records[]`
 * and `continuationMarker` while more match), "Types and Dictionaries" (Query Dictionary
 * `recordType`, `filterBy`, `sortBy`; Sort Descriptor Dictionary `fieldName`, `ascending`; Record
 * Dictionary `recordName`, `recordType`, `fields: {name: {value, type}}`, `deleted`; Date/Time is
 * milliseconds since 1970) and "Error Codes" (401, 421).
 */

/** Track lookups in flight at once: a browser's connections per host over HTTP/1.1. */
export const cloudTrackLookupConcurrency = 6;

export type CloudLibraryOptions = {
  config: CloudKitConfig;
  /** Called with a string address only (CloudKit's, then the site's /services). */
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  storage: SiteStorage;
  /** The web auth token of the iCloud sign-in. Default: `icloud.token` from `storage`. */
  token?: () => string | undefined;
  /** The track service path's language and country. */
  lang: string;
  country: string;
  /** Clock in epoch ms, for when the cached list was stored. Default `Date.now`. */
  now?: () => number;
};

/** The CloudKit session is over (401/421, or no web auth token): the caller signs out. */
export type CloudSessionEnded = { status: "session-ended"; redirectUrl: string | undefined };
/** Nothing to show: the read failed and no list was cached (or a later page failed). */
export type CloudLibraryFailure = { status: "failed"; error: SiteError };

export type CloudZoneResult =
  | { status: "ok"; hasLibraryZone: boolean }
  | CloudSessionEnded
  | CloudLibraryFailure;

/** A list read now. */
type Fresh = { status: "ok"; fromCache: false; hasLibraryZone: boolean; tags: LibraryTag[] };
/** The list stored after the last successful first page, because this read failed with `error`. */
type Cached = { status: "ok"; fromCache: true; tags: LibraryTag[]; storedAt: number; error: SiteError };

/** `marker`: hand it to `page()` for the next page; undefined on the last one (and from the cache). */
export type CloudPageResult =
  | (Fresh & { marker: string | undefined })
  | (Cached & { marker: undefined })
  | CloudSessionEnded
  | CloudLibraryFailure;

/** `start`: where the next call starts, or -1 (spec 002 §5 "A tag list with start -1 means no more pages"). */
export type CloudTagsResult =
  | (Fresh & { start: number })
  | (Cached & { start: typeof noMorePages })
  | CloudSessionEnded
  | CloudLibraryFailure;

export type CloudLibrary = {
  zone(): Promise<CloudZoneResult>;
  page(marker?: string): Promise<CloudPageResult>;
  tags(start?: number, count?: number): Promise<CloudTagsResult>;
};

/** The track service's answer: what a list item shows, or only its type when that is HIDDEN. */
const trackLookupSchema = v.variant("type", [
  v.object({ type: v.literal("HIDDEN") }),
  v.object({
    ...v.omit(trackSummarySchema, ["previewurl"]).entries,
    type: v.picklist(trackTypes),
    stores: v.optional(v.object({ apple: v.optional(v.object({ previewurl: v.optional(v.string()) })) })),
  }),
]);
type TrackLookup = Exclude<v.InferOutput<typeof trackLookupSchema>, { type: "HIDDEN" }>;

/** The list's tag id: the record name when it is one, else a digest of it (stable across reads). */
export async function cloudTagId(recordName: string): Promise<string> {
  if (v.is(tagIdSchema, recordName)) return recordName;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(recordName)));
  const base64 = btoa(String.fromCharCode(...digest));
  return `ck_${base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}

function asSiteError(error: unknown): SiteError {
  if (error instanceof SiteError) return error;
  return new SiteError("jserror", error instanceof Error ? error.message : String(error));
}

/** Runs `run` over `items`, at most `limit` at once, in order; stops starting more after a failure. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await run(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Turns cloud records into the list's tags: each record's track looked up once per key (shared by
 * every list of this library: a song tagged twice is asked once), at most
 * `cloudTrackLookupConcurrency` at a time; hidden and unknown tracks are left out.
 */
function createTagResolver(options: Pick<CloudLibraryOptions, "fetch" | "lang" | "country">) {
  const servicesFetch: typeof fetch = (input, init) =>
    options.fetch(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, init);
  const lookups = new Map<string, Promise<TrackLookup | undefined>>();

  function lookUp(key: string): Promise<TrackLookup | undefined> {
    let pending = lookups.get(key);
    if (!pending) {
      const path = trackServicePath(options.lang, options.country, key);
      pending = getJson(path, trackLookupSchema, {
        fetch: servicesFetch,
        timeoutMs: cloudRequestTimeoutMs,
      }).then(
        (track) => (track.type === "HIDDEN" ? undefined : track),
        (error: unknown) => {
          // A key the catalogue does not know has nothing to show; any other failure fails the read.
          if (error instanceof SiteError && error.type === "serviceerror" && error.status === 404)
            return undefined;
          lookups.delete(key);
          throw error;
        },
      );
      lookups.set(key, pending);
    }
    return pending;
  }

  async function resolve(records: readonly CloudTagRecord[]): Promise<LibraryTag[]> {
    const tags = await mapBounded(records, cloudTrackLookupConcurrency, async (record) => {
      const track = await lookUp(record.key);
      if (!track) return undefined;
      const { type: _type, stores, ...summary } = track;
      const previewurl = stores?.apple?.previewurl;
      const tag: LibraryTag = {
        tagid: await cloudTagId(record.recordName),
        key: record.key,
        timestamp: record.tagTime,
        location: unknownLocation,
        track: { ...summary, ...(previewurl === undefined ? {} : { previewurl }) },
      };
      return tag;
    });
    return tags.filter((tag) => tag !== undefined);
  }

  return resolve;
}

export function createCloudLibrary(options: CloudLibraryOptions): CloudLibrary {
  const { config, storage } = options;
  const now = options.now ?? Date.now;
  const token =
    options.token ??
    (() => {
      const stored = storage.get("icloud.token");
      return stored.ok ? stored.value : undefined;
    });
  const database = createCloudKitDatabase({ config, fetch: options.fetch, token });
  const resolve = createTagResolver(options);
  /** What `tags()` has read so far: the records in order, and where the query goes on. */
  let list: { hasLibraryZone: boolean; records: CloudTagRecord[]; marker: string | undefined } | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  /** One call at a time: `tags()` walks shared state. */
  function serial<T>(run: () => Promise<T>): Promise<T> {
    const result = queue.then(run, run);
    queue = result.catch(() => {});
    return result;
  }

  function store(tags: LibraryTag[]) {
    // A full or refused storage only costs the fallback.
    storage.set(cloudLibraryKey, { tags, storedAt: now() });
  }

  function cached(error: SiteError): Cached | undefined {
    const stored = storage.get(cloudLibraryKey);
    if (!stored.ok || !stored.value) return undefined;
    return { status: "ok", fromCache: true, tags: stored.value.tags, storedAt: stored.value.storedAt, error };
  }

  /** A failed read: the session's end, the cached list for a first page, else the failure. */
  function failure(error: unknown, firstPage: boolean): CloudSessionEnded | CloudLibraryFailure | Cached {
    if (error instanceof SessionEnded) return { status: "session-ended", redirectUrl: error.redirectUrl };
    const siteError = asSiteError(error);
    return (firstPage ? cached(siteError) : undefined) ?? { status: "failed", error: siteError };
  }

  return {
    zone: () =>
      serial(async (): Promise<CloudZoneResult> => {
        try {
          return { status: "ok", hasLibraryZone: await database.hasLibraryZone() };
        } catch (error) {
          if (error instanceof SessionEnded)
            return { status: "session-ended", redirectUrl: error.redirectUrl };
          return { status: "failed", error: asSiteError(error) };
        }
      }),

    page: (marker) =>
      serial(async (): Promise<CloudPageResult> => {
        const firstPage = marker === undefined;
        try {
          // A marker comes from a query of the zone: it exists.
          const hasLibraryZone = firstPage ? await database.hasLibraryZone() : true;
          const read = hasLibraryZone ? await database.queryPage(marker) : { records: [], marker: undefined };
          const tags = await resolve(read.records);
          if (firstPage) store(tags);
          return { status: "ok", fromCache: false, hasLibraryZone, tags, marker: read.marker };
        } catch (error) {
          const failed = failure(error, firstPage);
          return failed.status === "ok" ? { ...failed, marker: undefined } : failed;
        }
      }),

    tags: (start = 0, count = tagPageSize) =>
      serial(async (): Promise<CloudTagsResult> => {
        if (!Number.isSafeInteger(start) || start < 0 || !Number.isSafeInteger(count) || count < 1) {
          return {
            status: "failed",
            error: new SiteError("invalidparam", `Bad start ${start} or count ${count}`),
          };
        }
        // Start 0 reads the list afresh: tags made since the last read show first.
        if (start === 0) list = undefined;
        try {
          if (!list) {
            const hasLibraryZone = await database.hasLibraryZone();
            const first = hasLibraryZone
              ? await database.queryPage(undefined)
              : { records: [], marker: undefined };
            list = { hasLibraryZone, records: first.records, marker: first.marker };
          }
          while (list.marker !== undefined && list.records.length < start + count) {
            const more = await database.queryPage(list.marker);
            list.records.push(...more.records);
            list.marker = more.marker;
          }
          const tags = await resolve(list.records.slice(start, start + count));
          if (start === 0) store(tags);
          const hasMore = start + count < list.records.length || list.marker !== undefined;
          return {
            status: "ok",
            fromCache: false,
            hasLibraryZone: list.hasLibraryZone,
            tags,
            start: hasMore ? start + count : noMorePages,
          };
        } catch (error) {
          // After a failure the list read so far still holds (a failed page is asked again next
          // time); after the session's end it is no one's.
          if (error instanceof SessionEnded) list = undefined;
          const failed = failure(error, start === 0);
          return failed.status === "ok" ? { ...failed, start: noMorePages } : failed;
        }
      }),
  };
}
