/**
 * How dense real signatures get: the most peaks in one second, in one frame and in all, over the
 * catalogue's recordings whole and over the recognition bench's excerpts (clean and in each
 * degrading condition) at 3, 6, 9 and 12 s. The signature's bounds (SIGNATURE_MAX_PEAKS_PER_SECOND
 * and the others) are chosen from these maxima with a margin (docs/decisions/051-bounded-recognition-work.md).
 *
 *   npx vite-node bench/signature-density.ts [--audio-dir DIR] [--excerpts N] [--seed N]
 */
import { relative } from "node:path";
import { noise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import {
  computeSignature,
  HOP_SIZE,
  MATCH_QUERY_PEAKS,
  RECORDING_CHECKPOINTS_SECONDS,
  SIGNATURE_MAX_PEAKS,
  SIGNATURE_MAX_PEAKS_PER_FRAME,
  SIGNATURE_MAX_PEAKS_PER_SECOND,
  SIGNATURE_MAX_SECONDS,
  SIGNATURE_SAMPLE_RATE,
  type SignatureDensity,
  signatureDensity,
} from "#signature/index.ts";
import {
  audioFiles,
  BENCH_RATE,
  CONDITIONS,
  catalogue,
  defaultAudioDir,
  nameHash,
  queryAudio,
} from "./recognition-audio";

type Options = { audioDir: string | undefined; excerpts: number; seed: number };

function parseOptions(argv: string[]): Options {
  // The recognition bench's defaults: the same excerpts.
  const options: Options = { audioDir: undefined, excerpts: 2, seed: 20030101 };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === "--audio-dir" && value) options.audioDir = value;
    else if (name === "--excerpts") options.excerpts = Number(value);
    else if (name === "--seed") options.seed = Number(value);
    else throw new Error(`Unknown option ${name}`);
  }
  return options;
}

type Densest = { [K in keyof SignatureDensity]: { value: number; where: string } };

function densest(): Densest {
  const none = () => ({ value: 0, where: "" });
  return { peaksPerSecond: none(), peaksPerFrame: none(), peaks: none() };
}

function record(into: Densest, density: SignatureDensity, where: string): void {
  for (const key of Object.keys(into) as (keyof SignatureDensity)[]) {
    if (density[key] > into[key].value) into[key] = { value: density[key], where };
  }
}

function row(name: string, d: Densest): string {
  const cell = (c: { value: number; where: string }) => `${String(c.value).padStart(5)} (${c.where})`;
  return `${name.padEnd(22)} per second ${cell(d.peaksPerSecond)}\n${"".padEnd(22)} per frame  ${cell(d.peaksPerFrame)}\n${"".padEnd(22)} peaks      ${cell(d.peaks)}`;
}

const LONGEST_FRAMES = Math.round((SIGNATURE_MAX_SECONDS * SIGNATURE_SAMPLE_RATE) / HOP_SIZE);

/** The most peaks in any `window` frames (frames are non-decreasing). */
function mostPeaksWithin(frames: Uint32Array, window: number): number {
  let most = 0;
  for (let i = 0, start = 0; i < frames.length; i++) {
    while ((frames[start] as number) <= (frames[i] as number) - window) start++;
    most = Math.max(most, i - start + 1);
  }
  return most;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const audioDir = options.audioDir ?? defaultAudioDir();
  const files = audioFiles(audioDir);
  const whole = densest();
  // The most peaks a recording holds in the longest signature the origin takes.
  let longest = { value: 0, where: "" };
  const clean = new Map(RECORDING_CHECKPOINTS_SECONDS.map((s) => [s, densest()]));
  const degraded = new Map(RECORDING_CHECKPOINTS_SECONDS.map((s) => [s, densest()]));
  const started = performance.now();
  let signatures = 0;
  for (const path of files) {
    const key = relative(audioDir, path);
    const item = await catalogue(path, key, false, options);
    process.stderr.write(".");
    if (item.signature) {
      record(whole, signatureDensity(item.signature), key);
      const most = mostPeaksWithin(item.signature.frames, LONGEST_FRAMES);
      if (most > longest.value) longest = { value: most, where: key };
    }
    for (const excerpt of item.excerpts) {
      for (const condition of CONDITIONS) {
        // Seeded as the recognition bench seeds its queries: the same noise on the same excerpt.
        const random = seededRandom(
          options.seed + nameHash(condition.name + excerpt.trackKey + excerpt.startSeconds),
        );
        for (const seconds of RECORDING_CHECKPOINTS_SECONDS) {
          const audio = queryAudio(excerpt.samples, seconds, condition, random);
          const density = signatureDensity(computeSignature(audio, BENCH_RATE));
          signatures++;
          const into = condition.name === "clean" ? clean : degraded;
          record(
            into.get(seconds) as Densest,
            density,
            `${key} @${excerpt.startSeconds.toFixed(1)} s, ${condition.name}`,
          );
        }
      }
    }
  }
  // Dense but real input the browser may hear: noise at full scale and a sweep.
  const synthetic = densest();
  const length = 12 * BENCH_RATE;
  for (const colour of ["white", "pink"] as const) {
    const samples = noise(length, BENCH_RATE, colour, seededRandom(options.seed));
    record(synthetic, signatureDensity(computeSignature(samples, BENCH_RATE)), `${colour} noise`);
  }
  const sweep = new Float32Array(length);
  for (let i = 0, phase = 0; i < length; i++) {
    phase += (2 * Math.PI * (50 + (3900 * i) / length)) / BENCH_RATE;
    sweep[i] = 0.5 * Math.sin(phase);
  }
  record(synthetic, signatureDensity(computeSignature(sweep, BENCH_RATE)), "sweep 50-3950 Hz");

  console.log(
    `${files.length} recordings, ${signatures} excerpt signatures (${options.excerpts} excerpts a recording, ` +
      `${CONDITIONS.length} conditions, ${RECORDING_CHECKPOINTS_SECONDS.join("/")} s) in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  console.log(row("whole recordings", whole));
  console.log(
    `${"".padEnd(22)} in ${SIGNATURE_MAX_SECONDS} s    ${String(longest.value).padStart(5)} (${longest.where})`,
  );
  for (const seconds of RECORDING_CHECKPOINTS_SECONDS) {
    console.log(row(`clean ${seconds} s`, clean.get(seconds) as Densest));
    console.log(row(`degraded ${seconds} s`, degraded.get(seconds) as Densest));
  }
  console.log(row("synthetic 12 s", synthetic));
  const all = [whole, ...clean.values(), ...degraded.values(), synthetic];
  const most = (key: keyof SignatureDensity) => Math.max(...all.map((d) => d[key].value));
  console.log("\nbound / most measured:");
  for (const [key, bound] of [
    ["peaksPerSecond", SIGNATURE_MAX_PEAKS_PER_SECOND],
    ["peaksPerFrame", SIGNATURE_MAX_PEAKS_PER_FRAME],
  ] as const) {
    console.log(`  ${key}: ${bound} / ${most(key)} = ${(bound / most(key)).toFixed(2)}`);
  }
  console.log(
    `  peaks (in ${SIGNATURE_MAX_SECONDS} s): ${SIGNATURE_MAX_PEAKS} / ${longest.value} = ${(SIGNATURE_MAX_PEAKS / longest.value).toFixed(2)}`,
  );
  const excerptPeaks = Math.max(...[...clean.values(), ...degraded.values()].map((d) => d.peaks.value));
  console.log(
    `  peaks the matcher reads (of 12 s at most): ${MATCH_QUERY_PEAKS} / ${excerptPeaks} = ${(MATCH_QUERY_PEAKS / excerptPeaks).toFixed(2)}`,
  );
}

await main();
