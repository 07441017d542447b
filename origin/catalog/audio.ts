import { OggVorbisDecoder } from "@wasm-audio-decoders/ogg-vorbis";
import { OggOpusDecoder } from "ogg-opus-decoder";

export type DecodedAudio = { mono: Float32Array; sampleRate: number; errors: number };

let vorbis: OggVorbisDecoder | undefined;
let opus: OggOpusDecoder | undefined;

/** Decodes a whole Ogg Vorbis or Opus file to mono with the WASM decoders. */
export async function decodeOgg(bytes: Uint8Array, codec: "vorbis" | "opus"): Promise<DecodedAudio> {
  let decoded: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number; errors: unknown[] };
  if (codec === "vorbis") {
    vorbis ??= new OggVorbisDecoder();
    await vorbis.ready;
    await vorbis.reset();
    decoded = await vorbis.decodeFile(bytes);
  } else {
    opus ??= new OggOpusDecoder();
    await opus.ready;
    await opus.reset();
    decoded = await opus.decodeFile(bytes);
  }
  return {
    mono: toMono(decoded.channelData, decoded.samplesDecoded),
    sampleRate: decoded.sampleRate,
    errors: decoded.errors.length,
  };
}

export function freeDecoders() {
  vorbis?.free();
  opus?.free();
  vorbis = undefined;
  opus = undefined;
}

function toMono(channels: Float32Array[], length: number): Float32Array {
  const mono = new Float32Array(length);
  for (const channel of channels)
    for (let i = 0; i < length; i++) mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0) / channels.length;
  return mono;
}

/** What the artwork and colours are drawn from: loudness over time and energy in three bands. */
export type AudioProfile = {
  /** RMS loudness in `bins` equal slices, normalised to the loudest slice. */
  envelope: number[];
  /** Share of energy below 250 Hz, 250 Hz to 2.5 kHz, and above. */
  bands: [number, number, number];
  /** Loudest slice RMS over mean RMS: how dynamic the recording is. */
  dynamics: number;
};

export function profileOf(audio: DecodedAudio, bins = 48): AudioProfile {
  const { mono, sampleRate } = audio;
  const lowAlpha = onePoleAlpha(250, sampleRate);
  const midAlpha = onePoleAlpha(2500, sampleRate);
  let low = 0;
  let mid = 0;
  const energy = [0, 0, 0];
  const sliceLength = Math.max(1, Math.floor(mono.length / bins));
  const rms: number[] = [];
  let sliceSum = 0;
  for (let i = 0; i < mono.length; i++) {
    const x = mono[i] ?? 0;
    low += lowAlpha * (x - low);
    mid += midAlpha * (x - mid);
    energy[0] = (energy[0] ?? 0) + low * low;
    energy[1] = (energy[1] ?? 0) + (mid - low) * (mid - low);
    energy[2] = (energy[2] ?? 0) + (x - mid) * (x - mid);
    sliceSum += x * x;
    if ((i + 1) % sliceLength === 0 && rms.length < bins) {
      rms.push(Math.sqrt(sliceSum / sliceLength));
      sliceSum = 0;
    }
  }
  while (rms.length < bins) rms.push(0);
  const loudest = Math.max(...rms, 1e-9);
  const mean = rms.reduce((s, r) => s + r, 0) / rms.length || 1e-9;
  const total = energy.reduce((s, e) => s + e, 0) || 1;
  return {
    envelope: rms.map((r) => round3(r / loudest)),
    bands: energy.map((e) => round3(e / total)) as [number, number, number],
    dynamics: round3(loudest / mean),
  };
}

/**
 * Onsets: times (ms) where loudness in 46 ms frames jumps well above its recent average, strongest
 * first within each second.
 */
export function detectOnsets(audio: DecodedAudio): { ms: number; strength: number }[] {
  const frame = Math.round(audio.sampleRate * 0.046);
  const levels: number[] = [];
  for (let start = 0; start + frame <= audio.mono.length; start += frame) {
    let sum = 0;
    for (let i = start; i < start + frame; i++) sum += (audio.mono[i] ?? 0) ** 2;
    levels.push(Math.sqrt(sum / frame));
  }
  const onsets: { ms: number; strength: number }[] = [];
  const history = 22;
  for (let i = history; i < levels.length; i++) {
    let avg = 0;
    for (let j = i - history; j < i; j++) avg += levels[j] ?? 0;
    avg /= history;
    const rise = (levels[i] ?? 0) - avg;
    if (rise > 0.02 && (levels[i] ?? 0) > 1.4 * avg) {
      onsets.push({ ms: Math.round((i * frame * 1000) / audio.sampleRate), strength: round3(rise) });
    }
  }
  return onsets;
}

function onePoleAlpha(cutoffHz: number, sampleRate: number): number {
  return 1 - Math.exp((-2 * Math.PI * cutoffHz) / sampleRate);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
