import * as v from "valibot";
import { tracksByKeys } from "#origin/db/tracks.ts";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import {
  cachePolicy,
  clientAddressOf,
  errorResponse,
  json,
  limitExceeded,
  parseParams,
} from "#origin/http.ts";
import { recordIdentification } from "#origin/identifications.ts";
import { tagRecognition } from "#origin/signed-in.ts";
import { trackPath } from "#rules/addresses.ts";
import { clientAddressKey } from "#rules/client-address.ts";
import { SiteError } from "#rules/errors.ts";
import { readBody } from "#rules/http-body.ts";
import {
  type RecognizerFailure,
  recognizerMatchAnswerSchema,
  recognizerSummaryAnswerSchema,
} from "#rules/schemas/recognizer.ts";
import {
  type WebrecMatchRequest,
  type WebrecMatchResponse,
  webrecMatchRequestSchema,
} from "#rules/schemas/webrec.ts";
import { SIGNATURE_MAX_BASE64_LENGTH } from "#signature/constants.ts";

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
async function overMatchLimit(c: OriginContext): Promise<Response | null> {
  const { success } = await c.env.MATCH_LIMIT.limit({ key: `match:${clientAddressKey(clientAddressOf(c))}` });
  return success
    ? null
    : limitExceeded(
        `Over ${matchesPerAddressPerMinute} match requests a minute from this client address`,
        60,
      );
}

/** Seconds a client waits before asking again when the recognizer is busy or down. */
export const recognizerRetryAfterSeconds = 5;

function retryLater(message: string): Response {
  const response = errorResponse(new SiteError("serviceerror", message), 503);
  response.headers.set("Retry-After", String(recognizerRetryAfterSeconds));
  return response;
}

/**
 * What the recognizer's failure answers (rules/schemas/recognizer.ts): the client's refused
 * signature in the signature module's words; the recognizer's own failures with a fixed message
 * each, its cause in the recognizer's log. Busy and a store outage are worth asking again (503 with
 * Retry-After); anything else is a bug (500).
 */
export function recognizerFailure(failure: RecognizerFailure): Response {
  switch (failure.outcome) {
    case "refused":
      return failure.reason === "toolarge"
        ? payloadTooLarge(failure.message)
        : errorResponse(new SiteError("invalidparam", failure.message));
    case "busy":
      return retryLater("Recognizer busy");
    case "unavailable":
      return retryLater("Recognition store unavailable");
    case "failed":
      return errorResponse(new SiteError("serviceerror", "Recognition failed"), 500);
  }
}

/**
 * One call of the recognizer through its binding, its answer parsed. The binding failing (the
 * recognizer not deployed, over its limits, or an answer of another version of the contract) is
 * the recognizer unavailable: 503 with Retry-After, the cause logged.
 */
async function askRecognizer<T>(
  call: () => Promise<unknown>,
  schema: v.GenericSchema<unknown, T>,
): Promise<T | Response> {
  let answer: unknown;
  try {
    answer = await call();
  } catch (error) {
    console.error("webrec: the recognizer did not answer:", error);
    return retryLater("Recognizer unavailable");
  }
  const parsed = v.safeParse(schema, answer);
  if (parsed.success) return parsed.output;
  console.error("webrec: the recognizer answered outside its contract:", v.summarize(parsed.issues));
  return retryLater("Recognizer unavailable");
}

type ParsedRequest = { request: WebrecMatchRequest } | { refused: Response };

/**
 * Spec 002 §3 web match request: a body of at most webrecMaxBodyBytes (else 413), JSON (else 400),
 * the fields of webrecMatchRequestSchema (else 400), and a signature no longer than
 * SIGNATURE_MAX_BASE64_LENGTH (else 413). The recognizer decodes the signature.
 */
async function readMatchRequest(c: OriginContext): Promise<ParsedRequest> {
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
  return { request: parseParams(webrecMatchRequestSchema, body) };
}

export function registerWebrec(origin: OriginApp) {
  /** Spec 002 §7 `POST /services/webrec/match`: `{matches: [...]}`, empty when nothing matched. */
  origin.post("/webrec/match", async (c) => {
    const limited = await overMatchLimit(c);
    if (limited) return limited;
    const parsed = await readMatchRequest(c);
    if ("refused" in parsed) return parsed.refused;
    const { data } = parsed.request;
    const match = await askRecognizer(() => c.env.RECOGNIZER.match(data), recognizerMatchAnswerSchema);
    if (match instanceof Response) return match;
    if (match.outcome !== "matched" && match.outcome !== "nomatch") return recognizerFailure(match);
    const body: WebrecMatchResponse = { matches: [] };
    if (match.outcome === "matched") {
      const [track] = await tracksByKeys(c.var.db, [match.trackKey]);
      // An index of another catalogue may name a track the database does not hold: no match then.
      if (track) {
        // One identification, signed in or not: the tag below adds none of its own. The body's
        // country chose the storefront; where the visitor is, the edge says.
        await recordIdentification(c, {
          trackKey: track.key,
          recording: { offsetMs: Math.round(match.offsetMs), sketch: match.sketch },
        });
        await tagRecognition(c, {
          sessionId: parsed.request.sessionId,
          trackKey: track.key,
          country: parsed.request.country,
        });
        body.matches.push({
          trackId: String(track.key),
          weburl: trackPath(track.key, track.alias),
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
    const { data } = parsed.request;
    const decoded = await askRecognizer(() => c.env.RECOGNIZER.summary(data), recognizerSummaryAnswerSchema);
    if (decoded instanceof Response) return decoded;
    if (decoded.outcome !== "decoded") return recognizerFailure(decoded);
    return json(c, decoded.summary, cachePolicy.never);
  });
}
