import type { Context } from "hono";
import * as v from "valibot";
import { clientAddressKey } from "../../rules/client-address";
import { recognitionShards } from "../../rules/env";
import { SiteError } from "../../rules/errors";
import { readBody } from "../../rules/http-body";
import {
  type WebrecMatchRequest,
  type WebrecMatchResponse,
  type WebrecSignatureSummary,
  webrecMatchRequestSchema,
} from "../../rules/schemas/webrec";
import {
  decodeSignatureBase64,
  type Match,
  matchSignatureIn,
  PEAK_BIN_FRACTION,
  SIGNATURE_MAX_BASE64_LENGTH,
  type Signature,
  SignatureError,
  signatureDurationMs,
  signatureSketch,
} from "../../signature/index";
import * as db from "../db";
import type { OriginApp, OriginEnv } from "../env";
import { cachePolicy, clientAddressOf, errorResponse, json, limitExceeded, parseParams } from "../http";
import { recordIdentification } from "../identifications";
import { RecognitionStoreError, recognitionStore } from "../recognition-store";
import { tagRecognition } from "../signed-in";

/** Largest request body: the largest signature's base64 and room for the other fields. */
export const webrecMaxBodyBytes = SIGNATURE_MAX_BASE64_LENGTH + 1024;

/** 413: the catalogue has no type for it (invalidparam is a 400), so the status is given here. */
function payloadTooLarge(message: string): Response {
  return errorResponse(new SiteError("invalidparam", message), 413);
}

/**
 * Match requests (and returnSig, its twin) one client address may make a minute (wrangler.toml
 * `[[ratelimits]]` MATCH_LIMIT, which holds the number). A person identifies a song every few
 * minutes, each in up to four requests (the 3, 6, 9 and 12 s checkpoints): an office of fifty
 * people behind one address, a few of them at any minute, makes a few dozen; 60 lets them through
 * and stops a script's loop at one request a second.
 */
export const matchesPerAddressPerMinute = 60;

/** Over the limit: the catalogue's limitexceeded, and when to ask again; nothing is read or matched. */
async function overMatchLimit(c: Context<{ Bindings: OriginEnv }>): Promise<Response | null> {
  const { success } = await c.env.MATCH_LIMIT.limit({ key: `match:${clientAddressKey(clientAddressOf(c))}` });
  return success
    ? null
    : limitExceeded(
        `Over ${matchesPerAddressPerMinute} match requests a minute from this client address`,
        60,
      );
}

/** Seconds a client waits before asking again when the recognition store is down. */
export const storeRetryAfterSeconds = 5;

/**
 * What a failed match answers. The store's failure (RecognitionStoreError: D1, or shards not
 * loaded as one index) is an outage, 503 with Retry-After; anything else is a bug, 500. Either
 * way the cause goes to the log and a fixed message to the client: an internal message says
 * nothing a client can act on and may say what it should not know.
 */
export function matchFailure(error: unknown): Response {
  if (error instanceof RecognitionStoreError) {
    console.error("webrec: recognition store failed:", error.cause ?? error);
    const response = errorResponse(new SiteError("serviceerror", "Recognition store unavailable"), 503);
    response.headers.set("Retry-After", String(storeRetryAfterSeconds));
    return response;
  }
  console.error("webrec: match failed:", error);
  return errorResponse(new SiteError("serviceerror", "Recognition failed"), 500);
}

type ParsedRequest = { request: WebrecMatchRequest; signature: Signature } | { refused: Response };

/**
 * Spec 002 §3 web match request: a body of at most webrecMaxBodyBytes (else 413), JSON (else 400),
 * the fields of webrecMatchRequestSchema (else 400), and a signature no longer than
 * SIGNATURE_MAX_BASE64_LENGTH (else 413) that the signature module accepts (else 400).
 */
async function readMatchRequest(c: Context<{ Bindings: OriginEnv }>): Promise<ParsedRequest> {
  const bytes = await readBody(c.req.raw, webrecMaxBodyBytes);
  if (bytes === "too large")
    return { refused: payloadTooLarge(`Request body over ${webrecMaxBodyBytes} bytes`) };
  const text = bytes === null ? "" : new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SiteError("invalidparam", "The request body is not JSON");
  }
  const data = v.safeParse(v.object({ data: v.string() }), body);
  if (data.success && data.output.data.length > SIGNATURE_MAX_BASE64_LENGTH) {
    return {
      refused: payloadTooLarge(`Signature data longer than ${SIGNATURE_MAX_BASE64_LENGTH} characters`),
    };
  }
  const request = parseParams(webrecMatchRequestSchema, body);
  try {
    return { request, signature: decodeSignatureBase64(request.data) };
  } catch (error) {
    if (error instanceof SignatureError && error.reason === "toolarge")
      return { refused: payloadTooLarge(error.message) };
    throw error;
  }
}

/** Spec 002 §7 returnSig "Returns a signature array": each peak as [time ms, frequency Hz]. */
export function signatureSummary(signature: Signature): WebrecSignatureSummary {
  const msPerFrame = (signature.hop * 1000) / signature.sampleRate;
  const hzPerBin = signature.sampleRate / signature.fftSize / PEAK_BIN_FRACTION;
  return {
    sampleRate: signature.sampleRate,
    fftSize: signature.fftSize,
    hop: signature.hop,
    frameCount: signature.frameCount,
    durationMs: Math.round(signatureDurationMs(signature)),
    peakCount: signature.frames.length,
    signature: Array.from(signature.frames, (frame, i) => [
      Math.round(frame * msPerFrame),
      Math.round((signature.bins[i] as number) * hzPerBin * 10) / 10,
    ]),
  };
}

export function registerWebrec(origin: OriginApp) {
  /** Spec 002 §7 `POST /services/webrec/match`: `{matches: [...]}`, empty when nothing matched. */
  origin.post("/webrec/match", async (c) => {
    const limited = await overMatchLimit(c);
    if (limited) return limited;
    const parsed = await readMatchRequest(c);
    if ("refused" in parsed) return parsed.refused;
    // The postings come from the recognition store, a lookup a step (one query a shard, at once):
    // the isolate holds none of the index.
    const store = recognitionStore(recognitionShards(c.env));
    let match: Match | null;
    try {
      match = await matchSignatureIn(store, parsed.signature);
    } catch (error) {
      return matchFailure(error);
    }
    const body: WebrecMatchResponse = { matches: [] };
    if (match) {
      const [track] = await db.tracksByKeys(c.env.DB, [Number(match.trackKey)]);
      // An index of another catalogue may name a track the database does not hold: no match then.
      if (track) {
        // One identification, signed in or not: the tag below adds none of its own. The body's
        // country chose the storefront; where the visitor is, the edge says.
        await recordIdentification(c, {
          trackKey: track.key,
          recording: { offsetMs: Math.round(match.offsetMs), sketch: signatureSketch(parsed.signature) },
        });
        await tagRecognition(c, {
          sessionId: parsed.request.sessionId,
          trackKey: track.key,
          country: parsed.request.country,
        });
        body.matches.push({
          trackId: String(track.key),
          weburl: `/track/${track.key}/${encodeURIComponent(track.alias)}`,
          offset: match.offsetMs,
          timeskew: match.timeskew,
          frequencyskew: match.frequencyskew,
        });
      } else {
        console.warn(`webrec: matched ${match.trackKey}, which the catalogue does not hold`);
      }
    }
    return json(c, body, cachePolicy.never);
  });

  /** Spec 002 §7 `POST /services/webrec/returnSig` (audiocapture=1): the decoded signature. */
  origin.post("/webrec/returnSig", async (c) => {
    const limited = await overMatchLimit(c);
    if (limited) return limited;
    const parsed = await readMatchRequest(c);
    if ("refused" in parsed) return parsed.refused;
    return json(c, signatureSummary(parsed.signature), cachePolicy.never);
  });
}
