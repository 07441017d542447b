import * as v from "valibot";
import { parseTrackPath } from "#rules/addresses.ts";
import { findCountry } from "#rules/countries.ts";
import { isLanguageKey } from "#rules/languages.ts";
import { digitsSchema } from "./common";

/**
 * Web recognition (spec 002 §3 "Web match request", §7 Recognition): `POST /services/webrec/match`
 * and `POST /services/webrec/returnSig`, both with the same JSON body. The signature's size limit
 * belongs to the signature module (SIGNATURE_MAX_BASE64_LENGTH), checked by the origin.
 */

/** Base64 with padding, as the signature module writes it. */
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

/** Spec 002 §3: "data (base64 signature), sessionId, lang, country". */
export const webrecMatchRequestSchema = v.object({
  data: v.pipe(
    v.string("data must be a string"),
    v.nonEmpty("data is empty"),
    v.regex(base64Pattern, "data is not base64"),
  ),
  /** One listening session: every checkpoint of one recording shares it. */
  sessionId: v.pipe(
    v.string("sessionId must be a string"),
    v.regex(/^[A-Za-z0-9-]{1,64}$/, "Invalid sessionId"),
  ),
  /** An interface language key (rules/languages.ts). */
  lang: v.pipe(
    v.string("lang must be a string"),
    v.check((lang) => isLanguageKey(lang), "Unknown language"),
  ),
  /** The visitor's country, ISO 3166 alpha-2, any case. */
  country: v.pipe(
    v.string("country must be a string"),
    v.check((code) => /^[a-z]{2}$/i.test(code) && findCountry(code) !== undefined, "Unknown country"),
    v.toUpperCase(),
  ),
});
export type WebrecMatchRequest = v.InferOutput<typeof webrecMatchRequestSchema>;

/** One match: the track, its page, and where in the track the recording started. */
export const webrecMatchSchema = v.object({
  /** The track key. */
  trackId: digitsSchema,
  /** The track page path without language prefix: /track/{key}/{alias} (rules/addresses.ts `trackPath`). */
  weburl: v.pipe(
    v.string(),
    v.check((path) => parseTrackPath(path)?.alias !== undefined, "not a track page path"),
  ),
  /** Position in the track of the recording's first sample, ms. */
  offset: v.pipe(v.number(), v.integer()),
  /** Playback speed of what was heard over the recording's, minus 1 (0.01: 1 % fast). */
  timeskew: v.pipe(v.number(), v.finite()),
  /** Frequencies of what was heard over the recording's, minus 1. */
  frequencyskew: v.pipe(v.number(), v.finite()),
});
export type WebrecMatch = v.InferOutput<typeof webrecMatchSchema>;

/** Spec 002 §3: "Response: matches[], each with trackId and weburl"; empty when nothing matched. */
export const webrecMatchResponseSchema = v.object({ matches: v.array(webrecMatchSchema) });
export type WebrecMatchResponse = v.InferOutput<typeof webrecMatchResponseSchema>;

/**
 * Spec 002 §7 returnSig "Returns a signature array": the decoded signature, for debugging a capture
 * (audiocapture=1). Each peak is [time in ms, frequency in Hz].
 */
export const webrecSignatureSummarySchema = v.object({
  sampleRate: v.number(),
  fftSize: v.number(),
  hop: v.number(),
  frameCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  durationMs: v.number(),
  peakCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  signature: v.array(v.tuple([v.number(), v.number()])),
});
export type WebrecSignatureSummary = v.InferOutput<typeof webrecSignatureSummarySchema>;

/** Spec 002 §3 web match request, as the page sends it. */
export type MatchRequestBody = { data: string; sessionId: string; lang: string; country: string };

/** One listening session: every checkpoint of one recording is sent with the same id. */
export type MatchSession = { sessionId: string; lang: string; country: string };

/**
 * The match request of one checkpoint: its signature (base64, encodeSignatureBase64) in its
 * session. The page (app/recognition/browser/) and the command line (tools/recognize/) both build
 * their requests here.
 */
export function matchRequestBody(data: string, session: MatchSession): MatchRequestBody {
  return { data, sessionId: session.sessionId, lang: session.lang, country: session.country };
}
