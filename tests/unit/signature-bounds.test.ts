import { describe, expect, test } from "vitest";
import { noise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import {
  checkSignatureBounds,
  computeSignature,
  decodeSignature,
  encodeSignature,
  FFT_SIZE,
  HOP_SIZE,
  MATCH_QUERY_PEAKS,
  PEAK_BIN_FRACTION,
  SIGNATURE_DENSITY_WINDOW_FRAMES,
  SIGNATURE_MAX_PEAKS,
  SIGNATURE_MAX_PEAKS_PER_FRAME,
  SIGNATURE_MAX_PEAKS_PER_SECOND,
  SIGNATURE_MAX_SECONDS,
  SIGNATURE_SAMPLE_RATE,
  type Signature,
  SignatureError,
  signatureDensity,
} from "#signature/index.ts";
import { composeTrack, renderTrack } from "./signature-music";

const FRAMES_AT_MOST = Math.floor((SIGNATURE_MAX_SECONDS * SIGNATURE_SAMPLE_RATE) / HOP_SIZE);
const REFUSAL = "Signature denser than a recording can be";

/** A signature with `counts[f]` peaks in frame f, a bin apart from 20 bins up. */
function withPeaks(counts: readonly number[], frameCount = Math.max(counts.length, 1)): Signature {
  const frames: number[] = [];
  const bins: number[] = [];
  counts.forEach((count, frame) => {
    for (let k = 0; k < count; k++) {
      frames.push(frame);
      bins.push((20 + k) * PEAK_BIN_FRACTION);
    }
  });
  return {
    sampleRate: SIGNATURE_SAMPLE_RATE,
    fftSize: FFT_SIZE,
    hop: HOP_SIZE,
    frameCount,
    frames: Uint32Array.from(frames),
    bins: Uint16Array.from(bins),
  };
}

/**
 * `perSecond` peaks in every second's window over `frames` frames: each frame the same share of
 * its window, by its position in it, so that any window of SIGNATURE_DENSITY_WINDOW_FRAMES holds
 * exactly `perSecond`; `total` stops it early.
 */
function steady(perSecond: number, frames: number, total = Number.POSITIVE_INFINITY): number[] {
  const window = SIGNATURE_DENSITY_WINDOW_FRAMES;
  const counts: number[] = [];
  let placed = 0;
  for (let frame = 0; frame < frames; frame++) {
    const share = Math.floor(perSecond / window) + (frame % window < perSecond % window ? 1 : 0);
    const count = Math.min(share, total - placed);
    counts.push(count);
    placed += count;
  }
  return counts;
}

/** The issue's hand-made signature: 2 700 peaks over 938 frames (30 s), spread evenly. */
function issueSignature(): Signature {
  const counts = new Array<number>(938).fill(0);
  for (let i = 0; i < 2700; i++) {
    const frame = Math.floor((i * 938) / 2700);
    counts[frame] = (counts[frame] as number) + 1;
  }
  return withPeaks(counts);
}

function refusal(signature: Signature): SignatureError | undefined {
  try {
    checkSignatureBounds(signature);
  } catch (error) {
    if (error instanceof SignatureError) return error;
    throw error;
  }
  return undefined;
}

const P = SIGNATURE_MAX_PEAKS_PER_SECOND;
const F = SIGNATURE_MAX_PEAKS_PER_FRAME;
const T = SIGNATURE_MAX_PEAKS;

describe("the bounds are consistent", () => {
  test("a frame's bound fits in a second's, a second's many times in the total, the total in the longest recording", () => {
    expect(F).toBeLessThanOrEqual(P);
    expect(P * 2).toBeLessThanOrEqual(T);
    expect(T).toBeLessThanOrEqual(P * SIGNATURE_MAX_SECONDS);
    // The format fixes the frames a second: one every HOP_SIZE samples at the signature's rate.
    expect(SIGNATURE_DENSITY_WINDOW_FRAMES).toBe(Math.round(SIGNATURE_SAMPLE_RATE / HOP_SIZE));
  });
});

describe("checkSignatureBounds", () => {
  const cases: { name: string; signature: () => Signature; refused: boolean }[] = [
    { name: "no peaks", signature: () => withPeaks([]), refused: false },
    { name: "one frame at the frame's bound", signature: () => withPeaks([0, F]), refused: false },
    { name: "one frame over the frame's bound", signature: () => withPeaks([0, F + 1]), refused: true },
    {
      name: "every second at the second's bound, for the longest recording, to the total",
      signature: () => withPeaks(steady(P, FRAMES_AT_MOST, T), FRAMES_AT_MOST),
      refused: false,
    },
    {
      name: "one second over the second's bound",
      signature: () => {
        const counts = steady(P, SIGNATURE_DENSITY_WINDOW_FRAMES);
        // The last frame of the window: one more peak, the frame itself under its bound.
        counts[counts.length - 1] = (counts[counts.length - 1] as number) + 1;
        return withPeaks(counts);
      },
      refused: true,
    },
    {
      name: "the second's bound over a window straddling two seconds",
      signature: () => {
        // Half a second dense, then the other half the next second: as dense as one second.
        const half = Math.floor(SIGNATURE_DENSITY_WINDOW_FRAMES / 2);
        const counts = new Array<number>(3 * SIGNATURE_DENSITY_WINDOW_FRAMES).fill(0);
        for (let i = 0; i <= P; i++) {
          const frame = SIGNATURE_DENSITY_WINDOW_FRAMES - half + (i % (2 * half));
          counts[frame] = (counts[frame] as number) + 1;
        }
        return withPeaks(counts);
      },
      refused: true,
    },
    {
      name: "one peak over the total",
      signature: () => withPeaks(steady(P, FRAMES_AT_MOST, T + 1), FRAMES_AT_MOST),
      refused: true,
    },
    { name: "the issue's 938 frames and 2 700 peaks", signature: issueSignature, refused: true },
  ];
  test.each(cases)("$name: refused $refused", ({ signature, refused }) => {
    const error = refusal(signature());
    expect(error !== undefined).toBe(refused);
    if (error) {
      expect(error.reason).toBe("toodense");
      expect(error.type).toBe("invalidparam");
      // Fixed: nothing of the input (no count, no frame) goes back to the client.
      expect(error.message).toBe(REFUSAL);
    }
  });

  test("decodeSignature applies it: the issue's signature fits the size limit but is refused", () => {
    const bytes = encodeSignature(issueSignature());
    expect(() => decodeSignature(bytes)).toThrow(REFUSAL);
  });

  test("measures the densest second, the densest frame and the total", () => {
    expect(signatureDensity(withPeaks([1, 3, 0, 2]))).toEqual({
      peaksPerSecond: 6,
      peaksPerFrame: 3,
      peaks: 6,
    });
    const apart = new Array<number>(SIGNATURE_DENSITY_WINDOW_FRAMES + 1).fill(0);
    apart[0] = 2;
    apart[SIGNATURE_DENSITY_WINDOW_FRAMES] = 2;
    // A second's window is SIGNATURE_DENSITY_WINDOW_FRAMES frames: these two are a window apart.
    expect(signatureDensity(withPeaks(apart)).peaksPerSecond).toBe(2);
  });
});

describe("the browser's own signatures stay inside the bounds", () => {
  const rate = 16000;
  const seconds = SIGNATURE_MAX_SECONDS;
  const length = seconds * rate;
  /** Audio as dense in peaks as a microphone hears: noise over every band, a sweep, a crowded mix. */
  const inputs: { name: string; samples: () => Float32Array; sampleRate: number }[] = [
    {
      name: "white noise at full scale",
      samples: () => noise(length, rate, "white", seededRandom(1)).map((x) => Math.max(-1, Math.min(1, x))),
      sampleRate: rate,
    },
    {
      name: "white noise at 48 kHz",
      samples: () => noise(seconds * 48000, 48000, "white", seededRandom(2)).map((x) => 0.3 * x),
      sampleRate: 48000,
    },
    { name: "pink noise", samples: () => noise(length, rate, "pink", seededRandom(3)), sampleRate: rate },
    {
      name: "a chirp from 20 Hz to 4 kHz",
      samples: () => {
        const out = new Float32Array(length);
        for (let i = 0, phase = 0; i < length; i++) {
          phase += (2 * Math.PI * (20 + (3980 * i) / length)) / rate;
          out[i] = 0.8 * Math.sin(phase);
        }
        return out;
      },
      sampleRate: rate,
    },
    {
      name: "chirps up and down over noise",
      samples: () => {
        const out = noise(length, rate, "white", seededRandom(4)).map((x) => 0.05 * x);
        for (let i = 0, up = 0, down = 0; i < length; i++) {
          const t = (i % rate) / rate;
          up += (2 * Math.PI * (100 + 3800 * t)) / rate;
          down += (2 * Math.PI * (3900 - 3800 * t)) / rate;
          out[i] = (out[i] as number) + 0.3 * Math.sin(up) + 0.3 * Math.sin(down);
        }
        return out;
      },
      sampleRate: rate,
    },
    {
      name: "dense music",
      samples: () =>
        renderTrack(composeTrack(11, seconds + 1), { fromSecond: 0, seconds, sampleRate: 44100 }),
      sampleRate: 44100,
    },
  ];
  test.each(inputs)("$name, 30 s and at every checkpoint", ({ samples, sampleRate }) => {
    const audio = samples();
    for (const cut of [3, 6, 9, 12, seconds]) {
      const signature = computeSignature(audio.subarray(0, cut * sampleRate), sampleRate);
      expect(refusal(signature), `${cut} s`).toBeUndefined();
      // The matcher reads all of a browser's signature (it stops at 12 s), the first peaks of a longer one.
      if (cut <= 12) expect(signature.frames.length, `${cut} s`).toBeLessThanOrEqual(MATCH_QUERY_PEAKS);
    }
  });
});
