import type { RecognizerFailure } from "#rules/schemas/recognizer.ts";
import type { WebrecSignatureSummary } from "#rules/schemas/webrec.ts";
import { PEAK_BIN_FRACTION, type Signature, SignatureError, signatureDurationMs } from "#signature/index.ts";
import { RecognitionStoreError } from "./store";

// What the recognizer answers, apart from its entrypoint (recognizer/index.ts): a Worker's main
// module may export only its handlers.

/**
 * Matches one isolate runs at once, and how many more may wait for a place; past both the recognizer
 * answers "busy" (503 with Retry-After) at once, without decoding. A running match holds the
 * postings it read (up to MATCH_STEP_ENTRIES a step, a query's hex text at a time), a waiting one
 * only its signature: the isolate's heap grows with the running ones. An isolate has one thread, so
 * running more at once only overlaps more store round trips; past a few it adds memory, not
 * throughput (decision 052, "Admission": the heap and the matches a second at each limit).
 */
export const matchesRunningPerIsolate = 6;
export const matchesWaitingPerIsolate = 30;
/**
 * How long a match waits for a place before it answers busy. The wait is a timer of the waiting
 * request's own: workerd cancels a request that awaits only another request's promise ("the
 * script will never generate a response"), and a place handed over by another match is just that.
 */
export const matchWaitMs = 10_000;

/**
 * Runs at most `running` works at once, in the order they came; up to `waiting` more wait for a
 * place, at most `waitMs` each, and past them `run` answers `busy` at once and runs nothing. One per
 * isolate (module state): what it bounds is the isolate's memory.
 */
export function admission(running: number, waiting: number, waitMs: number) {
  let inFlight = 0;
  const queue: (() => void)[] = [];
  const place = () =>
    new Promise<boolean>((resolve) => {
      const give = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(give), 1);
        resolve(false);
      }, waitMs);
      queue.push(give);
    });
  return {
    async run<T>(busy: T, work: () => Promise<T>): Promise<T> {
      if (inFlight < running) inFlight++;
      else if (queue.length >= waiting || !(await place())) return busy;
      try {
        return await work();
      } finally {
        // The place passes to the longest waiting work, or is given up.
        const next = queue.shift();
        if (next) next();
        else inFlight--;
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
