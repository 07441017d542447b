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

/**
 * A store's answer: the bucket sizes or the postings of the hashes asked for (any other hash reads
 * as empty, size 0). A store may forget an answer when it is asked the next: a query holds one
 * step's postings at a time.
 */
export type PostingLists = PostingsLayout & {
  /** Entries in the hash's bucket. */
  size(hash: number): number;
  postings(hash: number): Uint32Array;
};

/**
 * What one step of the matcher reads: first the sizes of its hashes' buckets (a store reads them
 * without the entries), then the postings of those it chose to read.
 */
export type PostingsRequest = { hashes: readonly number[]; read: "sizes" | "postings" };

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
    size: (hash) => {
      const start = offsets[hash];
      const end = offsets[hash + 1];
      return start === undefined || end === undefined ? 0 : end - start;
    },
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

/** Lists over the sizes or the postings fetched by hash (a store's answer). */
export function fetchedPostings(
  layout: PostingsLayout,
  sizes: ReadonlyMap<number, number>,
  found: ReadonlyMap<number, Uint32Array>,
): PostingLists {
  return {
    ...layout,
    size: (hash) => sizes.get(hash) ?? found.get(hash)?.length ?? 0,
    postings: (hash) => found.get(hash) ?? none,
  };
}
