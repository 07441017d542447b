import {
  FFT_SIZE,
  HOP_SIZE,
  PEAK_BACKGROUND_BINS,
  PEAK_BANDS,
  PEAK_BIN_FRACTION,
  PEAK_FLOOR_DB,
  PEAK_MIN_SALIENCE_DB,
  PEAK_NEIGHBOURHOOD_BINS,
  PEAK_NEIGHBOURHOOD_FRAMES,
  SIGNATURE_SAMPLE_RATE,
} from "./constants";
import { createFftPlan, type FftPlan, fft } from "./fft";

/** Spectrogram peaks, sorted by frame then frequency. */
export type Peaks = {
  /** Frames analysed (the recording's length in hops). */
  frameCount: number;
  frames: Uint32Array;
  /** Frequency in 1/PEAK_BIN_FRACTION of an FFT bin. */
  bins: Uint16Array;
};

// Local copies: these are read in the innermost loops.
const N = FFT_SIZE;
const HOP = HOP_SIZE;
const BIN_COUNT = N / 2 + 1;
const FRACTION = PEAK_BIN_FRACTION;
const NEIGHBOURHOOD_FRAMES = PEAK_NEIGHBOURHOOD_FRAMES;
const NEIGHBOURHOOD_BINS = PEAK_NEIGHBOURHOOD_BINS;
const BACKGROUND_BINS = PEAK_BACKGROUND_BINS;
const MIN_SALIENCE = PEAK_MIN_SALIENCE_DB;
const FLOOR = PEAK_FLOOR_DB;
const HZ_PER_BIN = SIGNATURE_SAMPLE_RATE / N;
const FRAMES_PER_SECOND = SIGNATURE_SAMPLE_RATE / HOP;
const DENSITY_HALF_WINDOW = Math.floor(FRAMES_PER_SECOND / 2);

type Band = { fromBin: number; toBin: number; limit: number };
const BANDS: Band[] = PEAK_BANDS.map((band) => ({
  fromBin: Math.ceil(band.fromHz / HZ_PER_BIN),
  toBin: Math.min(BIN_COUNT - 2, Math.floor(band.toHz / HZ_PER_BIN)),
  limit: Math.round((band.perSecond * (2 * DENSITY_HALF_WINDOW + 1)) / FRAMES_PER_SECOND),
}));
/** Lowest and highest bins a peak can have. */
export const MIN_PEAK_BIN = Math.min(...BANDS.map((band) => band.fromBin));
export const MAX_PEAK_BIN = Math.max(...BANDS.map((band) => band.toBin));
const BAND_OF_BIN = new Int8Array(BIN_COUNT).fill(-1);
BANDS.forEach((band, index) => {
  for (let k = band.fromBin; k <= band.toBin; k++) BAND_OF_BIN[k] = index;
});
/** 10 log10(power / full-scale sine power under the Hann window), as one natural log and a scale. */
const DB_PER_NEPER = 10 / Math.LN10;
const DB_OFFSET = -DB_PER_NEPER * Math.log((N / 4) ** 2);

let plan: FftPlan | undefined;
let hann: Float64Array | undefined;

function analysisTools(): { plan: FftPlan; hann: Float64Array } {
  if (!plan || !hann) {
    plan = createFftPlan(N);
    hann = new Float64Array(N);
    for (let i = 0; i < N; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / N);
  }
  return { plan, hann };
}

export function frameCountOf(sampleCount: number): number {
  return sampleCount < N ? 0 : Math.floor((sampleCount - N) / HOP) + 1;
}

/**
 * Log power spectra (dB) of two frames at once: frame a in the real part, frame b in the
 * imaginary part of one complex FFT, separated through the conjugate symmetry of real signals.
 */
function spectraOfPair(
  samples: Float32Array,
  startA: number,
  startB: number,
  re: Float64Array,
  im: Float64Array,
  outA: Float32Array,
  outB: Float32Array | undefined,
): void {
  const { plan: fftPlan, hann: window } = analysisTools();
  for (let i = 0; i < N; i++) {
    const w = window[i] as number;
    re[i] = (samples[startA + i] as number) * w;
    im[i] = startB >= 0 ? (samples[startB + i] as number) * w : 0;
  }
  fft(fftPlan, re, im);
  for (let k = 0; k < BIN_COUNT; k++) {
    const m = (N - k) & (N - 1);
    const zr = re[k] as number;
    const zi = im[k] as number;
    const cr = re[m] as number;
    const ci = im[m] as number;
    // A = (Z[k] + conj Z[N-k]) / 2 and B = (Z[k] - conj Z[N-k]) / 2i; the halves go into DB_OFFSET.
    const ar = zr + cr;
    const ai = zi - ci;
    outA[k] = DB_PER_NEPER * Math.log((ar * ar + ai * ai) * 0.25 + 1e-30) + DB_OFFSET;
    if (outB) {
      const br = zi + ci;
      const bi = zr - cr;
      outB[k] = DB_PER_NEPER * Math.log((br * br + bi * bi) * 0.25 + 1e-30) + DB_OFFSET;
    }
  }
}

const WIDTH = 2 * NEIGHBOURHOOD_BINS + 1;
const blockForward = new Float32Array(BIN_COUNT);
const blockBackward = new Float32Array(BIN_COUNT);

/**
 * Maximum of each bin's frequency neighbourhood within one frame, in constant time per bin (van
 * Herk / Gil-Werman: running maxima forward and backward within blocks as wide as the window, so
 * any full window spans at most two blocks).
 */
function frequencyMaxima(row: Float32Array, out: Float32Array): void {
  for (let start = 0; start < BIN_COUNT; start += WIDTH) {
    const end = Math.min(BIN_COUNT, start + WIDTH);
    let running = Number.NEGATIVE_INFINITY;
    for (let i = start; i < end; i++) {
      const v = row[i] as number;
      if (v > running) running = v;
      blockForward[i] = running;
    }
    running = Number.NEGATIVE_INFINITY;
    for (let i = end - 1; i >= start; i--) {
      const v = row[i] as number;
      if (v > running) running = v;
      blockBackward[i] = running;
    }
  }
  for (let k = MIN_PEAK_BIN; k <= MAX_PEAK_BIN; k++) {
    const from = k - NEIGHBOURHOOD_BINS;
    const to = k + NEIGHBOURHOOD_BINS;
    if (from < 0 || to >= BIN_COUNT) {
      // A window cut by either end of the spectrum is not a full window: plain scan.
      let max = Number.NEGATIVE_INFINITY;
      for (let j = Math.max(0, from); j <= Math.min(BIN_COUNT - 1, to); j++) {
        const v = row[j] as number;
        if (v > max) max = v;
      }
      out[k] = max;
    } else {
      out[k] = Math.max(blockBackward[from] as number, blockForward[to] as number);
    }
  }
}

/** Candidates of one band, in frame then bin order. */
type Candidates = { frames: number[]; bins: number[]; saliences: number[] };

/**
 * Landmark peaks of a recording at the signature rate: local maxima of the log spectrogram in a
 * time-frequency neighbourhood, standing above the mean level of the bins around them (the
 * adaptive threshold), thinned per band to its density target (the most salient in any
 * one-second window). Every rule looks only at a window around the peak, so an excerpt finds the
 * same peaks as the whole track.
 */
export function spectrogramPeaks(samples: Float32Array): Peaks {
  const frameCount = frameCountOf(samples.length);
  // Frames are computed in pairs, so the ring holds one row more than the neighbourhood.
  const ringSize = 2 * NEIGHBOURHOOD_FRAMES + 2;
  const rows = Array.from({ length: ringSize }, () => new Float32Array(BIN_COUNT));
  const maxima = Array.from({ length: ringSize }, () => new Float32Array(BIN_COUNT));
  const re = new Float64Array(N);
  const im = new Float64Array(N);
  const prefix = new Float64Array(BIN_COUNT + 1);
  const bands: Candidates[] = BANDS.map(() => ({ frames: [], bins: [], saliences: [] }));

  function analyse(frame: number): void {
    const row = rows[frame % ringSize] as Float32Array;
    const own = maxima[frame % ringSize] as Float32Array;
    const haveFrom = Math.max(0, frame - NEIGHBOURHOOD_FRAMES);
    const haveTo = Math.min(frameCount - 1, frame + NEIGHBOURHOOD_FRAMES);
    let prefixReady = false;
    for (let k = MIN_PEAK_BIN; k <= MAX_PEAK_BIN; k++) {
      const value = row[k] as number;
      // A maximum shared by two neighbouring bins (a tone half-way between them, or two levels
      // that round to one float) is one peak, at its lower bin: both would interpolate to the
      // same frequency, which a signature cannot hold twice in one frame.
      if (value < FLOOR || (own[k] as number) > value || row[k - 1] === value) continue;
      let isMax = true;
      for (let t = haveFrom; t <= haveTo; t++) {
        if (((maxima[t % ringSize] as Float32Array)[k] as number) > value) {
          isMax = false;
          break;
        }
      }
      if (!isMax) continue;
      if (!prefixReady) {
        for (let j = 0; j < BIN_COUNT; j++) prefix[j + 1] = (prefix[j] as number) + (row[j] as number);
        prefixReady = true;
      }
      const from = Math.max(0, k - BACKGROUND_BINS);
      const to = Math.min(BIN_COUNT - 1, k + BACKGROUND_BINS);
      const background = ((prefix[to + 1] as number) - (prefix[from] as number)) / (to - from + 1);
      const salience = value - background;
      if (salience < MIN_SALIENCE) continue;
      const left = row[k - 1] as number;
      const right = row[k + 1] as number;
      const curvature = left - 2 * value + right;
      const delta = curvature < 0 ? (0.5 * (left - right)) / curvature : 0;
      const band = bands[BAND_OF_BIN[k] as number] as Candidates;
      band.frames.push(frame);
      band.bins.push(Math.round((k + Math.max(-0.5, Math.min(0.5, delta))) * FRACTION));
      band.saliences.push(salience);
    }
  }

  // Spectra are computed two frames at a time; frame f is analysed once frame f + T exists.
  for (let f = 0; f < frameCount; f += 2) {
    const hasSecond = f + 1 < frameCount;
    const rowA = rows[f % ringSize] as Float32Array;
    const rowB = hasSecond ? (rows[(f + 1) % ringSize] as Float32Array) : undefined;
    spectraOfPair(samples, f * HOP, hasSecond ? (f + 1) * HOP : -1, re, im, rowA, rowB);
    frequencyMaxima(rowA, maxima[f % ringSize] as Float32Array);
    if (rowB) frequencyMaxima(rowB, maxima[(f + 1) % ringSize] as Float32Array);
    const ready = Math.min(frameCount - 1, f + 1) - NEIGHBOURHOOD_FRAMES;
    for (let a = Math.max(0, f - NEIGHBOURHOOD_FRAMES); a <= ready; a++) analyse(a);
  }
  for (let a = Math.max(0, frameCount - NEIGHBOURHOOD_FRAMES); a < frameCount; a++) analyse(a);

  return merge(
    bands.map((band, index) => thin(band, (BANDS[index] as Band).limit)),
    frameCount,
  );
}

/** The candidates of which fewer than `limit` outrank them within the density window. */
function thin(band: Candidates, limit: number): { frame: number; bin: number }[] {
  const { frames, bins, saliences } = band;
  const kept: { frame: number; bin: number }[] = [];
  let windowStart = 0;
  let windowEnd = 0;
  for (let c = 0; c < frames.length; c++) {
    const frame = frames[c] as number;
    const salience = saliences[c] as number;
    while ((frames[windowStart] as number) < frame - DENSITY_HALF_WINDOW) windowStart++;
    while (windowEnd < frames.length && (frames[windowEnd] as number) <= frame + DENSITY_HALF_WINDOW)
      windowEnd++;
    let higher = 0;
    for (let i = windowStart; i < windowEnd && higher < limit; i++) {
      const other = saliences[i] as number;
      // Ties go to the earlier candidate, so that equal peaks are not all kept or all dropped.
      if (other > salience || (other === salience && i < c)) higher++;
    }
    if (higher < limit) kept.push({ frame, bin: bins[c] as number });
  }
  return kept;
}

function merge(bands: { frame: number; bin: number }[][], frameCount: number): Peaks {
  const all = bands.flat().sort((a, b) => a.frame - b.frame || a.bin - b.bin);
  const frames = new Uint32Array(all.length);
  const bins = new Uint16Array(all.length);
  all.forEach((peak, i) => {
    frames[i] = peak.frame;
    bins[i] = peak.bin;
  });
  return { frameCount, frames, bins };
}
