import { describe, expect, test } from "vitest";
import { replaySketchAgreement } from "#origin/identifications.ts";
import {
  computeSignature,
  decodeSignature,
  encodeSignature,
  type Signature,
  SKETCH_BUCKETS,
  signatureSketch,
} from "#signature/index.ts";
import { composeTrack, renderTrack, whiteNoise } from "./signature-music";

// The sketch by which the same recording sent again counts once (decision 032): a replay agrees
// in nearly every bucket, another person's recording of the same moment in few.

/** Buckets two sketches agree in, as the consumer's replay statement counts them (a bucket both left empty does not count). */
function sketchAgreement(a: readonly number[], b: readonly number[]): number {
  return a.filter((value, bucket) => value >= 0 && value === b[bucket]).length;
}

const sampleRate = 16000;
const notes = composeTrack(21, 40);

function heard(fromSecond: number, seconds: number, noiseSeed: number, snrDb = 10): Signature {
  const samples = renderTrack(notes, { fromSecond, seconds, sampleRate });
  let power = 0;
  for (const value of samples) power += value * value;
  power /= samples.length;
  const noise = whiteNoise(samples.length, noiseSeed, 1);
  const gain = Math.sqrt((power / 10 ** (snrDb / 10)) * 3);
  return computeSignature(
    samples.map((value, i) => value + gain * (noise[i] as number)),
    sampleRate,
  );
}

/**
 * The signature with a trailing byte changed as a replay would change it and still be accepted:
 * the low byte of the last peak's frequency, one higher (the peaks stay in order).
 */
function trailingByteEdited(signature: Signature): Signature {
  const edited = encodeSignature(signature).slice();
  const low = edited.length - 2;
  edited[low] = (edited[low] as number) + 1;
  const replay = decodeSignature(edited);
  expect(replay.bins.at(-1)).toBe((signature.bins.at(-1) as number) + 1);
  return replay;
}

function withoutPeak(signature: Signature, index: number): Signature {
  const keep = (_: number, i: number) => i !== index;
  return {
    ...signature,
    frames: signature.frames.filter(keep),
    bins: signature.bins.filter(keep),
  };
}

function shifted(signature: Signature, frames: number): Signature {
  return {
    ...signature,
    frameCount: signature.frameCount + frames,
    frames: signature.frames.map((frame) => frame + frames),
  };
}

describe("signatureSketch", () => {
  const original = heard(12, 3, 1);

  test("has one value a bucket, the same for the same signature", () => {
    const sketch = signatureSketch(original);
    expect(sketch).toHaveLength(SKETCH_BUCKETS);
    expect(sketch.every((value) => value >= 0)).toBe(true);
    expect(signatureSketch(decodeSignature(encodeSignature(original)))).toEqual(sketch);
  });

  test.each([
    ["the same bytes", (s: Signature) => s],
    ["a changed trailing byte", trailingByteEdited],
    ["a peak removed in the middle", (s: Signature) => withoutPeak(s, Math.floor(s.frames.length / 2))],
    ["every peak shifted by 5 frames", (s: Signature) => shifted(s, 5)],
  ])("a replay with %s agrees in at least the replay rule's buckets", (_, replay) => {
    const agreement = sketchAgreement(signatureSketch(original), signatureSketch(replay(original)));
    expect(agreement).toBeGreaterThanOrEqual(replaySketchAgreement);
  });

  test.each([
    ["another noise over the same 3 s", heard(12, 3, 2)],
    ["another noise, 12 s from the same moment", heard(12, 12, 3)],
    ["the next 3 s", heard(15, 3, 1)],
    ["quieter, other noise", heard(12, 3, 4, 0)],
  ])("another recording (%s) agrees in fewer than the replay rule's buckets", (_, other) => {
    expect(sketchAgreement(signatureSketch(original), signatureSketch(other))).toBeLessThan(
      replaySketchAgreement,
    );
  });
});
