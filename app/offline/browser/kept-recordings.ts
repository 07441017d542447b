import * as v from "valibot";
import { isLanguageKey, localizedPath } from "#rules/languages.ts";

/**
 * Heard offline, identified later (docs/decisions/057-heard-offline.md): the rules of the
 * recordings a page keeps when the network is down at a checkpoint, and of the answers they get
 * once sent. Pure, so that the IndexedDB store (kept-store.ts), the senders (deliver.ts: the page
 * and the service worker) and the tests apply the same ones.
 *
 * - Bounds: at most `keptRecordingsMax` recordings, each kept `keptForMs` from when it was heard;
 *   an 11th drops the oldest, an expired one is dropped unsent. Answers waiting for a page are
 *   bounded the same way.
 * - Once only: a recording is sent by the one sender holding its claim, taken and written in one
 *   IndexedDB transaction (which every tab and the service worker of the origin run one after the
 *   other); the answer replaces the recording in one transaction, and only under that claim.
 */

/** Ten songs heard without a network is a long day out; older ones drop off. */
export const keptRecordingsMax = 10;
/** A week: an answer much later than that is no longer news (and the signature is a week's guess). */
export const keptForMs = 7 * 86_400_000;
/**
 * How long a claim holds without its sender finishing: longer than a send takes (the match request
 * times out after 10 s, the track lookup after 5 s), so that only a sender that went away (a
 * closed tab, a stopped service worker) loses it to another.
 */
export const claimLeaseMs = 60_000;

/** What the announcement says, in the page's language when the recording was kept ({{title}} left in). */
export const offlineTextsSchema = v.object({
  identified: v.string(),
  identifiedUntitled: v.string(),
  unidentified: v.string(),
});
export type OfflineTexts = v.InferOutput<typeof offlineTextsSchema>;

const idSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,64}$/));
const timeSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

export const keptRecordingSchema = v.object({
  /** The recognition's session id: the match request's sessionId and the recent list's key. */
  id: idSchema,
  /** The recording's last signature (base64): it holds everything heard until then. */
  data: v.string(),
  lang: v.string(),
  country: v.string(),
  /** When listening started, epoch ms. */
  heardAt: timeSchema,
  texts: offlineTextsSchema,
  /** The sender that is sending it, until when. */
  claim: v.optional(v.object({ token: v.string(), until: timeSchema })),
});
export type KeptRecording = v.InferOutput<typeof keptRecordingSchema>;

export const heardAnswerSchema = v.variant("outcome", [
  v.object({
    outcome: v.literal("matched"),
    id: idSchema,
    lang: v.string(),
    heardAt: timeSchema,
    answeredAt: timeSchema,
    /** Already announced by its sender (the service worker's notification). */
    announced: v.boolean(),
    texts: offlineTextsSchema,
    trackId: v.pipe(v.string(), v.regex(/^\d+$/)),
    weburl: v.pipe(v.string(), v.startsWith("/")),
    title: v.optional(v.string()),
    artist: v.optional(v.string()),
  }),
  v.object({
    /** No match, or a recording the service refused: nothing more to try. */
    outcome: v.literal("unidentified"),
    id: idSchema,
    lang: v.string(),
    heardAt: timeSchema,
    answeredAt: timeSchema,
    announced: v.boolean(),
    texts: offlineTextsSchema,
  }),
]);
export type HeardAnswer = v.InferOutput<typeof heardAnswerSchema>;

/** Anything with an id and a time, oldest first by that time. */
type Timed = { id: string };

/**
 * What keeping `added` among `existing` changes: the ids to delete (expired, then the oldest over
 * the bound) and the record to put. A recording kept again under its id replaces itself.
 */
export function keepPlan<T extends Timed>(
  existing: readonly T[],
  added: T,
  timeOf: (record: T) => number,
  now: number,
): { remove: string[]; put: T } {
  const remove = existing.filter((record) => timeOf(record) <= now - keptForMs).map((record) => record.id);
  const staying = existing
    .filter((record) => record.id !== added.id && !remove.includes(record.id))
    .sort((a, b) => timeOf(a) - timeOf(b));
  const over = staying.length - (keptRecordingsMax - 1);
  if (over > 0) remove.push(...staying.slice(0, over).map((record) => record.id));
  return { remove, put: added };
}

/** The records still within their time, oldest first, and the ids of the expired ones. */
export function unexpired<T extends Timed>(
  records: readonly T[],
  timeOf: (record: T) => number,
  now: number,
): { kept: T[]; expired: string[] } {
  const kept = records.filter((record) => timeOf(record) > now - keptForMs);
  return {
    kept: kept.sort((a, b) => timeOf(a) - timeOf(b)),
    expired: records.filter((record) => !kept.includes(record)).map((record) => record.id),
  };
}

/** The recording claimed by `token` until the lease ends; undefined while another sender holds it. */
export function claimed(record: KeptRecording, token: string, now: number): KeptRecording | undefined {
  if (record.claim && record.claim.token !== token && record.claim.until > now) return undefined;
  return { ...record, claim: { token, until: now + claimLeaseMs } };
}

/** The recording without `token`'s claim (unchanged when another sender holds it now). */
export function released(record: KeptRecording, token: string): KeptRecording {
  if (record.claim?.token !== token) return record;
  const { claim: _claim, ...rest } = record;
  return rest;
}

/**
 * Whether `token` may answer the recording: it still holds the claim. A sender whose lease ran out
 * and whose recording another sender has claimed since writes nothing: the other one answers.
 */
export function holdsClaim(record: KeptRecording | undefined, token: string): boolean {
  return record?.claim?.token === token;
}

/** What the announcement of an answer says, in the language it was kept in. */
export function announcementOf(answer: HeardAnswer): string {
  if (answer.outcome === "unidentified") return answer.texts.unidentified;
  if (answer.title === undefined) return answer.texts.identifiedUntitled;
  return answer.texts.identified.split("{{title}}").join(answer.title);
}

/**
 * The page's local-storage hint that recordings or answers wait, so that a page loads this code
 * only then; cleared by a page that finds none left.
 */
export const heardOfflineHint = "webrec.kept";

/**
 * The notification of an answer (its text from `announcementOf`): one per recording (its id as the
 * tag, so a second one replaces it), opening the matched song's page, else the identify page.
 */
export function notificationOf(
  answer: HeardAnswer,
  text: string,
): { title: string; options: NotificationOptions & { data: { url: string } } } {
  const lang = isLanguageKey(answer.lang) ? answer.lang : "en";
  const path = answer.outcome === "matched" ? answer.weburl : "/identify";
  return {
    title: "Tunewave",
    options: { body: text, tag: `heard-offline-${answer.id}`, data: { url: localizedPath(lang, path) } },
  };
}
