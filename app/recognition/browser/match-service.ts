import * as v from "valibot";
import { getJson, postJson, type RequestOptions } from "#app/shell/browser/request.ts";
import { trackServicePath } from "#rules/addresses.ts";
import { digitsSchema, hexColourSchema } from "#rules/schemas/common.ts";
import {
  type MatchRequestBody,
  type WebrecMatchResponse,
  type WebrecSignatureSummary,
  webrecMatchResponseSchema,
  webrecSignatureSummarySchema,
} from "#rules/schemas/webrec.ts";

/** Spec 002 §7 "POST /services/webrec/match, JSON: data, sessionId, lang, country. Returns matches." */
export function requestMatch(
  body: MatchRequestBody,
  options: RequestOptions = {},
): Promise<WebrecMatchResponse> {
  return postJson("/services/webrec/match", body, webrecMatchResponseSchema, options);
}

/** Spec 002 §7 "POST /services/webrec/returnSig, same body, only when query audiocapture=1". */
export function requestReturnSig(
  body: MatchRequestBody,
  options: RequestOptions = {},
): Promise<WebrecSignatureSummary> {
  return postJson("/services/webrec/returnSig", body, webrecSignatureSummarySchema, options);
}

/** Spec 002 §3 "Track lookup result: alias, key, properties (bkgcolor, bkglight), title, subtitle". */
export const trackLookupSchema = v.object({
  key: digitsSchema,
  alias: v.string(),
  title: v.string(),
  subtitle: v.string(),
  durationMs: v.pipe(v.number(), v.integer(), v.minValue(0)),
  properties: v.object({ bkgcolor: hexColourSchema, bkglight: v.boolean() }),
});
export type TrackLookup = v.InferOutput<typeof trackLookupSchema>;

/** The matched track's title, artist, colours and length (spec 002 §7 "Track service requests"). */
export function lookupTrack(
  track: { lang: string; country: string; trackId: string },
  options: RequestOptions = {},
): Promise<TrackLookup> {
  return getJson(trackServicePath(track.lang, track.country, track.trackId), trackLookupSchema, options);
}
