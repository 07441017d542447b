import { describe, expect, test } from "vitest";
import { addNoise, noise, type Random, seededRandom } from "#origin/catalog/audio-degrade.ts";
import {
  computeSignature,
  decodeSignature,
  encodeSignature,
  RECORDING_CHECKPOINTS_SECONDS,
  SIGNATURE_SAMPLE_RATE,
} from "#signature/index.ts";
import { composeTrack, renderTrack } from "./signature-music";

/**
 * Property: whatever a browser, the command line or the origin hears, the signature it encodes is
 * one the decoder accepts (two peaks of one frame at one interpolated frequency made the
 * match service refuse about 1 in 400 noisy recordings). Thousands of generated signals, seeded so
 * that a failure names its seed. To stay a unit test (seconds), most signals are short (up to 2 s
 * at the signature's own rate, where the peak picking is the same as for long ones); the site's
 * checkpoint lengths are covered by fewer signals, some at capture rates that are resampled.
 */

/** The FFT size of the signature: a tone half-way between two of its bins peaks in both. */
const BIN_HZ = SIGNATURE_SAMPLE_RATE / 1024;

type Kind = "tone" | "halfbintone" | "chord" | "noise" | "silence" | "clipped" | "noisymusic";
const kinds: Kind[] = ["tone", "halfbintone", "chord", "noise", "silence", "clipped", "noisymusic"];

const music = renderTrack(composeTrack(11, 40), {
  fromSecond: 0,
  seconds: 40,
  sampleRate: SIGNATURE_SAMPLE_RATE,
});

function tones(length: number, sampleRate: number, frequencies: number[], random: Random): Float32Array {
  const out = new Float32Array(length);
  const amplitude = (10 ** (-3 * random()) * 0.9) / frequencies.length;
  for (const frequency of frequencies) {
    const phase = random() * 2 * Math.PI;
    for (let i = 0; i < length; i++) {
      out[i] = (out[i] as number) + amplitude * Math.cos((2 * Math.PI * frequency * i) / sampleRate + phase);
    }
  }
  return out;
}

function frequency(random: Random, halfBin: boolean): number {
  const bin = 3 + Math.floor(random() * 495);
  return halfBin ? (bin + 0.5) * BIN_HZ : (bin + random()) * BIN_HZ;
}

function signal(kind: Kind, length: number, sampleRate: number, random: Random): Float32Array {
  switch (kind) {
    case "tone":
      return tones(length, sampleRate, [frequency(random, false)], random);
    case "halfbintone":
      return tones(length, sampleRate, [frequency(random, true)], random);
    case "chord":
      return tones(
        length,
        sampleRate,
        Array.from({ length: 2 + Math.floor(random() * 4) }, () => frequency(random, random() < 0.5)),
        random,
      );
    case "noise":
      return noise(
        length,
        sampleRate,
        (["white", "pink", "brown"] as const)[Math.floor(random() * 3)] ?? "pink",
        random,
      );
    case "silence":
      return new Float32Array(length);
    case "clipped": {
      const loud =
        random() < 0.5
          ? tones(length, sampleRate, [frequency(random, true)], random)
          : noise(length, sampleRate, "pink", random);
      const gain = 5 + random() * 50;
      return loud.map((x) => Math.max(-1, Math.min(1, x * gain)));
    }
    case "noisymusic": {
      const at = Math.floor(random() * Math.max(1, music.length - length));
      const excerpt = new Float32Array(length);
      excerpt.set(music.subarray(at, at + length));
      return addNoise(excerpt, sampleRate, -5 + random() * 10, "pink", random);
    }
  }
}

function roundTrips(samples: Float32Array, sampleRate: number): void {
  const signature = computeSignature(samples, sampleRate);
  const decoded = decodeSignature(encodeSignature(signature));
  expect(decoded.frames).toEqual(signature.frames);
  expect(decoded.bins).toEqual(signature.bins);
}

describe("every signature decodes", () => {
  // 500 signals a kind, 3 500 in all, each test within the unit layer's seconds.
  test.each(kinds)(
    "500 short signals: %s (0 samples to 2 s)",
    (kind) => {
      const lengths = [0, 1, 1023, 1024, 1300, 4000, 8000, 16000];
      const first = (kinds.indexOf(kind) + 1) * 1000;
      for (let seed = first; seed < first + 500; seed++) {
        const random = seededRandom(seed);
        const length = lengths[Math.floor(random() * lengths.length)] as number;
        const samples = signal(kind, length, SIGNATURE_SAMPLE_RATE, random);
        expect(
          () => roundTrips(samples, SIGNATURE_SAMPLE_RATE),
          `seed ${seed}, ${length} samples`,
        ).not.toThrow();
      }
    },
    30_000,
  );

  test("each checkpoint length the site sends, at the signature rate and at capture rates", () => {
    let seed = 100_000;
    for (const seconds of RECORDING_CHECKPOINTS_SECONDS) {
      for (const kind of kinds) {
        for (const sampleRate of [
          SIGNATURE_SAMPLE_RATE,
          SIGNATURE_SAMPLE_RATE,
          seconds <= 3 ? 48000 : 16000,
        ]) {
          seed++;
          const random = seededRandom(seed);
          const samples = signal(kind, Math.round(seconds * sampleRate), sampleRate, random);
          expect(
            () => roundTrips(samples, sampleRate),
            `seed ${seed}, ${kind}, ${seconds} s at ${sampleRate} Hz`,
          ).not.toThrow();
        }
      }
    }
  }, 30_000);
});
