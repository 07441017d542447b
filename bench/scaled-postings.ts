import { seededRandom } from "#origin/catalog/audio-degrade.ts";

/**
 * The generation rule of the scale bench (decision 029): the index k times as large keeps each bucket's
 * real entries and adds (k - 1) times as many for tracks in no recording (track numbers after the
 * real ones, each as long as the real track it is numbered after), at random frames. The hash
 * frequencies keep the real distribution. The draws are seeded by hash and scale, so that the
 * index built in Node and the store generated inside workerd hold the same entries.
 */
export type Generation = { k: number; timeBits: number; trackFrames: ArrayLike<number> };

/** Tracks the index k times as large numbers after the real ones; their keys are generated-<i>. */
export function generatedTrackCount(realTracks: number, k: number): number {
  return realTracks * (k - 1);
}

/** Writes `real` and its generated entries into `out` (length real.length * k). */
export function scaledBucket(
  hash: number,
  real: Uint32Array,
  { k, timeBits, trackFrames }: Generation,
  out: Uint32Array,
): void {
  out.set(real);
  const realTracks = trackFrames.length;
  const generated = generatedTrackCount(realTracks, k);
  const random = seededRandom(Math.imul(hash + 1, 0x9e3779b1) ^ k);
  for (let at = real.length; at < out.length; at++) {
    const track = realTracks + Math.floor(random() * generated);
    const frame = Math.floor(random() * (trackFrames[track % realTracks] as number));
    out[at] = ((track << timeBits) | frame) >>> 0;
  }
}
