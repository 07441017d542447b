import * as v from "valibot";
import { SiteError } from "../../../edge/errors";
import { digitsSchema, hexColourSchema } from "../../../edge/schemas/common";
import {
  type MatchRequestBody,
  type WebrecMatchResponse,
  type WebrecSignatureSummary,
  webrecMatchResponseSchema,
  webrecSignatureSummarySchema,
} from "../../../edge/schemas/webrec";
import { defaultRequestTimeoutMs, getJson, type RequestOptions } from "../request";

/**
 * POST to /services/webrec/{path} and parse the JSON answer. The site's request helper only PUTs
 * (spec 000 §7); these calls are POSTs (spec 002 §7), with the same failure mapping: timeout,
 * abort, network, serviceerror with the answer's status and body, baddata.
 */
async function postJson<const S extends v.GenericSchema>(
  url: string,
  body: MatchRequestBody,
  schema: S,
  options: RequestOptions,
): Promise<v.InferOutput<S>> {
  if (options.signal?.aborted) throw new SiteError("abort", `POST ${url} was aborted`);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  let status: number;
  let text: string;
  try {
    const response = await fetchImpl(url, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      credentials: "same-origin",
      signal: controller.signal,
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (timedOut) throw new SiteError("timeout", `POST ${url} timed out after ${timeoutMs} ms`);
    if (controller.signal.aborted) throw new SiteError("abort", `POST ${url} was aborted`);
    throw new SiteError("network", `POST ${url} failed: ${error instanceof Error ? error.message : error}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
  if (status < 200 || status >= 300) {
    throw new SiteError("serviceerror", `POST ${url}: ${status}`, { status, body: text });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SiteError("serviceerror", `POST ${url}: the answer is not JSON`, { status, body: text });
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    throw new SiteError("baddata", `POST ${url}: unexpected answer: ${v.summarize(parsed.issues)}`, {
      status,
    });
  }
  return parsed.output;
}

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
  const path = `/services/track/v1/${encodeURIComponent(track.lang)}/${encodeURIComponent(track.country)}/web/${encodeURIComponent(track.trackId)}`;
  return getJson(path, trackLookupSchema, options);
}
