import { WorkerEntrypoint } from "cloudflare:workers";
import { type RecognitionShardBindings, recognitionShards } from "#rules/env.ts";
import type { RecognizerMatchAnswer, RecognizerSummaryAnswer } from "#rules/schemas/recognizer.ts";
import { decodeSignatureBase64, matchSignatureIn, signatureSketch } from "#signature/index.ts";
import {
  admission,
  failureOf,
  matchesRunningPerIsolate,
  matchesWaitingPerIsolate,
  matchWaitMs,
  signatureSummary,
} from "./answers";
import { recognitionStore } from "./store";

/**
 * The recognizer: a Worker of its own behind the site's service binding RECOGNIZER
 * (docs/decisions/052-recognizer-worker.md). It decodes a signature, matches it against the
 * recognition store and answers in the contract of rules/schemas/recognizer.ts, in isolates of its
 * own: a match's CPU and the postings it reads never share an isolate with a page's render.
 */
export type RecognizerEnv = {
  RECOGNITION: D1Database;
  RECOGNITION_SHARDS?: string;
} & RecognitionShardBindings;

/** The matches this isolate runs at once. */
const matches = admission(matchesRunningPerIsolate, matchesWaitingPerIsolate, matchWaitMs);

export default class Recognizer extends WorkerEntrypoint<RecognizerEnv> {
  /** Decodes and matches a signature (base64, as a client sends it). */
  async match(data: string): Promise<RecognizerMatchAnswer> {
    return matches.run({ outcome: "busy" }, async () => {
      try {
        const signature = decodeSignatureBase64(data);
        // The postings come from the store, a lookup a step (one query a shard, at once): the
        // isolate holds none of the index.
        const match = await matchSignatureIn(recognitionStore(recognitionShards(this.env)), signature);
        if (!match) return { outcome: "nomatch" };
        return {
          outcome: "matched",
          trackKey: Number(match.trackKey),
          offsetMs: match.offsetMs,
          timeskew: match.timeskew,
          frequencyskew: match.frequencyskew,
          sketch: signatureSketch(signature),
        };
      } catch (error) {
        return failureOf(error);
      }
    });
  }

  /** Decodes a signature for returnSig (spec 002 §7): no store read. */
  async summary(data: string): Promise<RecognizerSummaryAnswer> {
    try {
      return { outcome: "decoded", summary: signatureSummary(decodeSignatureBase64(data)) };
    } catch (error) {
      return failureOf(error);
    }
  }

  /** Nothing is served over HTTP: the recognizer has no route, only the binding's methods. */
  override async fetch(): Promise<Response> {
    return new Response("Not found", { status: 404 });
  }
}
