/**
 * The recognition bench's audio: the catalogue's recordings, the excerpts cut from them and the
 * conditions that degrade them (noise, phone band, reverb, speed), shared by the benches that
 * sign real recordings (bench/recognition.ts, bench/signature-density.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { decodeAudioFile } from "#origin/catalog/audio-decode.ts";
import {
  addNoise,
  bandPass,
  changeSpeed,
  muLawRoundTrip,
  type Random,
  reverberate,
  roomImpulseResponse,
  seededRandom,
} from "#origin/catalog/audio-degrade.ts";
import {
  computeSignature,
  RECORDING_CHECKPOINTS_SECONDS,
  resample,
  type Signature,
} from "#signature/index.ts";

/** Excerpts are kept at this rate: enough for every degradation, small enough to hold them all. */
export const BENCH_RATE = 16000;
export const LONGEST = Math.max(...RECORDING_CHECKPOINTS_SECONDS);
/** Excerpts are cut a little longer than 12 s so that 2 % faster still leaves 12 s. */
export const EXCERPT_SECONDS = LONGEST + 0.5;
/** An excerpt whose first 3 s are quieter than this (RMS, -50 dBFS) is drawn again: nothing to hear. */
const SILENT_RMS = 0.003;

const AUDIO_EXTENSIONS = [".ogg", ".oga", ".opus", ".mp3", ".flac", ".wav"];

/**
 * The default catalogue: the Debian music packages of ~/.cache/tunewave/debs, each unpacked once
 * into ~/.cache/tunewave/audio/<package>/ with the stamp the catalogue builder uses
 * (origin/catalog/sources.ts), so the two share one copy.
 */
export function defaultAudioDir(): string {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "tunewave");
  const audioDir = join(cache, "audio");
  const debDir = join(cache, "debs");
  const debs = existsSync(debDir) ? readdirSync(debDir).filter((name) => name.endsWith(".deb")) : [];
  if (debs.length === 0) {
    throw new Error(`No catalogue audio: put the music .deb packages in ${debDir} or pass --audio-dir DIR`);
  }
  for (const deb of debs.sort()) {
    const target = join(audioDir, deb.split("_")[0] ?? deb);
    const stamp = join(target, ".unpacked-from");
    const identity = `${deb} ${statSync(join(debDir, deb)).size}`;
    if (existsSync(stamp) && readFileSync(stamp, "utf8") === identity) continue;
    console.log(`unpacking ${deb} into ${target}`);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    execFileSync("dpkg-deb", ["-x", join(debDir, deb), target]);
    writeFileSync(stamp, identity);
  }
  return audioDir;
}

export function audioFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (AUDIO_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension))) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

export function rms(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

export type Excerpt = { trackKey: string; startSeconds: number; samples: Float32Array; heldOut: boolean };
export type Catalogued = {
  trackKey: string;
  seconds: number;
  signature: Signature | undefined;
  excerpts: Excerpt[];
};

/** Decodes one recording, signs it when it goes in the index, and cuts its excerpts at BENCH_RATE. */
export async function catalogue(
  path: string,
  trackKey: string,
  heldOut: boolean,
  options: { seed: number; excerpts: number },
): Promise<Catalogued> {
  const decoded = await decodeAudioFile(path);
  const seconds = decoded.samples.length / decoded.sampleRate;
  const signature = heldOut ? undefined : computeSignature(decoded.samples, decoded.sampleRate);
  const atBenchRate = resample(decoded.samples, decoded.sampleRate, BENCH_RATE);
  const excerpts: Excerpt[] = [];
  const length = Math.round(EXCERPT_SECONDS * BENCH_RATE);
  const random = seededRandom(options.seed + nameHash(trackKey));
  if (atBenchRate.length >= length) {
    for (let e = 0; e < options.excerpts; e++) {
      let start = 0;
      for (let attempt = 0; attempt < 20; attempt++) {
        start = Math.floor(random() * (atBenchRate.length - length));
        if (rms(atBenchRate.subarray(start, start + 3 * BENCH_RATE)) >= SILENT_RMS) break;
      }
      excerpts.push({
        trackKey,
        startSeconds: start / BENCH_RATE,
        samples: atBenchRate.slice(start, start + length),
        heldOut,
      });
    }
  }
  return { trackKey, seconds, signature, excerpts };
}

export function nameHash(name: string): number {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) >>> 0;
  return hash;
}

export type Condition = { name: string; degrade: (samples: Float32Array, random: Random) => Float32Array };

const room = roomImpulseResponse(BENCH_RATE, 0.6, 0, seededRandom(7));

/**
 * Each query is its own recording: the condition is applied to the excerpt's first seconds, so a
 * 3 s query at 0 dB has noise as loud as its own 3 s of music.
 */
export const CONDITIONS: Condition[] = [
  { name: "clean", degrade: (s) => s },
  { name: "white noise 10 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, 10, "white", r) },
  { name: "white noise 5 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, 5, "white", r) },
  { name: "white noise 0 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, 0, "white", r) },
  { name: "pink noise 10 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, 10, "pink", r) },
  { name: "pink noise 5 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, 5, "pink", r) },
  { name: "pink noise 0 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, 0, "pink", r) },
  { name: "reverb (RT60 0.6 s, DRR 0 dB)", degrade: (s) => reverberate(s, room) },
  { name: "phone band 300-3400 Hz", degrade: (s) => bandPass(s, BENCH_RATE) },
  { name: "mu-law 8-bit at 8 kHz", degrade: (s) => muLawRoundTrip(s, BENCH_RATE) },
  { name: "speed +2 %", degrade: (s) => changeSpeed(s, BENCH_RATE, 1.02) },
  { name: "speed -2 %", degrade: (s) => changeSpeed(s, BENCH_RATE, 0.98) },
  {
    name: "room: reverb + phone + pink 5 dB",
    degrade: (s, r) => addNoise(bandPass(reverberate(s, room), BENCH_RATE), BENCH_RATE, 5, "pink", r),
  },
  // The rows of decision 043: a noisy bar and a phone's speaker.
  { name: "pink noise -5 dB", degrade: (s, r) => addNoise(s, BENCH_RATE, -5, "pink", r) },
  {
    name: "phone band + reverb + pink 0 dB",
    degrade: (s, r) => addNoise(bandPass(reverberate(s, room), BENCH_RATE), BENCH_RATE, 0, "pink", r),
  },
  {
    name: "speed +2 % + pink 5 dB",
    degrade: (s, r) => addNoise(changeSpeed(s, BENCH_RATE, 1.02), BENCH_RATE, 5, "pink", r),
  },
];

/** The first `seconds` of the excerpt under the condition (cut from a little more, for speed changes). */
export function queryAudio(
  excerpt: Float32Array,
  seconds: number,
  condition: Condition,
  random: Random,
): Float32Array {
  const length = Math.round(seconds * BENCH_RATE);
  const source = excerpt.subarray(0, Math.min(excerpt.length, Math.ceil(length * 1.03)));
  return condition.degrade(source, random).subarray(0, length);
}
