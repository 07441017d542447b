import * as v from "valibot";
import { cloudKitUrl } from "#app/account/browser/cloud-auth.ts";
import type { CloudKitConfig } from "#rules/account.ts";
import { SiteError } from "#rules/errors.ts";
import { cloudLibraryZone, cloudQueryPageSize, cloudRequestTimeoutMs } from "#rules/library.ts";
import { digitsSchema } from "#rules/schemas/common.ts";

/**
 * The library zone of a person's CloudKit private database, as My Library reads it (spec 002 §7
 * "Cloud variant", §9): the two operations (zones/list, records/query), each with the 45 s
 * timeout, and the Track records in their answers. Messages name the operation, never the
 * address: it carries the web auth token. Shapes: Apple's CloudKit Web Services Reference (see
 * app/library/browser/cloud-library.ts).
 */

/** Spec 002 §3 "Cloud record: type Track". */
const trackRecordType = "Track";

/**
 * Spec 002 §7 records/query body: "resultsLimit, zoneID, numbersAsStrings, zoneWide false, query
 * (recordType Track, no filter, sort by Date descending), continuationMarker" (the marker only
 * when paging: Apple's default for it is null).
 */
export function recordsQueryBody(continuationMarker?: string) {
  return {
    zoneID: { zoneName: cloudLibraryZone },
    resultsLimit: cloudQueryPageSize,
    numbersAsStrings: true,
    zoneWide: false,
    query: { recordType: trackRecordType, sortBy: [{ fieldName: "Date", ascending: false }] },
    ...(continuationMarker === undefined ? {} : { continuationMarker }),
  };
}

const zonesListSchema = v.object({
  zones: v.array(
    v.object({
      zoneID: v.object({ zoneName: v.string() }),
      serverErrorCode: v.optional(v.string()),
    }),
  ),
});

const recordsQuerySchema = v.object({
  // Each record is read on its own: one record of an unknown shape does not hide the others.
  records: v.array(v.unknown()),
  continuationMarker: v.nullish(v.pipe(v.string(), v.minLength(1))),
});

/** With numbersAsStrings an Int(64) arrives as a string of digits; without, as a number. */
const shazamKeySchema = v.union([
  digitsSchema,
  v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.transform(String)),
]);
/** Date/Time: milliseconds since 1970, a number or (numbersAsStrings) a string of digits. */
const dateMsSchema = v.union([
  v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  v.pipe(v.string(), v.regex(/^\d{1,16}$/), v.transform(Number), v.safeInteger()),
]);

const trackRecordSchema = v.object({
  recordName: v.pipe(v.string(), v.minLength(1)),
  recordType: v.literal(trackRecordType),
  deleted: v.optional(v.boolean()),
  fields: v.object({
    ShazamKey: v.object({ value: shazamKeySchema }),
    Date: v.object({ value: dateMsSchema }),
  }),
});

/** One tag as the cloud holds it. */
export type CloudTagRecord = { recordName: string; key: string; tagTime: number };

/** A Track record, or undefined for anything else (an error dictionary, a deleted or unknown record). */
export function cloudTagRecord(record: unknown): CloudTagRecord | undefined {
  const parsed = v.safeParse(trackRecordSchema, record);
  if (!parsed.success || parsed.output.deleted) return undefined;
  const { recordName, fields } = parsed.output;
  return { recordName, key: fields.ShazamKey.value, tagTime: fields.Date.value };
}

/** Thrown when CloudKit says the session is over; answered as `session-ended`. */
export class SessionEnded extends Error {
  constructor(readonly redirectUrl: string | undefined) {
    super("CloudKit: the session ended");
  }
}

const authRequiredSchema = v.object({ redirectURL: v.pipe(v.string(), v.url()) });

/** The CloudKit private database of the signed-in person; `token` is their web auth token. */
export function createCloudKitDatabase({
  config,
  fetch,
  token,
}: {
  config: CloudKitConfig;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  token: () => string | undefined;
}) {
  /** A CloudKit private-database call with the 45 s timeout (spec 002 §9); its JSON answer. */
  async function call(operation: "zones/list" | "records/query", body?: unknown): Promise<unknown> {
    const webAuthToken = token();
    if (!webAuthToken) throw new SessionEnded(undefined);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, cloudRequestTimeoutMs);
    // The timeout ends the wait even where a fetch does not heed its signal.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
    let status: number;
    let text: string;
    // Messages name the operation, never the address: it carries the web auth token.
    try {
      const response = await Promise.race([
        fetch(cloudKitUrl(config, "private", operation, webAuthToken), {
          method: body === undefined ? "GET" : "POST",
          // A string body goes as text/plain, as in Apple's own examples: no CORS preflight.
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          headers: { accept: "application/json" },
          signal: controller.signal,
        }),
        aborted,
      ]);
      status = response.status;
      text = await Promise.race([response.text(), aborted]);
    } catch (error) {
      if (timedOut)
        throw new SiteError("timeout", `CloudKit ${operation} timed out after ${cloudRequestTimeoutMs} ms`);
      throw new SiteError(
        "network",
        `CloudKit ${operation} failed: ${error instanceof Error ? error.message : error}`,
      );
    } finally {
      clearTimeout(timer);
    }
    if (status === 401 || status === 421) {
      let redirectUrl: string | undefined;
      try {
        const required = v.safeParse(authRequiredSchema, JSON.parse(text));
        if (required.success) redirectUrl = required.output.redirectURL;
      } catch {
        // No sign-in address: the session ended all the same.
      }
      throw new SessionEnded(redirectUrl);
    }
    if (status < 200 || status >= 300) {
      throw new SiteError("serviceerror", `CloudKit ${operation}: ${status}`, { status, body: text });
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new SiteError("serviceerror", `CloudKit ${operation}: the answer is not JSON`, {
        status,
        body: text,
      });
    }
  }

  /** GET zones/list: whether the `shazam-library` zone is there. */
  async function hasLibraryZone(): Promise<boolean> {
    const parsed = v.safeParse(zonesListSchema, await call("zones/list"));
    if (!parsed.success) {
      throw new SiteError("baddata", `CloudKit zones/list: unexpected answer: ${v.summarize(parsed.issues)}`);
    }
    return parsed.output.zones.some(
      (zone) => zone.zoneID.zoneName === cloudLibraryZone && zone.serverErrorCode === undefined,
    );
  }

  /** One POST records/query page from `marker`: its Track records and the next page's marker. */
  async function queryPage(marker: string | undefined) {
    const parsed = v.safeParse(recordsQuerySchema, await call("records/query", recordsQueryBody(marker)));
    if (!parsed.success) {
      throw new SiteError(
        "baddata",
        `CloudKit records/query: unexpected answer: ${v.summarize(parsed.issues)}`,
      );
    }
    const records = parsed.output.records.flatMap((record) => cloudTagRecord(record) ?? []);
    // A marker that does not move on would ask for the same page forever.
    const next = parsed.output.continuationMarker ?? undefined;
    return { records, marker: next === marker ? undefined : next };
  }

  return { hasLibraryZone, queryPage };
}
