/**
 * What the signature's bounds leave a match to do: the CPU of matching the densest signatures the
 * bounds allow against the published index in memory, over that of real 12 s signatures (the
 * catalogue's excerpts, clean and degraded, which match; noises and a melody, which match nothing
 * and so cost the most), as a ratio of medians; and that the issue's hand-made signature (938
 * frames, 2 700 peaks) is refused (docs/decisions/051-bounded-recognition-work.md).
 *
 *   npx vite-node bench/signature-bounds.ts [--recordings N] [--runs N]
 */
import { relative } from "node:path";
import { noise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import {
  computeSignature,
  decodeSignature,
  encodeSignature,
  HOP_SIZE,
  matchSignature,
  SIGNATURE_MAX_SECONDS,
  SIGNATURE_SAMPLE_RATE,
  type Signature,
  SignatureError,
  signatureDensity,
  type TrackIndex,
} from "#signature/index.ts";
import { readPublishedIndex } from "#tools/recognition-store/published-index.ts";
import { densest, MAX_FRAMES, randomPeakBin, signatureOf } from "./dense-signatures";
import {
  audioFiles,
  BENCH_RATE,
  CONDITIONS,
  catalogue,
  defaultAudioDir,
  nameHash,
  queryAudio,
} from "./recognition-audio";

function parseOptions(argv: string[]): { recordings: number; runs: number } {
  const options = { recordings: 16, runs: 5 };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], Number(argv[i + 1])];
    if (name === "--recordings") options.recordings = value;
    else if (name === "--runs") options.runs = value;
    else throw new Error(`Unknown option ${name}`);
  }
  return options;
}

/** Whether the origin's decoder takes the signature (its bytes, its bounds). */
function accepted(signature: Signature): boolean {
  try {
    decodeSignature(encodeSignature(signature));
    return true;
  } catch (error) {
    if (error instanceof SignatureError) return false;
    throw error;
  }
}

/** The issue's signature: 938 frames, 2 700 peaks, spread evenly, frequencies at random. */
function issueSignature(): Signature {
  const random = seededRandom(938);
  const peaks: { frame: number; bin: number }[] = [];
  const seen = new Set<number>();
  while (peaks.length < 2700) {
    const frame = Math.floor((peaks.length * MAX_FRAMES) / 2700);
    const bin = randomPeakBin(random);
    if (seen.has(frame * 65536 + bin)) continue;
    seen.add(frame * 65536 + bin);
    peaks.push({ frame, bin });
  }
  return signatureOf(MAX_FRAMES, peaks);
}

/** 12 s of audio in no catalogue, as a microphone may hear it: three noises and a melody. */
function unmatchedAudio(): Float32Array[] {
  const length = 12 * BENCH_RATE;
  const noises = (["white", "pink", "brown"] as const).map((colour) =>
    noise(length, BENCH_RATE, colour, seededRandom(5)).map((x) => 0.1 * x),
  );
  const melody = new Float32Array(length);
  const random = seededRandom(9);
  const note = BENCH_RATE / 4;
  for (let j = 0, f = 220; j < length; j++) {
    if (j % note === 0) f = 110 * 2 ** (Math.floor(random() * 36) / 12);
    let v = 0;
    for (let h = 1; h <= 4; h++) v += Math.sin((2 * Math.PI * f * h * j) / BENCH_RATE) / h;
    melody[j] = 0.1 * Math.exp(-((j % note) / note) * 3) * v;
  }
  return [...noises, melody];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median CPU of matching each signature (`runs` times, interleaved), then the median of those. */
function medianMatchMs(index: TrackIndex, signatures: readonly Signature[], runs: number): number {
  const times = signatures.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    signatures.forEach((signature, i) => {
      const start = process.cpuUsage();
      matchSignature(index, signature);
      const used = process.cpuUsage(start);
      times[i]?.push((used.user + used.system) / 1000);
    });
  }
  return median(times.map(median));
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const { index } = await readPublishedIndex();
  const audioDir = defaultAudioDir();
  const files = audioFiles(audioDir);
  const every = Math.max(1, Math.floor(files.length / options.recordings));
  const real: Signature[] = [];
  const tracks: Signature[] = [];
  const conditions = CONDITIONS.filter((c) =>
    ["clean", "pink noise 0 dB", "room: reverb + phone + pink 5 dB", "speed +2 %"].includes(c.name),
  );
  for (let f = 0; f < files.length; f += every) {
    const path = files[f] as string;
    const key = relative(audioDir, path);
    const item = await catalogue(path, key, false, { seed: 20030101, excerpts: 1 });
    if (item.signature) tracks.push(item.signature);
    for (const excerpt of item.excerpts) {
      for (const condition of conditions) {
        const random = seededRandom(20030101 + nameHash(condition.name + key + excerpt.startSeconds));
        real.push(computeSignature(queryAudio(excerpt.samples, 12, condition, random), BENCH_RATE));
      }
    }
  }
  const realDensity = real.map(signatureDensity);
  console.log(
    `${real.length} real 12 s signatures from ${tracks.length} recordings: at most ${Math.max(...realDensity.map((d) => d.peaks))} peaks, ` +
      `${Math.max(...realDensity.map((d) => d.peaksPerSecond))} a second, ${Math.max(...realDensity.map((d) => d.peaksPerFrame))} a frame`,
  );

  // The densest signatures the bounds allow, of every length up to the longest, with frequencies
  // at random (hashes spread over the index) and taken from real recordings laid over each other
  // (hashes the index holds, so that postings are read and votes cast).
  const random = seededRandom(51);
  const randomBin = () => randomPeakBin(random);
  const overlaid = (frame: number, k: number) => {
    const source = tracks[k % tracks.length] as Signature;
    // The k-th track's peaks of this frame, one of them by k; a random one when it has none.
    let lo = 0;
    let hi = source.frames.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((source.frames[mid] as number) < frame) lo = mid + 1;
      else hi = mid;
    }
    let count = 0;
    while (source.frames[lo + count] === frame) count++;
    const pick = Math.floor(k / tracks.length);
    return count > pick ? (source.bins[lo + pick] as number) : randomBin();
  };
  const worst: { name: string; signature: Signature }[] = [];
  for (const seconds of [3, 12, SIGNATURE_MAX_SECONDS]) {
    const frames = Math.min(MAX_FRAMES, Math.round((seconds * SIGNATURE_SAMPLE_RATE) / HOP_SIZE));
    worst.push({ name: `random ${seconds} s`, signature: densest(frames, () => randomBin()) });
    worst.push({ name: `overlaid ${seconds} s`, signature: densest(frames, overlaid) });
    worst.push({ name: `clustered ${seconds} s`, signature: densest(frames, () => randomBin(), true) });
  }
  for (const { name, signature } of worst) {
    const density = signatureDensity(signature);
    if (!accepted(signature)) throw new Error(`${name} is refused: not a signature inside the bounds`);
    console.log(
      `${name}: ${density.peaks} peaks, ${density.peaksPerSecond} a second, ${density.peaksPerFrame} a frame, ${encodeSignature(signature).length} bytes`,
    );
  }
  const issue = issueSignature();
  console.log(
    `the issue's signature (938 frames, 2 700 peaks, ${encodeSignature(issue).length} bytes): ${accepted(issue) ? "ACCEPTED" : "refused"}`,
  );

  // Real 12 s that match nothing: every speed is scanned and the leaders verified, the most a real
  // query costs (a noisy room, a song not in the catalogue).
  const unmatched = unmatchedAudio().map((samples) => computeSignature(samples, BENCH_RATE));
  const matched = real.filter((signature) => matchSignature(index, signature) !== null);
  matchSignature(index, real[0] as Signature); // warm up
  const matchedMs = medianMatchMs(index, matched, options.runs);
  const unmatchedMs = medianMatchMs(index, unmatched, options.runs);
  console.log(`\nmedian CPU of matching, ${options.runs} runs each, medians of the signatures' medians:`);
  console.log(`  real 12 s that match (${matched.length} of ${real.length}): ${matchedMs.toFixed(1)} ms`);
  console.log(
    `  real 12 s that match nothing (${unmatched.length}: noises, a melody): ${unmatchedMs.toFixed(1)} ms`,
  );
  let most = 0;
  for (const { name, signature } of worst) {
    const ms = medianMatchMs(index, [signature], options.runs);
    most = Math.max(most, ms / unmatchedMs);
    console.log(
      `  ${name}: ${ms.toFixed(1)} ms, ${(ms / unmatchedMs).toFixed(2)}x the unmatched, ${(ms / matchedMs).toFixed(1)}x the matched`,
    );
  }
  console.log(`worst case over a real 12 s that matches nothing: ${most.toFixed(2)}x (goal: at most 2x)`);
}

await main();
