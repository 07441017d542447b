import { INDEX_FANOUT, SKETCH_BUCKETS } from "./constants";
import { forEachLandmark, landmarkPeaks } from "./landmarks";
import type { Signature } from "./signature";

/**
 * A signature's sketch: one-permutation MinHash (Li, Owen and Zhang 2012) over its landmark
 * hashes, the pairs of peaks the matcher looks up. Each hash is mixed once; its top bits choose one
 * of SKETCH_BUCKETS buckets and each bucket keeps the smallest of its remaining bits (-1 when it got
 * none). Two signatures agree in a bucket with a probability close to the Jaccard similarity of
 * their hash sets, so a replay (the same bytes, or a peak edited) agrees in nearly every bucket, and
 * another recording of the same moment, whose peaks noise moved, in few. The hashes are pairs of
 * (frequency, frequency difference, time difference): shifting every peak in time changes none.
 * Used to count a signature sent again as one identification (decision 032); a few thousand
 * multiplications for a 12 s signature.
 */
export function signatureSketch(signature: Signature): number[] {
  const sketch = new Array<number>(SKETCH_BUCKETS).fill(-1);
  const bucketShift = 32 - Math.log2(SKETCH_BUCKETS);
  const valueMask = 2 ** bucketShift - 1;
  forEachLandmark(
    landmarkPeaks(signature.frames, signature.bins),
    INDEX_FANOUT,
    (hash, _anchor, _pair, exactDt) => {
      if (!exactDt) return;
      const mixed = mix32(hash);
      const bucket = mixed >>> bucketShift;
      const value = mixed & valueMask;
      const kept = sketch[bucket] as number;
      if (kept < 0 || value < kept) sketch[bucket] = value;
    },
  );
  return sketch;
}

/** MurmurHash3's 32-bit finaliser: every input bit moves about half the output bits. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
