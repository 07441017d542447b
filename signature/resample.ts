import { RESAMPLER_KAISER_BETA, RESAMPLER_ROLLOFF, RESAMPLER_ZERO_CROSSINGS } from "./constants";

/** Above this many phases the kernel table is shared by nearby phases (error under 1/8192 sample). */
const MAX_PHASES = 4096;

type Kernel = {
  /** Output samples advance by step/phases input samples. */
  phases: number;
  step: number;
  /** Exact ratio (phases = L, step = M) or phases quantised from a larger L. */
  exactPhases: number;
  taps: number;
  /** First tap's position relative to the input sample just before the output position. */
  firstTap: number;
  table: Float32Array;
};

const kernels = new Map<string, Kernel>();

function greatestCommonDivisor(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
}

/** Zeroth-order modified Bessel function of the first kind, for the Kaiser window. */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 50; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

function kernelFor(fromRate: number, toRate: number): Kernel {
  const cacheKey = `${fromRate}:${toRate}`;
  const cached = kernels.get(cacheKey);
  if (cached) return cached;
  const divisor = greatestCommonDivisor(toRate, fromRate);
  const exactPhases = toRate / divisor;
  const step = fromRate / divisor;
  const phases = Math.min(exactPhases, MAX_PHASES);
  // Cut-off as a share of the input Nyquist: below the output Nyquist when decimating.
  const cutoff = Math.min(1, toRate / fromRate) * RESAMPLER_ROLLOFF;
  const halfWidth = Math.ceil(RESAMPLER_ZERO_CROSSINGS / cutoff);
  const taps = 2 * halfWidth;
  const firstTap = -halfWidth + 1;
  const table = new Float32Array(phases * taps);
  const i0Beta = besselI0(RESAMPLER_KAISER_BETA);
  for (let p = 0; p < phases; p++) {
    const fraction = p / phases;
    let sum = 0;
    for (let t = 0; t < taps; t++) {
      const x = firstTap + t - fraction;
      const ratio = x / halfWidth;
      const window =
        Math.abs(ratio) >= 1 ? 0 : besselI0(RESAMPLER_KAISER_BETA * Math.sqrt(1 - ratio * ratio)) / i0Beta;
      const arg = Math.PI * cutoff * x;
      const sinc = x === 0 ? 1 : Math.sin(arg) / arg;
      const value = cutoff * sinc * window;
      table[p * taps + t] = value;
      sum += value;
    }
    // Unit gain at DC for every phase, so a constant input stays constant.
    for (let t = 0; t < taps; t++) table[p * taps + t] = (table[p * taps + t] as number) / sum;
  }
  const kernel = { phases, step, exactPhases, taps, firstTap, table };
  if (kernels.size > 32) kernels.clear();
  kernels.set(cacheKey, kernel);
  return kernel;
}

/**
 * Band-limited resampling with a Kaiser-windowed sinc (polyphase table), from any rate to any rate.
 * Rates need not be integers only in the ratio sense: both are rounded to whole hertz.
 */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  const from = Math.round(fromRate);
  const to = Math.round(toRate);
  if (!(from > 0) || !(to > 0)) throw new RangeError(`Invalid resampling rates ${fromRate} -> ${toRate}`);
  if (from === to) return samples.slice();
  const { phases, step, exactPhases, taps, firstTap, table } = kernelFor(from, to);
  const length = samples.length;
  const outputLength = Math.floor((length * exactPhases) / step);
  const output = new Float32Array(outputLength);
  for (let n = 0; n < outputLength; n++) {
    const position = n * step;
    let base = Math.floor(position / exactPhases);
    let phase = position - base * exactPhases;
    if (phases !== exactPhases) {
      phase = Math.round((phase * phases) / exactPhases);
      if (phase === phases) {
        phase = 0;
        base += 1;
      }
    }
    const row = phase * taps;
    const start = base + firstTap;
    let sum = 0;
    if (start >= 0 && start + taps <= length) {
      for (let t = 0; t < taps; t++) sum += (samples[start + t] as number) * (table[row + t] as number);
    } else {
      for (let t = 0; t < taps; t++) {
        const i = start + t;
        if (i >= 0 && i < length) sum += (samples[i] as number) * (table[row + t] as number);
      }
    }
    output[n] = sum;
  }
  return output;
}
