import * as v from "valibot";

/**
 * Messages between the page and the signature Web Worker (app/recognition/browser/signature-worker.ts).
 * The page streams the microphone's samples as they come and asks for a signature of everything
 * heard so far at each checkpoint; the worker resamples, computes and encodes off the main thread.
 */
export type ToSignatureWorker =
  /** A new recording at the AudioContext's rate: forgets the previous one. */
  | { type: "start"; sampleRate: number }
  /** The next buffer of mono samples (transferred). */
  | { type: "samples"; samples: Float32Array }
  /** The signature of everything since start; `wav` also asks for the audio as a 16-bit WAV. */
  | { type: "signature"; id: number; wav: boolean };

export const fromSignatureWorkerSchema = v.variant("type", [
  v.object({
    type: v.literal("signature"),
    id: v.number(),
    /** Base64 signature: the `data` of a match request. */
    data: v.string(),
    /** Length of the audio the signature covers. */
    durationMs: v.number(),
    wav: v.optional(v.instance(Uint8Array)),
  }),
  v.object({ type: v.literal("error"), id: v.optional(v.number()), message: v.string() }),
]);
export type FromSignatureWorker =
  | { type: "signature"; id: number; data: string; durationMs: number; wav?: Uint8Array }
  | { type: "error"; id?: number; message: string };
