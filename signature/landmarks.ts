import {
  HASH_BITS,
  HASH_FREQUENCY_BINS,
  PAIR_MAX_FRAMES,
  PAIR_MAX_FREQUENCY_DELTA,
  PAIR_MIN_FRAMES,
  PEAK_BIN_FRACTION,
} from "./constants";

// Local copies: these are read in the innermost loops.
const FREQUENCY_UNIT = HASH_FREQUENCY_BINS * PEAK_BIN_FRACTION;
const MIN_FRAMES = PAIR_MIN_FRAMES;
const MAX_FRAMES = PAIR_MAX_FRAMES;
const MAX_DELTA = PAIR_MAX_FREQUENCY_DELTA;
const DT_BITS = 6;
const DF_BITS = 7;
const F1_LEVELS = 1 << (HASH_BITS - DT_BITS - DF_BITS);

/** The anchor frequency a hash stands for, in 1/PEAK_BIN_FRACTION of an FFT bin (its level's middle). */
export function anchorFrequency(hash: number): number {
  return ((hash >>> (DT_BITS + DF_BITS)) + 0.5) * FREQUENCY_UNIT;
}

/** Peaks as the hasher sees them: times in frames (scaled when scanning speed skew). */
export type LandmarkPeaks = {
  times: Float64Array;
  /** Frequencies in hash units (HASH_FREQUENCY_BINS FFT bins). */
  frequencies: Int32Array;
};

/**
 * Peaks of a recording heard at `speed` times the catalogue's speed, mapped back to the
 * catalogue's time and frequency axes: a recording played 2 % fast has its peaks 2 % higher and
 * 2 % closer together.
 */
export function landmarkPeaks(frames: Uint32Array, bins: Uint16Array, speed = 1): LandmarkPeaks {
  const times = new Float64Array(frames.length);
  const frequencies = new Int32Array(frames.length);
  for (let i = 0; i < frames.length; i++) {
    times[i] = (frames[i] as number) * speed;
    frequencies[i] = Math.floor((bins[i] as number) / speed / FREQUENCY_UNIT);
  }
  return { times, frequencies };
}

/**
 * The pairs of Wang 2003: each peak (the anchor) is paired with the next `fanout` peaks of its
 * target zone (PAIR_MIN_FRAMES to PAIR_MAX_FRAMES later, within PAIR_MAX_FREQUENCY_DELTA), and
 * each pair is hashed as (f1, f2 - f1, dt) into HASH_BITS bits. `visit` gets the hash and the
 * anchor's index. With `dtTolerance`, each pair is also hashed with dt that many frames shorter
 * and longer: a peak of a sustained note often moves by a frame under noise or reverberation.
 */
export function forEachLandmark(
  peaks: LandmarkPeaks,
  fanout: number,
  visit: (hash: number, anchor: number) => void,
  dtTolerance = 0,
): void {
  const { times, frequencies } = peaks;
  const count = times.length;
  for (let i = 0; i < count; i++) {
    const t1 = times[i] as number;
    const f1 = frequencies[i] as number;
    if (f1 < 0 || f1 >= F1_LEVELS) continue;
    let paired = 0;
    for (let j = i + 1; j < count && paired < fanout; j++) {
      const dt = Math.round((times[j] as number) - t1);
      if (dt > MAX_FRAMES) break;
      if (dt < MIN_FRAMES) continue;
      const df = (frequencies[j] as number) - f1;
      if (df > MAX_DELTA || df < -MAX_DELTA) continue;
      const base = (f1 << (DT_BITS + DF_BITS)) | ((df + MAX_DELTA) << DT_BITS);
      const from = Math.max(MIN_FRAMES, dt - dtTolerance);
      const to = Math.min(MAX_FRAMES, dt + dtTolerance);
      for (let probe = from; probe <= to; probe++) visit(base | (probe - MIN_FRAMES), i);
      paired++;
    }
  }
}
