import type { TrackIndex } from "./track-index";

/**
 * The postings of the index as the matcher reads them: for each hash it asks for, its entries
 * (track << timeBits | anchor frame, by track, then frame). Two stores answer it: the index loaded
 * whole into memory (trackIndexPostings) and the recognition store in D1 (origin/recognition-store.ts),
 * which holds the index no isolate could load whole (docs/decisions/029-recognition-store.md).
 */
export type PostingsLayout = {
  timeBits: number;
  /** Buckets above this size hold the catalogue's commonest hashes; the matcher skips them. */
  commonBucketSize: number;
};

/** The postings of the hashes asked for; any other hash reads as empty. */
export type PostingLists = PostingsLayout & { postings(hash: number): Uint32Array };

/**
 * What one step of the matcher reads: the postings of these hashes. The vote skips the buckets
 * above commonBucketSize, so for it (`skipCommon`) a store may answer them as empty and leave their
 * bytes where they are; the alignment reads every bucket.
 */
export type PostingsRequest = { hashes: readonly number[]; skipCommon: boolean };

export interface PostingsStore {
  /** The postings asked for, in a bounded number of round trips; absent hashes have none. */
  lookup(request: PostingsRequest): Promise<PostingLists>;
  /** The catalogue key of the index's track number `track`. */
  trackKey(track: number): Promise<string | undefined>;
}

/** Bundled into the browser's signature worker only if used: no module-level side effect. */
const none = /* @__PURE__ */ new Uint32Array(0);

/** Lists over the whole loaded index: every hash is at hand. */
export function trackIndexPostings(index: TrackIndex): PostingLists {
  const { offsets, entries, timeBits, commonBucketSize } = index;
  return {
    timeBits,
    commonBucketSize,
    postings: (hash) => {
      const start = offsets[hash];
      const end = offsets[hash + 1];
      return start === undefined || end === undefined || end === start ? none : entries.subarray(start, end);
    },
  };
}

/** Today's index, loaded whole into the isolate, as a store. */
export function trackIndexStore(index: TrackIndex): PostingsStore {
  const lists = trackIndexPostings(index);
  return {
    lookup: async () => lists,
    trackKey: async (track) => index.trackKeys[track],
  };
}

/** Lists over postings fetched by hash (a store's answer). */
export function fetchedPostings(
  layout: PostingsLayout,
  found: ReadonlyMap<number, Uint32Array>,
): PostingLists {
  return { ...layout, postings: (hash) => found.get(hash) ?? none };
}
