import type { RecognizerFailure } from "#rules/schemas/recognizer.ts";
import type { WebrecSignatureSummary } from "#rules/schemas/webrec.ts";
import { PEAK_BIN_FRACTION, type Signature, SignatureError, signatureDurationMs } from "#signature/index.ts";
import { RecognitionStoreError } from "./store";

// What the recognizer answers, apart from its entrypoint (recognizer/index.ts): a Worker's main
// module may export only its handlers.

/**
 * Matches one isolate runs at once; past it the recognizer answers "busy" (503 with Retry-After)
 * at once, without decoding. A match holds the postings it read (up to MATCH_STEP_ENTRIES a step)
 * while it runs: 20 at once is what the bench measures inside one isolate's memory (`npm run
 * bench:memory`, decision 052), and the platform runs more isolates when more arrive.
 */
export const matchesInFlightPerIsolate = 20;

/**
 * Admits at most `limit` works at once: past it, `run` answers `busy` at once and runs nothing.
 * One per isolate (module state): what it bounds is the isolate's memory.
 */
export function admission(limit: number) {
  let inFlight = 0;
  return {
    async run<T>(busy: T, work: () => Promise<T>): Promise<T> {
      if (inFlight >= limit) return busy;
      inFlight++;
      try {
        return await work();
      } finally {
        inFlight--;
      }
    },
  };
}

/** What a failed decode or match answers. The cause goes to the log; the answer says only which kind. */
export function failureOf(error: unknown): RecognizerFailure {
  if (error instanceof SignatureError) {
    return {
      outcome: "refused",
      reason: error.reason === "toolarge" ? "toolarge" : "invalid",
      message: error.message,
    };
  }
  if (error instanceof RecognitionStoreError) {
    console.error("recognizer: recognition store failed:", error.cause ?? error);
    return { outcome: "unavailable" };
  }
  console.error("recognizer: match failed:", error);
  return { outcome: "failed" };
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
