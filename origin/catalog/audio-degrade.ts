/**
 * Degradations of a recording, as a microphone in a room or a phone line would add them: for the
 * recognition bench and for tests that need a realistic query (for example the fake microphone
 * of the end-to-end test). Pure functions of mono samples; randomness comes from a seeded
 * generator so that every run is the same.
 */
import { createFftPlan, fft, inverseFft } from "#signature/fft.ts";
import { resample } from "#signature/resample.ts";

/** A seeded uniform generator in [0, 1) (mulberry32). */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal deviate (Box-Muller). */
export function gaussian(random: Random): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function meanPower(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return samples.length > 0 ? sum / samples.length : 0;
}

function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(2, n)));
}

export type NoiseColour = "white" | "pink" | "brown";

/**
 * Gaussian noise of unit power: white (flat), pink (power falling 3 dB an octave) or brown (6 dB an
 * octave), shaped in the frequency domain.
 */
export function noise(length: number, sampleRate: number, colour: NoiseColour, random: Random): Float32Array {
  const out = new Float32Array(length);
  if (colour === "white") {
    for (let i = 0; i < length; i++) out[i] = gaussian(random);
  } else {
    const size = nextPowerOfTwo(length);
    const plan = createFftPlan(size);
    const re = new Float64Array(size);
    const im = new Float64Array(size);
    for (let i = 0; i < size; i++) re[i] = gaussian(random);
    fft(plan, re, im);
    const exponent = colour === "pink" ? 0.5 : 1;
    const lowest = 20 / (sampleRate / size);
    for (let k = 0; k < size; k++) {
      const bin = Math.min(k, size - k);
      const gain = bin === 0 ? 0 : 1 / Math.max(bin, lowest) ** exponent;
      re[k] = (re[k] as number) * gain;
      im[k] = (im[k] as number) * gain;
    }
    inverseFft(plan, re, im);
    for (let i = 0; i < length; i++) out[i] = re[i] as number;
  }
  const scale = 1 / Math.sqrt(meanPower(out) || 1);
  for (let i = 0; i < length; i++) out[i] = (out[i] as number) * scale;
  return out;
}

/** Adds noise so that the signal-to-noise ratio over the whole recording is `snrDb`. */
export function addNoise(
  samples: Float32Array,
  sampleRate: number,
  snrDb: number,
  colour: NoiseColour,
  random: Random,
): Float32Array {
  const added = noise(samples.length, sampleRate, colour, random);
  const gain = Math.sqrt(meanPower(samples) / 10 ** (snrDb / 10));
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] as number) + gain * (added[i] as number);
  return out;
}

/** Linear convolution through the FFT; the output has the input's length. */
export function convolve(samples: Float32Array, impulse: Float32Array): Float32Array {
  const size = nextPowerOfTwo(samples.length + impulse.length - 1);
  const plan = createFftPlan(size);
  const ar = new Float64Array(size);
  const ai = new Float64Array(size);
  const br = new Float64Array(size);
  const bi = new Float64Array(size);
  ar.set(samples);
  br.set(impulse);
  fft(plan, ar, ai);
  fft(plan, br, bi);
  for (let k = 0; k < size; k++) {
    const r = (ar[k] as number) * (br[k] as number) - (ai[k] as number) * (bi[k] as number);
    const i = (ar[k] as number) * (bi[k] as number) + (ai[k] as number) * (br[k] as number);
    ar[k] = r;
    ai[k] = i;
  }
  inverseFft(plan, ar, ai);
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = ar[i] as number;
  return out;
}

/**
 * A synthetic room: the direct sound, six early reflections within 40 ms, then a diffuse tail of
 * exponentially decaying noise reaching -60 dB after `rt60` seconds. `directToReverberantDb` is
 * the energy of the direct sound over the rest (0 dB: as much reverberation as direct sound).
 */
export function roomImpulseResponse(
  sampleRate: number,
  rt60: number,
  directToReverberantDb: number,
  random: Random,
): Float32Array {
  const length = Math.ceil(rt60 * sampleRate);
  const response = new Float32Array(length);
  const decay = Math.log(1000) / rt60;
  for (let r = 0; r < 6; r++) {
    const at = Math.floor((0.004 + random() * 0.036) * sampleRate);
    response[at] =
      (response[at] as number) +
      (random() < 0.5 ? -1 : 1) * (0.3 + 0.4 * random()) * Math.exp(-decay * (at / sampleRate));
  }
  const tailStart = Math.floor(0.02 * sampleRate);
  for (let i = tailStart; i < length; i++) {
    response[i] = (response[i] as number) + 0.5 * gaussian(random) * Math.exp(-decay * (i / sampleRate));
  }
  let reverberant = 0;
  for (let i = 1; i < length; i++) reverberant += (response[i] as number) ** 2;
  const scale = Math.sqrt(1 / (reverberant * 10 ** (directToReverberantDb / 10)));
  for (let i = 1; i < length; i++) response[i] = (response[i] as number) * scale;
  response[0] = 1;
  return response;
}

export function reverberate(samples: Float32Array, impulse: Float32Array): Float32Array {
  const wet = convolve(samples, impulse);
  // Keep the level of the original: a room makes it louder, the microphone's gain does not care.
  const gain = Math.sqrt(meanPower(samples) / (meanPower(wet) || 1));
  for (let i = 0; i < wet.length; i++) wet[i] = (wet[i] as number) * gain;
  return wet;
}

type Biquad = { b0: number; b1: number; b2: number; a1: number; a2: number };

/** RBJ audio-cookbook high- or low-pass section. */
function biquad(kind: "highpass" | "lowpass", frequency: number, q: number, sampleRate: number): Biquad {
  const w = (2 * Math.PI * frequency) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  const a0 = 1 + alpha;
  const b1 = kind === "lowpass" ? 1 - cos : -(1 + cos);
  const b0 = Math.abs(b1) / 2;
  return { b0: b0 / a0, b1: b1 / a0, b2: b0 / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
}

function filter(samples: Float32Array, section: Biquad): Float32Array {
  const out = new Float32Array(samples.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] as number;
    const y = section.b0 * x + section.b1 * x1 + section.b2 * x2 - section.a1 * y1 - section.a2 * y2;
    out[i] = y;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
  }
  return out;
}

/** Fourth-order Butterworth sections (Q of each second-order pair). */
const BUTTERWORTH_4 = [0.5412, 1.3066];

/** A telephone's band: fourth-order Butterworth high-pass and low-pass, 300 to 3400 Hz by default. */
export function bandPass(
  samples: Float32Array,
  sampleRate: number,
  lowHz = 300,
  highHz = 3400,
): Float32Array {
  let out = samples;
  for (const q of BUTTERWORTH_4) out = filter(out, biquad("highpass", lowHz, q, sampleRate));
  if (highHz < sampleRate / 2) {
    for (const q of BUTTERWORTH_4) out = filter(out, biquad("lowpass", highHz, q, sampleRate));
  }
  return out;
}

const MU = 255;

/**
 * A lossy telephone codec: down to 8 kHz, 8-bit mu-law (mu = 255, the companding of G.711, without
 * its segment approximation), and back to the original rate.
 */
export function muLawRoundTrip(samples: Float32Array, sampleRate: number): Float32Array {
  const narrow = resample(samples, sampleRate, 8000);
  let peak = 0;
  for (let i = 0; i < narrow.length; i++) peak = Math.max(peak, Math.abs(narrow[i] as number));
  const scale = Math.max(peak, 1);
  for (let i = 0; i < narrow.length; i++) {
    const x = Math.max(-1, Math.min(1, (narrow[i] as number) / scale));
    const companded = (Math.sign(x) * Math.log1p(MU * Math.abs(x))) / Math.log1p(MU);
    const code = Math.round(companded * 127) / 127;
    narrow[i] = ((Math.sign(code) * ((1 + MU) ** Math.abs(code) - 1)) / MU) * scale;
  }
  return resample(narrow, 8000, sampleRate);
}

/**
 * The recording played `factor` times as fast, tempo and pitch together, as a turntable or tape
 * off speed (1.02: 2 % fast, 2 % shorter and 2 % higher).
 */
export function changeSpeed(samples: Float32Array, sampleRate: number, factor: number): Float32Array {
  return resample(samples, sampleRate * factor, sampleRate);
}
