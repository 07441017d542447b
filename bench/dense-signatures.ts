import {
  encodeSignature,
  FFT_SIZE,
  HOP_SIZE,
  PEAK_BIN_FRACTION,
  SIGNATURE_DENSITY_WINDOW_FRAMES,
  SIGNATURE_MAX_BYTES,
  SIGNATURE_MAX_PEAKS,
  SIGNATURE_MAX_PEAKS_PER_FRAME,
  SIGNATURE_MAX_PEAKS_PER_SECOND,
  SIGNATURE_MAX_SECONDS,
  SIGNATURE_SAMPLE_RATE,
  type Signature,
} from "#signature/index.ts";
import { MAX_PEAK_BIN, MIN_PEAK_BIN } from "#signature/peaks.ts";

/**
 * Hand-made signatures as dense as the bounds allow (decision 051): what an attacker can send that
 * the recognizer must still match. Read by the bounds' CPU bench (bench/signature-bounds.ts) and
 * the recognizer's isolation bench (bench/recognizer-isolation.ts).
 */

/** Frames in the longest signature allowed. */
export const MAX_FRAMES = Math.ceil((SIGNATURE_MAX_SECONDS * SIGNATURE_SAMPLE_RATE) / HOP_SIZE);

/** A frequency bin at random between the peaks' lowest and highest, `random` in [0, 1). */
export function randomPeakBin(random: () => number): number {
  return Math.floor((MIN_PEAK_BIN + random() * (MAX_PEAK_BIN - MIN_PEAK_BIN)) * PEAK_BIN_FRACTION);
}

/** A signature of these peaks (sorted here) over `frameCount` frames. */
export function signatureOf(frameCount: number, peaks: { frame: number; bin: number }[]): Signature {
  peaks.sort((a, b) => a.frame - b.frame || a.bin - b.bin);
  return {
    sampleRate: SIGNATURE_SAMPLE_RATE,
    fftSize: FFT_SIZE,
    hop: HOP_SIZE,
    frameCount,
    frames: Uint32Array.from(peaks, (peak) => peak.frame),
    bins: Uint16Array.from(peaks, (peak) => peak.bin),
  };
}

/**
 * As many peaks as the bounds allow over `frames` frames, `bin` picking each frequency: spread
 * evenly (each frame its share of a second's bound), or `clustered` (frames of as many peaks as a
 * frame may hold, as often as a second's bound allows), until the total bound or the size limit.
 */
export function densest(
  frames: number,
  bin: (frame: number, k: number) => number,
  clustered = false,
): Signature {
  const perSecond = SIGNATURE_MAX_PEAKS_PER_SECOND;
  const perFrame = SIGNATURE_MAX_PEAKS_PER_FRAME;
  const window = SIGNATURE_DENSITY_WINDOW_FRAMES;
  const gap = Math.ceil(window / Math.floor(perSecond / perFrame));
  const peaks: { frame: number; bin: number }[] = [];
  for (let frame = 0; frame < frames && peaks.length < SIGNATURE_MAX_PEAKS; frame++) {
    const share = clustered
      ? frame % gap === 0
        ? perFrame
        : 0
      : Math.floor(perSecond / window) + (frame % window < perSecond % window ? 1 : 0);
    const count = Math.min(perFrame, share, SIGNATURE_MAX_PEAKS - peaks.length);
    const bins = new Set<number>();
    for (let k = 0; bins.size < count && k < 10 * count; k++) bins.add(bin(frame, k));
    for (const b of bins) peaks.push({ frame, bin: b });
  }
  // Drop peaks from the end until the encoding fits (about 3 bytes a peak).
  let signature = signatureOf(frames, peaks);
  while (encodedSize(signature) > SIGNATURE_MAX_BYTES) {
    peaks.length -= Math.max(1, Math.floor(peaks.length / 100));
    signature = signatureOf(frames, peaks);
  }
  return signature;
}

/** Encoded bytes; past the size limit (encodeSignature refuses it), more than the limit. */
function encodedSize(signature: Signature): number {
  try {
    return encodeSignature(signature).length;
  } catch {
    return SIGNATURE_MAX_BYTES + 1;
  }
}
