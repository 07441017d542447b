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
  /**
   * The hash unit next to each peak's on the side its frequency is nearer (a unit is two bins, so
   * a peak a bin off, as noise moves them, may fall in it): where a verification also looks.
   */
  neighbours: Int32Array;
};

/**
 * Peaks of a recording heard at `speed` times the catalogue's speed, mapped back to the
 * catalogue's time and frequency axes: a recording played 2 % fast has its peaks 2 % higher and
 * 2 % closer together.
 */
export function landmarkPeaks(frames: Uint32Array, bins: Uint16Array, speed = 1): LandmarkPeaks {
  const times = new Float64Array(frames.length);
  const frequencies = new Int32Array(frames.length);
  const neighbours = new Int32Array(frames.length);
  for (let i = 0; i < frames.length; i++) {
    times[i] = (frames[i] as number) * speed;
    const units = (bins[i] as number) / speed / FREQUENCY_UNIT;
    const unit = Math.floor(units);
    frequencies[i] = unit;
    neighbours[i] = units - unit < 0.5 ? unit - 1 : unit + 1;
  }
  return { times, frequencies, neighbours };
}

/**
 * The pairs of Wang 2003: each peak (the anchor) is paired with the next `fanout` peaks of its
 * target zone (PAIR_MIN_FRAMES to PAIR_MAX_FRAMES later, within PAIR_MAX_FREQUENCY_DELTA), and
 * each pair is hashed as (f1, f2 - f1, dt) into HASH_BITS bits. `visit` gets the hash, the
 * anchor's index and the pair's number. With `dtTolerance`, each pair is also hashed with dt that
 * many frames shorter and longer: a peak of a sustained note often moves by a frame under noise or
 * reverberation. With `frequencyTolerance`, also with f1 and f2 each in its peak's neighbouring
 * unit (LandmarkPeaks.neighbours): a peak moves by a bin as well.
 */
export function forEachLandmark(
  peaks: LandmarkPeaks,
  fanout: number,
  visit: (hash: number, anchor: number, pair: number, exactDt: boolean) => void,
  dtTolerance = 0,
  frequencyTolerance = false,
): void {
  const { times, frequencies, neighbours } = peaks;
  const count = times.length;
  let pairs = 0;
  for (let i = 0; i < count; i++) {
    const t1 = times[i] as number;
    const f1 = frequencies[i] as number;
    if (f1 < 0 || f1 >= F1_LEVELS) continue;
    let paired = 0;
    for (let j = i + 1; j < count && paired < fanout; j++) {
      const dt = Math.round((times[j] as number) - t1);
      if (dt > MAX_FRAMES) break;
      if (dt < MIN_FRAMES) continue;
      const f2 = frequencies[j] as number;
      const df = f2 - f1;
      if (df > MAX_DELTA || df < -MAX_DELTA) continue;
      const from = Math.max(MIN_FRAMES, dt - dtTolerance);
      const to = Math.min(MAX_FRAMES, dt + dtTolerance);
      hashPair(f1, f2, dt, from, to, i, pairs, visit);
      if (frequencyTolerance) {
        const n1 = neighbours[i] as number;
        const n2 = neighbours[j] as number;
        hashPair(n1, f2, dt, from, to, i, pairs, visit);
        hashPair(f1, n2, dt, from, to, i, pairs, visit);
        hashPair(n1, n2, dt, from, to, i, pairs, visit);
      }
      paired++;
      pairs++;
    }
  }
}

/**
 * Visits the hashes of one pair with its frequencies in these units and dt from `from` to `to`;
 * `exactDt` tells the pair's own dt from the tolerance's variants.
 */
function hashPair(
  f1: number,
  f2: number,
  dt: number,
  from: number,
  to: number,
  anchor: number,
  pair: number,
  visit: (hash: number, anchor: number, pair: number, exactDt: boolean) => void,
): void {
  const df = f2 - f1;
  if (f1 < 0 || f1 >= F1_LEVELS || df > MAX_DELTA || df < -MAX_DELTA) return;
  const base = (f1 << (DT_BITS + DF_BITS)) | ((df + MAX_DELTA) << DT_BITS);
  for (let probe = from; probe <= to; probe++) visit(base | (probe - MIN_FRAMES), anchor, pair, probe === dt);
}
