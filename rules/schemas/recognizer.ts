import * as v from "valibot";
import { webrecSignatureSummarySchema } from "./webrec";

/**
 * What crosses the service binding between the site and the recognizer, a Worker of its own
 * (recognizer/index.ts, docs/decisions/052-recognizer-worker.md). The site sends the signature as
 * the client sent it (base64, already bounded in length); the recognizer decodes it, matches it
 * against the recognition store and answers one of these. The two Workers are deployed one after
 * the other, so the site parses every answer: one it does not know is a failure, never a guess.
 */

/** A refused signature: the client's fault, in the signature module's words (a 413 or a 400). */
const refusedSchema = v.object({
  outcome: v.literal("refused"),
  /** "toolarge": over the size or length bounds (413); "invalid": any other check (400). */
  reason: v.picklist(["toolarge", "invalid"]),
  message: v.string(),
});

/**
 * The recognizer's own failures. "busy": it has as many matches in flight as an isolate is given
 * (503 with Retry-After); "unavailable": the recognition store failed (503 with Retry-After);
 * "failed": anything else, a bug (500). The cause is in the recognizer's log, never here.
 */
const failureSchema = v.object({ outcome: v.picklist(["busy", "unavailable", "failed"]) });

export const recognizerMatchAnswerSchema = v.variant("outcome", [
  v.object({
    outcome: v.literal("matched"),
    trackKey: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /** Where in the track the recording starts, ms; and the skews (rules/schemas/webrec.ts). */
    offsetMs: v.pipe(v.number(), v.finite()),
    timeskew: v.pipe(v.number(), v.finite()),
    frequencyskew: v.pipe(v.number(), v.finite()),
    /** The signature's sketch (signature/sketch.ts), by which the same recording sent again counts once. */
    sketch: v.array(v.pipe(v.number(), v.integer())),
  }),
  v.object({ outcome: v.literal("nomatch") }),
  refusedSchema,
  failureSchema,
]);
export type RecognizerMatchAnswer = v.InferOutput<typeof recognizerMatchAnswerSchema>;

export const recognizerSummaryAnswerSchema = v.variant("outcome", [
  v.object({ outcome: v.literal("decoded"), summary: webrecSignatureSummarySchema }),
  refusedSchema,
  failureSchema,
]);
export type RecognizerSummaryAnswer = v.InferOutput<typeof recognizerSummaryAnswerSchema>;

/** A failure either answer can be. */
export type RecognizerFailure = v.InferOutput<typeof refusedSchema> | v.InferOutput<typeof failureSchema>;

/**
 * The binding as the site calls it (wrangler.toml `[[services]]` RECOGNIZER): RPC methods of the
 * recognizer's entrypoint, their answers unknown until parsed with the schemas above.
 */
export type RecognizerBinding = {
  match(data: string): Promise<unknown>;
  summary(data: string): Promise<unknown>;
};
