import {
  computeSignature,
  encodeSignatureBase64,
  encodeWav16,
  signatureDurationMs,
} from "#signature/index.ts";
import type { FromSignatureWorker } from "./worker-protocol";

/**
 * What the signature worker does with each message, apart from the worker glue (signature-worker.ts)
 * so that it runs in Node tests too. Samples are kept as they arrive; a signature request joins
 * them and computes the signature at the signature's fixed rate, whatever the capture rate was
 * (computeSignature resamples).
 */
export function createSignatureWorkerHandler(
  post: (message: FromSignatureWorker, transfer?: Transferable[]) => void,
) {
  let sampleRate = 0;
  let chunks: Float32Array[] = [];
  let length = 0;

  function joined(): Float32Array {
    const all = new Float32Array(length);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    // One buffer from now on: the next join copies only what came after.
    chunks = [all];
    return all;
  }

  return function handle(message: unknown): void {
    const data = message as {
      type?: unknown;
      sampleRate?: unknown;
      samples?: unknown;
      id?: unknown;
      wav?: unknown;
    };
    const id = typeof data.id === "number" ? data.id : undefined;
    try {
      if (data.type === "start" && typeof data.sampleRate === "number") {
        sampleRate = data.sampleRate;
        chunks = [];
        length = 0;
      } else if (data.type === "samples" && data.samples instanceof Float32Array) {
        chunks.push(data.samples);
        length += data.samples.length;
      } else if (data.type === "signature" && id !== undefined) {
        if (sampleRate === 0) throw new Error("No recording started");
        const samples = joined();
        const signature = computeSignature(samples, sampleRate);
        const wav = data.wav === true ? encodeWav16(samples, sampleRate) : undefined;
        post(
          {
            type: "signature",
            id,
            data: encodeSignatureBase64(signature),
            durationMs: signatureDurationMs(signature),
            ...(wav ? { wav } : {}),
          },
          wav ? [wav.buffer] : [],
        );
      } else {
        throw new Error(`Unknown message ${String(data.type)}`);
      }
    } catch (error) {
      post({ type: "error", id, message: error instanceof Error ? error.message : String(error) });
    }
  };
}
