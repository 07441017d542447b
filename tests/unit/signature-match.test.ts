import { describe, expect, test } from "vitest";
import {
  computeSignature,
  createIndexBuilder,
  HOP_SIZE,
  loadIndex,
  MATCH_QUERY_PEAKS,
  MATCH_STEP_ENTRIES,
  matchSignature,
  matchSignatureIn,
  type PostingsRequest,
  type PostingsStore,
  SIGNATURE_SAMPLE_RATE,
  SignatureError,
  trackIndexStore,
} from "#signature/index.ts";
import { forEachLandmark, landmarkPeaks } from "#signature/landmarks.ts";
import {
  type Candidate,
  confirmed,
  judge,
  judgeVerified,
  leaders,
  type Ranking,
  rarestWithin,
} from "#signature/match.ts";
import { buildIndex, composeTrack, renderTrack, whiteNoise } from "./signature-music";

const TRACK_SECONDS = 40;
const SEEDS = [11, 12, 13, 14, 15, 16];
const catalogue = SEEDS.map((seed) => ({ key: `track-${seed}`, notes: composeTrack(seed, TRACK_SECONDS) }));
const INDEX_RATE = 16000;
const tracks = catalogue.map(({ key, notes }) => ({
  trackKey: key,
  samples: renderTrack(notes, { fromSecond: 0, seconds: TRACK_SECONDS, sampleRate: INDEX_RATE }),
  sampleRate: INDEX_RATE,
}));
const indexBytes = buildIndex(tracks);
const index = loadIndex(indexBytes);

function excerpt(track: number, fromSecond: number, seconds: number, sampleRate: number, speed = 1) {
  const notes = catalogue[track]?.notes ?? [];
  return renderTrack(notes, { fromSecond, seconds, sampleRate, speed });
}

/** Byte equality without the test runner's element-by-element diff (the index is megabytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

function addWhiteNoise(samples: Float32Array, snrDb: number, seed: number): Float32Array {
  let power = 0;
  for (const value of samples) power += value * value;
  power /= samples.length;
  const noise = whiteNoise(samples.length, seed, 1);
  // Uniform noise in [-1, 1] has power 1/3.
  const gain = Math.sqrt((power / 10 ** (snrDb / 10)) * 3);
  return samples.map((value, i) => value + gain * (noise[i] as number));
}

describe("index", () => {
  test("holds every track and its length", () => {
    expect(index.trackKeys).toEqual(catalogue.map((track) => track.key));
    const frames = index.trackFrames.reduce((sum, count) => sum + count, 0);
    expect((frames * HOP_SIZE) / SIGNATURE_SAMPLE_RATE).toBeGreaterThan(TRACK_SECONDS * SEEDS.length - 1);
    expect(index.entries.length).toBeGreaterThan(1000);
  });

  test("built track by track is byte for byte the one built at once", () => {
    const builder = createIndexBuilder();
    for (const track of tracks) builder.addTrack(track.trackKey, track.samples, track.sampleRate);
    expect(builder.trackCount).toBe(SEEDS.length);
    expect(sameBytes(builder.finish(), indexBytes)).toBe(true);
  });

  test("built from signatures computed elsewhere is the same", () => {
    const builder = createIndexBuilder();
    for (const track of tracks)
      builder.addSignature(track.trackKey, computeSignature(track.samples, track.sampleRate));
    expect(sameBytes(builder.finish(), indexBytes)).toBe(true);
  });

  test("loads from bytes at any alignment", () => {
    const shifted = new Uint8Array(indexBytes.length + 1);
    shifted.set(indexBytes, 1);
    const loaded = loadIndex(shifted.subarray(1));
    expect(loaded.trackKeys).toEqual(index.trackKeys);
    expect(
      sameBytes(
        new Uint8Array(loaded.entries.buffer, loaded.entries.byteOffset, loaded.entries.byteLength),
        new Uint8Array(index.entries.buffer, index.entries.byteOffset, index.entries.byteLength),
      ),
    ).toBe(true);
  });

  test("refuses a track key twice", () => {
    const builder = createIndexBuilder();
    builder.addTrack("same", new Float32Array(8000), 8000);
    expect(() => builder.addTrack("same", new Float32Array(8000), 8000)).toThrow(SignatureError);
  });

  const patched = (at: number, value: number) => {
    const bytes = indexBytes.slice();
    bytes[at] = value;
    return bytes;
  };
  const bad: { name: string; bytes: () => Uint8Array; reason: string }[] = [
    { name: "empty", bytes: () => new Uint8Array(0), reason: "malformed" },
    { name: "wrong magic", bytes: () => patched(0, 0), reason: "malformed" },
    { name: "other version", bytes: () => patched(4, 9), reason: "unsupportedversion" },
    { name: "other hash size", bytes: () => patched(7, 20), reason: "mismatchedparameters" },
    {
      name: "other peak or pair parameters",
      bytes: () => patched(18, (indexBytes[18] ?? 0) ^ 1),
      reason: "mismatchedparameters",
    },
    { name: "truncated", bytes: () => indexBytes.slice(0, indexBytes.length - 5), reason: "malformed" },
    { name: "bad offsets", bytes: () => patched(32 + 4 * 1000, 255), reason: "malformed" },
  ];
  for (const { name, bytes, reason } of bad) {
    test(`loadIndex refuses ${name}`, () => {
      try {
        loadIndex(bytes());
        expect.unreachable();
      } catch (caught) {
        expect(caught).toBeInstanceOf(SignatureError);
        expect((caught as SignatureError).reason).toBe(reason);
      }
    });
  }
});

describe("matchSignature", () => {
  const offsets: number[] = [];
  for (const sampleRate of [8000, 22050, 44100, 48000]) {
    test(`the same excerpt at ${sampleRate} Hz matches its track at its offset`, () => {
      const signature = computeSignature(excerpt(3, 17.3, 6, sampleRate), sampleRate);
      const match = matchSignature(index, signature);
      expect(match?.trackKey).toBe("track-14");
      expect(Math.abs((match?.offsetMs ?? 0) - 17300)).toBeLessThan(40);
      expect(Math.abs(match?.timeskew ?? 1)).toBeLessThan(0.005);
      offsets.push(match?.offsetMs ?? 0);
      expect(Math.max(...offsets) - Math.min(...offsets)).toBeLessThan(40);
    });
  }

  for (const [track, fromSecond] of [
    [0, 0],
    [1, 9.5],
    [2, 33.2],
    [4, 21.9],
    [5, 4.4],
  ] as const) {
    test(`3 s of track ${track} from ${fromSecond} s match`, () => {
      const match = matchSignature(index, computeSignature(excerpt(track, fromSecond, 3, 44100), 44100));
      expect(match?.trackKey).toBe(catalogue[track]?.key);
      expect(Math.abs((match?.offsetMs ?? 0) - fromSecond * 1000)).toBeLessThan(40);
    });
  }

  for (const speed of [1.02, 0.98, 1.01]) {
    test(`played at ${speed} times the speed, it matches with the skew`, () => {
      const match = matchSignature(index, computeSignature(excerpt(2, 12, 9, 44100, speed), 44100));
      expect(match?.trackKey).toBe("track-13");
      expect(Math.abs((match?.offsetMs ?? 0) - 12000)).toBeLessThan(60);
      expect(Math.abs((match?.timeskew ?? 0) - (speed - 1))).toBeLessThan(0.004);
      expect(Math.abs((match?.frequencyskew ?? 0) - (speed - 1))).toBeLessThan(0.006);
    });
  }

  test("a signature of more than MATCH_QUERY_PEAKS peaks matches as its first MATCH_QUERY_PEAKS do", () => {
    const long = computeSignature(excerpt(3, 2, 30, INDEX_RATE), INDEX_RATE);
    expect(long.frames.length).toBeGreaterThan(MATCH_QUERY_PEAKS);
    const first = {
      ...long,
      frames: long.frames.slice(0, MATCH_QUERY_PEAKS),
      bins: long.bins.slice(0, MATCH_QUERY_PEAKS),
    };
    const match = matchSignature(index, long);
    expect(match?.trackKey).toBe("track-14");
    expect(match).toEqual(matchSignature(index, first));
  });

  test("with white noise at 5 dB SNR it still matches", () => {
    const noisy = addWhiteNoise(excerpt(1, 20, 6, 16000), 5, 3);
    expect(matchSignature(index, computeSignature(noisy, 16000))?.trackKey).toBe("track-12");
  });

  const unknown = composeTrack(99, 20);
  const nonMatches: { name: string; samples: () => Float32Array }[] = [
    { name: "silence", samples: () => new Float32Array(16000 * 12) },
    { name: "white noise", samples: () => whiteNoise(16000 * 12, 8, 0.3) },
    {
      name: "a steady chord",
      samples: () =>
        Float32Array.from({ length: 16000 * 12 }, (_, i) =>
          [220, 277, 330].reduce((sum, f) => sum + 0.2 * Math.sin((2 * Math.PI * f * i) / 16000), 0),
        ),
    },
    {
      name: "music that is not in the index",
      samples: () => renderTrack(unknown, { fromSecond: 2, seconds: 12, sampleRate: 16000 }),
    },
  ];
  for (const { name, samples } of nonMatches) {
    for (const seconds of [3, 12]) {
      test(`${name}, ${seconds} s, matches nothing`, () => {
        const signature = computeSignature(samples().subarray(0, seconds * 16000), 16000);
        expect(matchSignature(index, signature)).toBeNull();
      });
    }
  }

  test("an empty index matches nothing", () => {
    const empty = loadIndex(createIndexBuilder().finish());
    expect(matchSignature(empty, computeSignature(excerpt(0, 1, 6, 16000), 16000))).toBeNull();
  });
});

describe("what a match step reads", () => {
  /**
   * The index's buckets as if each were `factor` times as large (the index that many times the
   * size): the store answers the inflated sizes, and records what each step asked.
   */
  function inflated(factor: number) {
    const store = trackIndexStore(index);
    const steps: { sizes: PostingsRequest; read: PostingsRequest }[] = [];
    let sizes: PostingsRequest | undefined;
    const size = (hash: number) =>
      factor * ((index.offsets[hash + 1] as number) - (index.offsets[hash] as number));
    const wrapped: PostingsStore = {
      async lookup(request) {
        const lists = await store.lookup(request);
        if (request.read === "sizes") sizes = request;
        else if (sizes) steps.push({ sizes, read: request });
        return { ...lists, commonBucketSize: lists.commonBucketSize * factor, size };
      },
      trackKey: (track) => store.trackKey(track),
    };
    return { store: wrapped, steps, size };
  }

  test.each([1, 300, 30_000])(
    "with buckets %i times as large, a step reads the rarest first and at most MATCH_STEP_ENTRIES",
    async (factor) => {
      const { store, steps, size } = inflated(factor);
      await matchSignatureIn(store, computeSignature(excerpt(2, 10, 6, 16000), 16000));
      expect(steps.length).toBeGreaterThan(0);
      for (const { sizes, read } of steps) {
        const entries = read.hashes.reduce((sum, hash) => sum + size(hash), 0);
        expect(entries).toBeLessThanOrEqual(MATCH_STEP_ENTRIES);
        // Rarest first: in ascending size, once over for the vote's two groups (the pairs' own
        // hashes, then the variants a frame off; the table below tests which is read).
        const readSizes = read.hashes.map(size);
        const descents = readSizes.filter((entries, at) => at > 0 && entries < (readSizes[at - 1] as number));
        expect(descents.length).toBeLessThanOrEqual(1);
        if (factor === 1) {
          // The budget does not bind: nothing in the index below the common size is left unread.
          const left = sizes.hashes.filter((hash) => size(hash) > 0 && !read.hashes.includes(hash));
          const largestRead = Math.max(0, ...readSizes);
          for (const hash of left) expect(size(hash)).toBeGreaterThanOrEqual(largestRead);
          expect(read.hashes.length).toBeGreaterThan(0);
        }
      }
      // Once the budget binds, a step reads fewer hashes than its query has in the index.
      if (factor === 30_000)
        expect(steps.every(({ sizes, read }) => read.hashes.length < sizes.hashes.length)).toBe(true);
    },
  );

  // [case, the hashes listed (a vote lists a hash once per occurrence in the query), bucket sizes
  // by hash, largest, hashes read, hashes read first]. A bucket counts once for each time its
  // hash is listed.
  const half = MATCH_STEP_ENTRIES / 2;
  const choices: [string, number[], Record<number, number>, number, number[], number[]?][] = [
    ["rarest first, then by hash", [5, 3, 4], { 3: 10, 4: 2, 5: 2 }, Infinity, [4, 5, 3]],
    ["absent hashes are not read", [1, 2], { 2: 7 }, Infinity, [2]],
    ["buckets above the largest are not read", [1, 2], { 1: 5, 2: 50 }, 10, [1]],
    ["the budget binds on entries", [1, 2, 3], { 1: half, 2: half, 3: 1 }, Infinity, [3, 1]],
    ["a repeated hash counts each time", [1, 1, 2], { 1: half + 1, 2: half + 2 }, Infinity, []],
    ["one occurrence fits where two do not", [1, 2], { 1: half, 2: half }, Infinity, [1, 2]],
    ["the step stops at the first bucket over", [1, 2, 2, 3], { 1: 1, 2: half, 3: half }, Infinity, [1]],
    [
      "those read first, rarest first, then the others",
      [5, 3, 4],
      { 3: 10, 4: 2, 5: 2 },
      Infinity,
      [3, 4, 5],
      [3],
    ],
    [
      "a rarer other waits for those read first",
      [1, 2, 3],
      { 1: 1, 2: half, 3: half },
      Infinity,
      [2, 3],
      [2, 3],
    ],
  ];
  test.each(choices)("%s", (_, hashes, sizes, largest, read, first) => {
    expect(rarestWithin(hashes, (hash) => sizes[hash] ?? 0, largest, new Set(first))).toEqual(read);
  });

  test("read whole, the index in memory and the steps give the same match", async () => {
    const signature = computeSignature(excerpt(3, 5, 6, 16000), 16000);
    expect(await matchSignatureIn(trackIndexStore(index), signature)).toEqual(
      matchSignature(index, signature),
    );
  });
});

describe("judge", () => {
  const cell = (track: number, votes: number, speed = 1, offset = 100): Candidate => ({
    track,
    votes,
    speed,
    offset,
  });
  // [case, cells of the first scan (speed 1), cells of the other speeds, matched track or null, its
  // speed]. Real scans always hold chance cells of many tracks; a few stand for them.
  const cases: [string, Candidate[], Candidate[], number | null, number][] = [
    ["a clear lead over the whole scan", [cell(0, 40), cell(1, 10)], [cell(2, 12, 1.01)], 0, 1],
    ["too few aligned hashes, whatever the lead", [cell(0, 7)], [], null, 1],
    // 20 ≥ 9 + 3√10 at speed 1 alone, but not 20 ≥ 12 + 3.5√13 over the whole scan.
    [
      "singled out at the catalogue's speed only",
      [cell(0, 20), cell(1, 9), cell(3, 8)],
      [cell(2, 12, 0.99)],
      0,
      1,
    ],
    ["no lead at either", [cell(0, 15), cell(1, 9), cell(3, 8)], [cell(2, 12, 0.99)], null, 1],
    // The track heard at speed 1 is answered with its best cell over every speed: the skew.
    [
      "singled out at speed 1, best cell elsewhere",
      [cell(0, 20), cell(1, 9), cell(3, 8)],
      [cell(0, 22, 1.005), cell(2, 13, 0.98)],
      0,
      1.005,
    ],
    [
      "a lead at another speed only",
      [cell(0, 9), cell(1, 8)],
      [cell(2, 45, 1.02), cell(1, 10, 1.02)],
      2,
      1.02,
    ],
    // Two tracks far above the third share the recording (a remaster): the better one.
    ["two tracks sharing the recording", [cell(0, 30), cell(1, 28), cell(2, 3)], [], 0, 1],
  ];
  test.each(cases)("%s", (_, atCatalogueSpeed, otherSpeeds, track, speed) => {
    const ranking = judge(atCatalogueSpeed, [...atCatalogueSpeed, ...otherSpeeds]);
    expect(ranking.isMatch ? ranking.best?.track : null).toBe(track);
    if (track !== null) expect(ranking.best?.speed).toBe(speed);
  });
});

describe("verification", () => {
  const cell = (track: number, votes: number, speed = 1, offset = 100): Candidate => ({
    track,
    votes,
    speed,
    offset,
  });

  // [case, peak frequency in eighths of a bin, its hash unit (two bins), the unit next to it].
  const units: [string, number, number, number][] = [
    ["low in its unit: the unit below", 33, 2, 1],
    ["just under the middle: below", 39, 2, 1],
    ["at the middle: above", 40, 2, 3],
    ["high in its unit: the unit above", 47, 2, 3],
  ];
  test.each(units)("%s", (_, bin, unit, neighbour) => {
    const peaks = landmarkPeaks(new Uint32Array([0]), new Uint16Array([bin]));
    expect([peaks.frequencies[0], peaks.neighbours[0]]).toEqual([unit, neighbour]);
  });

  const hash = (f1: number, f2: number, dt: number) => (f1 << 13) | ((f2 - f1 + 63) << 6) | (dt - 1);
  // [case, frequency tolerance, dt tolerance, the hashes of one pair: peaks at frame 0, unit 2
  // (neighbour 1), and frame 5, unit 4 (neighbour 5)].
  const pairs: [string, boolean, number, number[]][] = [
    ["the index's hash", false, 0, [hash(2, 4, 5)]],
    ["dt a frame either side", false, 1, [hash(2, 4, 4), hash(2, 4, 5), hash(2, 4, 6)]],
    [
      "each peak in its unit and the one next to it",
      true,
      0,
      [hash(2, 4, 5), hash(1, 4, 5), hash(2, 5, 5), hash(1, 5, 5)],
    ],
  ];
  test.each(pairs)("a pair hashed: %s", (_, frequencyTolerance, dtTolerance, expected) => {
    const peaks = landmarkPeaks(new Uint32Array([0, 5]), new Uint16Array([33, 76]));
    const visited: [number, number, number][] = [];
    forEachLandmark(
      peaks,
      10,
      (h, anchor, pair) => visited.push([h, anchor, pair]),
      dtTolerance,
      frequencyTolerance,
    );
    expect(visited).toEqual(expected.map((h) => [h, 0, 0]));
  });

  test("only the pair's own dt is visited as exact, whatever the tolerances", () => {
    const peaks = landmarkPeaks(new Uint32Array([0, 5]), new Uint16Array([33, 76]));
    const exact: number[] = [];
    forEachLandmark(peaks, 10, (h, _anchor, _pair, exactDt) => exactDt && exact.push(h), 1, true);
    expect(exact).toEqual([hash(2, 4, 5), hash(1, 4, 5), hash(2, 5, 5), hash(1, 5, 5)]);
  });

  // [case, scanned cells, how many, the leaders' tracks and votes].
  const leading: [string, Candidate[], number, [number, number][]][] = [
    [
      "each track once, at its best cell",
      [cell(0, 5), cell(0, 9, 1.01), cell(1, 7)],
      4,
      [
        [0, 9],
        [1, 7],
      ],
    ],
    [
      "no more than asked",
      [cell(0, 5), cell(1, 9), cell(2, 7)],
      2,
      [
        [1, 9],
        [2, 7],
      ],
    ],
    [
      "ties to the lower track",
      [cell(3, 5), cell(1, 5)],
      2,
      [
        [1, 5],
        [3, 5],
      ],
    ],
    ["nothing scanned", [], 4, []],
  ];
  test.each(leading)("leaders: %s", (_, cells, count, expected) => {
    expect(leaders(cells, count).map((c) => [c.track, c.votes])).toEqual(expected);
  });

  // [case, verified candidates, matched track or null]. 30 ≥ 10 + 3.5√11 = 21.6; 20 < 21.6.
  const verdicts: [string, Candidate[], number | null][] = [
    ["a verified lead", [cell(0, 30), cell(1, 10), cell(2, 4)], 0],
    ["a lead too small", [cell(0, 20), cell(1, 10)], null],
    ["the verification reorders", [cell(0, 10), cell(1, 30)], 1],
    ["alone, but too few pairs", [cell(0, 7)], null],
    ["alone, with enough", [cell(0, 8)], 0],
    // Two close tracks are never answered: the shared-recording rule needs the whole catalogue.
    ["two tracks far above the rest", [cell(0, 40), cell(1, 38), cell(2, 2)], null],
    ["no candidate", [], null],
  ];
  test.each(verdicts)("judgeVerified: %s", (_, verified, track) => {
    const ranking = judgeVerified(verified);
    expect(ranking.isMatch ? ranking.best?.track : null).toBe(track);
  });

  type Best = [track: number, votes: number] | null;
  const ranked = (best: Best, isMatch: boolean): Ranking => ({
    best: best === null ? null : cell(best[0], best[1]),
    second: null,
    third: null,
    isMatch,
  });
  // [case, the scan's best (track, votes), the verified best, whether the verification matched, the answer].
  const confirmations: [string, Best, Best, boolean, number | null][] = [
    ["the scan's best, verified with more votes", [0, 23], [0, 37], true, 0],
    ["the scan's best, verified with as many", [0, 30], [0, 30], true, 0],
    // A chance line the scan put first falls back when counted again (decision 043; its notes' "Session 10").
    ["the scan's best, verified with fewer", [0, 23], [0, 22], true, null],
    ["another track, verified: no answer", [0, 30], [1, 40], true, null],
    ["the scan's best, not verified", [0, 30], [0, 40], false, null],
    ["nothing scanned", null, null, false, null],
  ];
  test.each(confirmations)("confirmed: %s", (_, scanned, verifiedBest, verifiedMatch, track) => {
    const ranking = confirmed(ranked(scanned, false), ranked(verifiedBest, verifiedMatch));
    expect(ranking.isMatch ? ranking.best?.track : null).toBe(track);
  });
});
