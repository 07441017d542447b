import {
  FFT_SIZE,
  HASH_BITS,
  HASH_FREQUENCY_BINS,
  MATCH_MARGIN,
  MATCH_MARGIN_AT_CATALOGUE_SPEED,
  MATCH_MIN_ALIGNED,
  MATCH_MIN_FREQUENCIES,
  MATCH_OFFSET_TOLERANCE_FRAMES,
  MATCH_QUERY_PEAKS,
  MATCH_SHARED_MARGIN,
  MATCH_STEP_ENTRIES,
  MATCH_SURE_ALIGNED,
  MATCH_VERIFY_CANDIDATES,
  MATCH_VERIFY_MARGIN,
  PEAK_BIN_FRACTION,
  QUERY_DT_TOLERANCE_FRAMES,
  QUERY_FANOUT,
  QUERY_REPEAT_FRAMES,
  SIGNATURE_SAMPLE_RATE,
  SKEW_FACTORS,
} from "./constants";
import { anchorFrequency, forEachLandmark, type LandmarkPeaks, landmarkPeaks } from "./landmarks";
import { type PostingLists, type PostingsRequest, type PostingsStore, trackIndexPostings } from "./postings";
import type { Signature } from "./signature";
import type { TrackIndex } from "./track-index";

/** A recognised recording: which track, where in it the recording starts, and how fast it played. */
export type Match = {
  trackKey: string;
  /** Hashes of the recording aligned with the track at the matched offset. */
  score: number;
  /** Position in the track of the recording's first sample. */
  offsetMs: number;
  /** Recording's tempo over the track's, minus 1 (+0.02: 2 % fast), from the alignment's slope. */
  timeskew: number;
  /** Recording's frequencies over the track's, minus 1 (+0.02: 2 % higher), from the aligned peaks. */
  frequencyskew: number;
};

/** One hypothesis: the recording is `track` from frame `offset` on, played `speed` times as fast. */
export type Candidate = {
  track: number;
  offset: number;
  speed: number;
  /** Aligned hashes in the offset histogram, within MATCH_OFFSET_TOLERANCE_FRAMES of the offset. */
  votes: number;
};

/**
 * The matcher's view: the podium it decided on (the best candidate, then the best of each of the
 * next two tracks) and whether the best is a match.
 */
export type Ranking = {
  best: Candidate | null;
  second: Candidate | null;
  third: Candidate | null;
  isMatch: boolean;
};

// Local copies: these are read in the innermost loops.
const TOLERANCE = MATCH_OFFSET_TOLERANCE_FRAMES;
/** The largest speed difference the alignment looks for around the speed that matched. */
const MAX_SKEW = 0.02;
/** A fitted slope is trusted this far from the speed that matched: an edge of the scan fits beyond it. */
const MAX_FITTED_SKEW = MAX_SKEW + 0.005;
/** A hash's frequency step, in a peak's units (1/PEAK_BIN_FRACTION of an FFT bin). */
const HASH_FREQUENCY_UNIT = HASH_FREQUENCY_BINS * PEAK_BIN_FRACTION;
/** Anchors from 600 Hz up measure the frequency skew (in 1/PEAK_BIN_FRACTION bins). */
const SKEW_MIN_FREQUENCY = (600 / (SIGNATURE_SAMPLE_RATE / FFT_SIZE)) * PEAK_BIN_FRACTION;
/** Bounds of the numbers rarestWithin packs into one sort key. */
const HASH_LIMIT = 2 ** HASH_BITS;
const SIZE_LIMIT = 2 ** 30;
/** Offsets are shifted so that a recording starting a little before the track stays non-negative. */
const OFFSET_BIAS = 4096;

/**
 * The vote's scratch, kept between matches: a vote's track and offset, ordered by offset (a
 * counting sort), then the offsets ordered by track (a second, stable one), so that each track's
 * votes lie together in ascending offset (back in `offsets`). Two passes in proportion to the
 * votes, where a hash table paid random reads a vote and three a key for its window (three
 * quarters of a match's time at 100× the index). At most MATCH_STEP_ENTRIES votes: 8 MiB, and the
 * counts.
 */
type VoteScratch = {
  tracks: Uint32Array;
  offsets: Uint32Array;
  byOffsetTracks: Uint32Array;
  byOffsetOffsets: Uint32Array;
  offsetStarts: Uint32Array;
  trackStarts: Uint32Array;
};

/*
 * Made on the first match, not when the module loads: a module-level `new` is a side effect the
 * bundler must keep, which put the matcher into the browser's signature worker, which never matches.
 */
let scratch: VoteScratch | undefined;

function voteScratch(votes: number, span: number): VoteScratch {
  const grown = (array: Uint32Array | undefined, length: number) =>
    array && array.length >= length ? array : new Uint32Array(length);
  const s = scratch;
  scratch = {
    tracks: grown(s?.tracks, votes),
    offsets: grown(s?.offsets, votes),
    byOffsetTracks: grown(s?.byOffsetTracks, votes),
    byOffsetOffsets: grown(s?.byOffsetOffsets, votes),
    offsetStarts: grown(s?.offsetStarts, span + 1),
    trackStarts: s?.trackStarts ?? new Uint32Array(0),
  };
  return scratch;
}

/** Counts (at i + 1) become starts (at i): each one the sum of the counts before it. */
function accumulate(counts: Uint32Array, length: number): void {
  for (let i = 0; i < length; i++) counts[i + 1] = (counts[i + 1] as number) + (counts[i] as number);
}

/**
 * The matcher as steps: each yields the hashes whose postings it reads next and is resumed with
 * their lists, so that one matcher runs over the index in memory (every list at hand) and over a
 * store that fetches the lists it is asked for (a round trip a step).
 */
type Steps<T> = Generator<PostingsRequest, T, PostingLists>;

/**
 * The hashes one step reads, those in `first` before the others and each group rarest first
 * (ascending bucket size, then hash), of those in the index and no larger than `largest`, until
 * MATCH_STEP_ENTRIES: a bucket's entries count once for each time its hash is listed. Rare hashes
 * tell tracks apart most; whatever the index's size, a step reads a bounded number of entries, and
 * as the index grows it reads fewer of the query's hashes, not more. The vote puts first its
 * pairs' hashes at their own dt: the variants a frame off (QUERY_DT_TOLERANCE_FRAMES) stand for a
 * peak that moved, and, rarest first among all, filled a step at 100× the index with hashes the
 * recording does not share (docs/decisions/043-recognition-accuracy.md).
 */
export function rarestWithin(
  hashes: readonly number[],
  size: (hash: number) => number,
  largest: number,
  first: ReadonlySet<number> = new Set(),
): number[] {
  const listed = new Map<number, number>();
  for (const hash of hashes) listed.set(hash, (listed.get(hash) ?? 0) + 1);
  // The order (group, size, hash) packed into one number a hash and sorted as numbers: a sort
  // through a comparator that looked the sizes up was 40 % of a match that scans every speed.
  // A size is kept below 2^30 (any bucket that large ends the step anyway), a hash below 2^HASH_BITS.
  const keys = new Float64Array(listed.size);
  let present = 0;
  for (const hash of listed.keys()) {
    const entries = size(hash);
    if (entries <= 0 || entries > largest) continue;
    const group = first.has(hash) ? 0 : 1;
    keys[present++] = (group * SIZE_LIMIT + Math.min(entries, SIZE_LIMIT - 1)) * HASH_LIMIT + hash;
  }
  const read: number[] = [];
  let entries = 0;
  for (const key of keys.subarray(0, present).sort()) {
    const hash = key % HASH_LIMIT;
    entries += size(hash) * (listed.get(hash) as number);
    if (entries > MATCH_STEP_ENTRIES) break;
    read.push(hash);
  }
  return read;
}

/**
 * The postings one step reads (`rarestWithin`). The vote (`voting`) leaves out the catalogue's
 * commonest buckets and counts a bucket once for each time its hash occurs in the query, since
 * each occurrence votes with every entry: the vote then holds at most MATCH_STEP_ENTRIES votes,
 * where counting each bucket once let it grow to four times that at 100× the index. An alignment
 * keeps only the candidate track's entries, so it counts each bucket once.
 * Two round trips: the sizes, then the postings of the hashes chosen. Returns the lists and the
 * hashes read: the others count as absent, in memory as in a store.
 */
function* rarest(
  hashes: readonly number[],
  voting: boolean,
  first?: ReadonlySet<number>,
): Steps<{ lists: PostingLists; read: Set<number> }> {
  const distinct = [...new Set(hashes)];
  const sized = yield { hashes: distinct, read: "sizes" };
  const largest = voting ? sized.commonBucketSize : Number.POSITIVE_INFINITY;
  const read = rarestWithin(voting ? hashes : distinct, (hash) => sized.size(hash), largest, first);
  const lists = yield { hashes: read, read: "postings" };
  return { lists, read: new Set(read) };
}

/** A query's hashes at one speed, each with its anchor's time, a hash value once per QUERY_REPEAT_FRAMES. */
type Query = { hashes: number[]; times: number[] };

/**
 * A hash value votes once per QUERY_REPEAT_FRAMES: a steady tone repeats the same hashes all along
 * and would otherwise line up with any sustained note.
 */
function queryAt(signature: Signature, speed: number): Query & { exact: Set<number> } {
  const peaks = landmarkPeaks(signature.frames, signature.bins, speed);
  const hashes: number[] = [];
  const times: number[] = [];
  const lastSeen = new Map<number, number>();
  // The pairs' hashes at their own dt, which the vote reads first (rarestWithin), repeated or not.
  const exact = new Set<number>();
  forEachLandmark(
    peaks,
    QUERY_FANOUT,
    (hash, anchor, _pair, exactDt) => {
      if (exactDt) exact.add(hash);
      const time = peaks.times[anchor] as number;
      if (repeats(lastSeen, hash, time)) return;
      hashes.push(hash);
      times.push(time);
    },
    QUERY_DT_TOLERANCE_FRAMES,
  );
  return { hashes, times, exact };
}

/**
 * Whether `key` was heard less than QUERY_REPEAT_FRAMES before `time` (a steady tone repeats its
 * hashes all along); if not, it is remembered as heard at `time`.
 */
function repeats(lastSeen: Map<number, number>, key: number, time: number): boolean {
  const seen = lastSeen.get(key);
  if (seen !== undefined && time - seen < QUERY_REPEAT_FRAMES) return true;
  lastSeen.set(key, time);
  return false;
}

/** The query's hashes that were read, each with its time. */
function only({ hashes, times }: Query, read: ReadonlySet<number>): Query {
  const kept: Query = { hashes: [], times: [] };
  for (let q = 0; q < hashes.length; q++) {
    if (!read.has(hashes[q] as number)) continue;
    kept.hashes.push(hashes[q] as number);
    kept.times.push(times[q] as number);
  }
  return kept;
}

/**
 * Wang 2003: the query's hashes that are in the index vote for (track, time offset); a true match
 * piles its votes on one offset. The commonest hashes of the catalogue (see
 * MATCH_COMMON_BUCKET_FACTOR) do not vote: they cost most of the time and tell tracks apart least.
 * Returns each voted track's best cell at one speed.
 */
function vote(lists: PostingLists, { hashes, times }: Query, speed: number): Candidate[] {
  const { timeBits, commonBucketSize } = lists;
  const span = 2 ** timeBits + 2 * OFFSET_BIAS;
  const frameMask = 2 ** timeBits - 1;
  let expected = 0;
  for (const hash of hashes) expected += lists.postings(hash).length;
  const v = voteScratch(expected, span);
  let count = 0;
  let trackCount = 0;
  for (let q = 0; q < hashes.length; q++) {
    const postings = lists.postings(hashes[q] as number);
    if (postings.length > commonBucketSize) continue;
    const time = times[q] as number;
    for (let e = 0; e < postings.length; e++) {
      const entry = postings[e] as number;
      const offset = Math.round((entry & frameMask) - time) + OFFSET_BIAS;
      if (offset < 0) continue;
      const track = entry >>> timeBits;
      if (track >= trackCount) trackCount = track + 1;
      v.tracks[count] = track;
      v.offsets[count++] = offset;
    }
  }
  if (v.trackStarts.length <= trackCount) v.trackStarts = new Uint32Array(trackCount + 1);
  // By offset, then (stable) by track: each track's offsets together, ascending.
  const { offsetStarts, trackStarts } = v;
  offsetStarts.fill(0, 0, span + 1);
  trackStarts.fill(0, 0, trackCount + 1);
  for (let i = 0; i < count; i++) {
    const o = (v.offsets[i] as number) + 1;
    const t = (v.tracks[i] as number) + 1;
    offsetStarts[o] = (offsetStarts[o] as number) + 1;
    trackStarts[t] = (trackStarts[t] as number) + 1;
  }
  accumulate(offsetStarts, span);
  accumulate(trackStarts, trackCount);
  for (let i = 0; i < count; i++) {
    const o = v.offsets[i] as number;
    const at = offsetStarts[o] as number;
    offsetStarts[o] = at + 1;
    v.byOffsetTracks[at] = v.tracks[i] as number;
    v.byOffsetOffsets[at] = v.offsets[i] as number;
  }
  // trackStarts[t] becomes the end of track t's votes; its start is then trackStarts[t - 1].
  for (let i = 0; i < count; i++) {
    const t = v.byOffsetTracks[i] as number;
    const at = trackStarts[t] as number;
    trackStarts[t] = at + 1;
    v.offsets[at] = v.byOffsetOffsets[i] as number;
  }
  // Each track's best cell (the podium compares tracks): the most votes within TOLERANCE of an
  // offset, the earliest offset of those.
  const offsets = v.offsets;
  const found: Candidate[] = [];
  for (let track = 0, start = 0; track < trackCount; start = trackStarts[track++] as number) {
    const end = trackStarts[track] as number;
    if (end === start) continue;
    let bestVotes = 0;
    let bestOffset = 0;
    let low = start;
    let high = start;
    for (let from = start; from < end; ) {
      const offset = offsets[from] as number;
      let to = from + 1;
      while (to < end && offsets[to] === offset) to++;
      while ((offsets[low] as number) < offset - TOLERANCE) low++;
      if (high < to) high = to;
      while (high < end && (offsets[high] as number) <= offset + TOLERANCE) high++;
      if (high - low > bestVotes) {
        bestVotes = high - low;
        bestOffset = offset;
      }
      from = to;
    }
    found.push({ track, offset: bestOffset - OFFSET_BIAS, speed, votes: bestVotes });
  }
  return found;
}

function outranks(a: Candidate, b: Candidate | null): boolean {
  if (b === null) return true;
  if (a.votes !== b.votes) return a.votes > b.votes;
  if (a.track !== b.track) return a.track < b.track;
  return Math.abs(a.speed - 1) < Math.abs(b.speed - 1);
}

type Podium = [best: Candidate | null, second: Candidate | null, third: Candidate | null];

/** The best candidate (of `track` when given), then the best of each of the next two tracks. */
function podium(candidates: readonly Candidate[], track?: number): Podium {
  let best: Candidate | null = null;
  for (const candidate of candidates) {
    if ((track === undefined || candidate.track === track) && outranks(candidate, best)) best = candidate;
  }
  let second: Candidate | null = null;
  for (const candidate of candidates) {
    if (best && candidate.track !== best.track && outranks(candidate, second)) second = candidate;
  }
  let third: Candidate | null = null;
  for (const candidate of candidates) {
    if (
      best &&
      second &&
      candidate.track !== best.track &&
      candidate.track !== second.track &&
      outranks(candidate, third)
    ) {
      third = candidate;
    }
  }
  return [best, second, third];
}

/** Votes `a` stand `margin` standard deviations above `b`, read as a Poisson count of chance votes. */
function isAhead(a: number, b: number, margin: number): boolean {
  return a >= b + margin * Math.sqrt(b + 1);
}

/**
 * The best track must have `minimum` votes and stand `margin` above the next track. When the next
 * track itself stands MATCH_SHARED_MARGIN above the third, the two share the recording (a
 * remaster, a medley): the better one is the answer.
 */
function isMatch([best, second, third]: Podium, minimum: number, margin: number): boolean {
  if (best === null || best.votes < minimum) return false;
  const secondVotes = second?.votes ?? 0;
  if (isAhead(best.votes, secondVotes, margin)) return true;
  return secondVotes >= minimum && isAhead(secondVotes, third?.votes ?? 0, MATCH_SHARED_MARGIN);
}

/**
 * The decision over the scanned cells. The whole scan's best must stand MATCH_MARGIN above the
 * next track. The first scan, at the catalogue's speed, is also judged alone against its own
 * chance cells, with the narrower MATCH_MARGIN_AT_CATALOGUE_SPEED: most recordings play at that
 * speed, and a track it singles out is the answer (its best cell over all speeds, so that the
 * skew is still measured).
 */
export function judge(atCatalogueSpeed: readonly Candidate[], scanned: readonly Candidate[]): Ranking {
  const scan = podium(scanned);
  if (isMatch(scan, MATCH_MIN_ALIGNED, MATCH_MARGIN)) return toRanking(scan, true);
  const first = podium(atCatalogueSpeed);
  if (first[0] && isMatch(first, MATCH_MIN_ALIGNED, MATCH_MARGIN_AT_CATALOGUE_SPEED)) {
    return toRanking(podium(scanned, first[0].track), true);
  }
  return toRanking(scan, false);
}

function toRanking([best, second, third]: Podium, matched: boolean): Ranking {
  return { best, second, third, isMatch: matched };
}

/**
 * Scores the index's tracks against the signature through the offset histogram of its hashes, at
 * each of SKEW_FACTORS in turn (1 first) until one finds a sure match, and judges the cells.
 */
function* rankSteps(signature: Signature): Steps<Ranking> {
  const cells: Candidate[] = [];
  let atCatalogueSpeed: Candidate[] = [];
  for (const speed of SKEW_FACTORS) {
    const query = queryAt(signature, speed);
    const { lists, read } = yield* rarest(query.hashes, true, query.exact);
    const scanned = vote(lists, only(query, read), speed);
    if (speed === 1) atCatalogueSpeed = scanned;
    for (const cell of scanned) cells.push(cell);
    if (isMatch(podium(cells), MATCH_SURE_ALIGNED, MATCH_MARGIN)) break;
  }
  const ranking = judge(atCatalogueSpeed, cells);
  if (ranking.isMatch) return ranking;
  return confirmed(ranking, judgeVerified(yield* verify(signature, leaders(cells, MATCH_VERIFY_CANDIDATES))));
}

/**
 * The verification confirms the scan's best track; it never answers another (a wrong song). Counted
 * again, that track's line must keep at least the votes the scan gave it: the recording's line gains
 * the pairs the verification's jitter finds, while a chance line, the highest of the scan's many,
 * falls back (regression to the mean; decision 043, and "Session 10" in its notes,
 * docs/notes/043-recognition-accuracy-sessions.md).
 */
export function confirmed(scan: Ranking, verified: Ranking): Ranking {
  const holds =
    verified.best !== null &&
    scan.best !== null &&
    verified.best.track === scan.best.track &&
    verified.best.votes >= scan.best.votes;
  return holds ? verified : { ...verified, isMatch: false };
}

/** The best cell of each of the `count` tracks whose best cells rank first. */
export function leaders(cells: readonly Candidate[], count: number): Candidate[] {
  const bestOfTrack = new Map<number, Candidate>();
  for (const cell of cells) {
    if (outranks(cell, bestOfTrack.get(cell.track) ?? null)) bestOfTrack.set(cell.track, cell);
  }
  return [...bestOfTrack.values()].sort((a, b) => (outranks(a, b) ? -1 : 1)).slice(0, count);
}

/**
 * The verified podium decides alone: the best must have MATCH_MIN_ALIGNED verified pairs and stand
 * MATCH_VERIFY_MARGIN above the next (no shared recording: a few candidates are no podium of the
 * catalogue).
 */
export function judgeVerified(verified: readonly Candidate[]): Ranking {
  const [best, second, third] = podium(verified);
  const matched =
    best !== null &&
    best.votes >= MATCH_MIN_ALIGNED &&
    isAhead(best.votes, second?.votes ?? 0, MATCH_VERIFY_MARGIN);
  return { best, second, third, isMatch: matched };
}

/**
 * Scores each candidate again (MATCH_VERIFY_CANDIDATES): the query's pairs at the candidate's
 * speed, with a frame and a bin of jitter, found in the candidate's track within
 * MATCH_OFFSET_TOLERANCE_FRAMES of its offset; a pair counts once whatever its hashes found, and
 * not again within QUERY_REPEAT_FRAMES. One step for every candidate, under the vote's rules (no
 * common bucket, MATCH_STEP_ENTRIES): the sizes of their hashes, then the rarest postings.
 */
function* verify(signature: Signature, candidates: readonly Candidate[]): Steps<Candidate[]> {
  if (candidates.length === 0) return [];
  const speeds = [...new Set(candidates.map((candidate) => candidate.speed))];
  const bySpeed = new Map<number, { hashes: number[]; times: number[]; pairs: number[] }>();
  const hashes: number[] = [];
  for (const speed of speeds) {
    const peaks = landmarkPeaks(signature.frames, signature.bins, speed);
    const query = { hashes: [] as number[], times: [] as number[], pairs: [] as number[] };
    // A pair repeated within QUERY_REPEAT_FRAMES counts once, as in the vote: a steady tone
    // repeats its pairs all along. A pair is known by its first hash.
    const lastSeen = new Map<number, number>();
    let current = -1;
    let repeated = false;
    forEachLandmark(
      peaks,
      QUERY_FANOUT,
      (hash, anchor, pair) => {
        const time = peaks.times[anchor] as number;
        if (pair !== current) {
          current = pair;
          repeated = repeats(lastSeen, hash, time);
        }
        if (repeated) return;
        query.hashes.push(hash);
        query.times.push(time);
        query.pairs.push(pair);
      },
      QUERY_DT_TOLERANCE_FRAMES,
      true,
    );
    bySpeed.set(speed, query);
    for (const hash of query.hashes) hashes.push(hash);
  }
  // As in the vote, the commonest buckets do not count, and a bucket counts once a listing.
  const { lists, read } = yield* rarest(hashes, true);
  const { timeBits } = lists;
  const frameMask = 2 ** timeBits - 1;
  return candidates.map((candidate) => {
    const query = bySpeed.get(candidate.speed) as { hashes: number[]; times: number[]; pairs: number[] };
    const found = new Set<number>();
    for (let q = 0; q < query.hashes.length; q++) {
      const pair = query.pairs[q] as number;
      const hash = query.hashes[q] as number;
      if (found.has(pair) || !read.has(hash)) continue;
      const expected = (query.times[q] as number) + candidate.offset;
      const postings = lists.postings(hash);
      for (let e = 0; e < postings.length; e++) {
        const entry = postings[e] as number;
        if (entry >>> timeBits !== candidate.track) continue;
        if (Math.abs((entry & frameMask) - expected) <= TOLERANCE + 0.5) {
          found.add(pair);
          break;
        }
      }
    }
    return { ...candidate, votes: found.size };
  });
}

/**
 * The part of a signature the matcher reads: its first MATCH_QUERY_PEAKS peaks, so that what one
 * match costs is bounded whatever the signature's length. A browser's 12 s keep every peak.
 */
function queried(signature: Signature): Signature {
  if (signature.frames.length <= MATCH_QUERY_PEAKS) return signature;
  return {
    ...signature,
    frames: signature.frames.subarray(0, MATCH_QUERY_PEAKS),
    bins: signature.bins.subarray(0, MATCH_QUERY_PEAKS),
  };
}

/** How many different frequencies, in hash units, the signature's peaks stand at. */
function frequenciesOf(signature: Signature): number {
  const units = new Set<number>();
  for (const bin of signature.bins) units.add(Math.floor(bin / HASH_FREQUENCY_UNIT));
  return units.size;
}

/** A match with the index's track number, before the store names its track. */
type TrackMatch = Omit<Match, "trackKey"> & { track: number };

/**
 * The track a signature comes from, or null. The skews are measured on the aligned anchors: time
 * skew from the slope of track frames over recording frames, frequency skew from the recording's
 * anchor frequencies over the track's (as far as the hash's frequency steps tell them).
 * What a match does is bounded (docs/decisions/051-bounded-recognition-work.md): its steps by
 * SKEW_FACTORS (a scan a speed), one verification and two alignments; each step's hashes by
 * MATCH_QUERY_PEAKS, its postings and votes by MATCH_STEP_ENTRIES; the tracks verified by
 * MATCH_VERIFY_CANDIDATES.
 */
function* matchSteps(whole: Signature): Steps<TrackMatch | null> {
  const signature = queried(whole);
  // One chord, however often repeated, tells no song from another: no lookup is made for it.
  if (frequenciesOf(signature) < MATCH_MIN_FREQUENCIES) return null;
  const { best, isMatch: matched } = yield* rankSteps(signature);
  if (!best || !matched) return null;
  let { slope, start, frequencyRatio } = yield* alignment(signature, best);
  // A match found at one speed can hold a recording a little off it (a sure match at speed 1 skips
  // the scan): the anchors are gathered again at the speed the slope says, where the frequency
  // steps of the hashes no longer favour the anchors that agree with the first speed.
  if (Math.abs(slope - best.speed) > 0.0025) {
    ({ slope, start, frequencyRatio } = yield* alignment(signature, {
      ...best,
      speed: slope,
      offset: Math.round(start),
    }));
  }
  const msPerFrame = (signature.hop * 1000) / signature.sampleRate;
  return {
    track: best.track,
    score: best.votes,
    offsetMs: Math.round(start * msPerFrame),
    timeskew: Number((slope - 1).toFixed(5)),
    frequencyskew: Number((frequencyRatio - 1).toFixed(5)),
  };
}

/** Runs the steps over the index in memory: every list is at hand. */
function inMemory<T>(steps: Steps<T>, lists: PostingLists): T {
  let step = steps.next();
  while (!step.done) step = steps.next(lists);
  return step.value;
}

export function rankSignature(index: TrackIndex, signature: Signature): Ranking {
  return inMemory(rankSteps(queried(signature)), trackIndexPostings(index));
}

/** The track a signature comes from in the index loaded whole, or null (see matchSteps). */
export function matchSignature(index: TrackIndex, signature: Signature): Match | null {
  const found = inMemory(matchSteps(signature), trackIndexPostings(index));
  if (!found) return null;
  const trackKey = index.trackKeys[found.track];
  if (trackKey === undefined) return null;
  const { track: _, ...match } = found;
  return { trackKey, ...match };
}

/**
 * The track a signature comes from in a postings store, or null (see matchSteps): two lookups
 * (sizes, then postings) each speed scanned and each alignment, then the track's key.
 */
export async function matchSignatureIn(store: PostingsStore, signature: Signature): Promise<Match | null> {
  const steps = matchSteps(signature);
  let step = steps.next();
  while (!step.done) step = steps.next(await store.lookup(step.value));
  const found = step.value;
  if (!found) return null;
  const trackKey = await store.trackKey(found.track);
  if (trackKey === undefined) return null;
  const { track: _, ...match } = found;
  return { trackKey, ...match };
}

/** Recording frame, track frame, and the recording's anchor frequency over the track's. */
type Anchor = { x: number; y: number; ratio: number; frequency: number };

/** Every landmark of the query at the candidate's speed: its hash and its anchor. */
function landmarksAt(
  signature: Signature,
  speed: number,
): { peaks: LandmarkPeaks; hashes: number[]; anchors: number[] } {
  const peaks = landmarkPeaks(signature.frames, signature.bins, speed);
  const hashes: number[] = [];
  const anchors: number[] = [];
  forEachLandmark(
    peaks,
    QUERY_FANOUT,
    (hash, anchor) => {
      hashes.push(hash);
      anchors.push(anchor);
    },
    QUERY_DT_TOLERANCE_FRAMES,
  );
  return { peaks, hashes, anchors };
}

/** The query anchors whose hashes hit the track near the candidate's line, drift allowed. */
function* anchorsNear(signature: Signature, best: Candidate): Steps<Anchor[]> {
  const { peaks, hashes, anchors } = landmarksAt(signature, best.speed);
  const { lists, read } = yield* rarest(hashes, false);
  const { timeBits } = lists;
  const frameMask = 2 ** timeBits - 1;
  // A sure match at speed 1 can come from a recording a little off speed: allow its drift.
  const window = TOLERANCE + 1 + MAX_SKEW * signature.frameCount;
  const found: Anchor[] = [];
  for (let q = 0; q < hashes.length; q++) {
    const hash = hashes[q] as number;
    if (!read.has(hash)) continue;
    const anchor = anchors[q] as number;
    const time = peaks.times[anchor] as number;
    const postings = lists.postings(hash);
    for (let e = 0; e < postings.length; e++) {
      const entry = postings[e] as number;
      if (entry >>> timeBits !== best.track) continue;
      const frame = entry & frameMask;
      if (Math.abs(frame - time - best.offset) > window) continue;
      const frequency = anchorFrequency(hash);
      const bin = signature.bins[anchor] as number;
      found.push({ x: signature.frames[anchor] as number, y: frame, ratio: bin / frequency, frequency });
    }
  }
  return found;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * The line through the aligned anchors (recording frame x, track frame y), robust to stray
 * anchors: the median slope between anchors half the list apart (Theil-Sen), trusted over a
 * second or more of anchors; the start is the median of y - slope x, the line at x = 0.
 */
function* alignment(
  signature: Signature,
  best: Candidate,
): Steps<{ slope: number; start: number; frequencyRatio: number }> {
  const anchors = (yield* anchorsNear(signature, best)).sort((a, b) => a.x - b.x);
  const half = Math.floor(anchors.length / 2);
  const slopes: number[] = [];
  for (let i = 0; i + half < anchors.length; i++) {
    const a = anchors[i] as Anchor;
    const b = anchors[i + half] as Anchor;
    if (b.x - a.x >= signature.sampleRate / signature.hop) slopes.push((b.y - a.y) / (b.x - a.x));
  }
  const fitted = slopes.length >= 6 ? median(slopes) : best.speed;
  const slope = Math.abs(fitted - best.speed) <= MAX_FITTED_SKEW ? fitted : best.speed;
  const start = anchors.length > 0 ? median(anchors.map((a) => a.y - slope * a.x)) : best.offset;
  const kept = anchors.filter((a) => Math.abs(a.y - (start + slope * a.x)) <= TOLERANCE + 0.5);
  // Low anchors say little: one frequency step is a large share of a low frequency.
  const ratios = kept.filter((a) => a.frequency >= SKEW_MIN_FREQUENCY).map((a) => a.ratio);
  return { slope, start, frequencyRatio: ratios.length >= 8 ? median(ratios) : best.speed };
}
