import { expect, test } from "vitest";
import { storeRows } from "#recognizer/store.ts";
import type { TrackIndex } from "#signature/index.ts";

/** An index of 10 hashes over two tracks; hashes 2 and 7 have no entries. */
function smallIndex(): TrackIndex {
  const sizes = [1, 2, 0, 3, 1, 1, 2, 0, 1, 4];
  const offsets = new Uint32Array(sizes.length + 1);
  sizes.forEach((size, hash) => {
    offsets[hash + 1] = (offsets[hash] as number) + size;
  });
  const entries = Uint32Array.from({ length: offsets[sizes.length] as number }, (_, i) => i * 7);
  return {
    trackKeys: ["101", "202"],
    trackFrames: Uint32Array.of(100, 200),
    offsets,
    entries,
    timeBits: 12,
    commonBucketSize: 3,
  };
}

const postingsOf = (rows: ReturnType<typeof storeRows>[number]) =>
  [...rows.postings()].map(([hash, bytes]) => [hash, [...new Uint32Array(bytes.slice().buffer)]] as const);

test.each([2, 3, 4])("in %d shards each hash's row is in shard hash % N, and every row in one shard", (n) => {
  const index = smallIndex();
  const [whole] = storeRows(index, "ab".repeat(32), "v1");
  const shards = storeRows(index, "ab".repeat(32), "v1", n);
  expect(shards).toHaveLength(n);
  for (const [shard, rows] of shards.entries()) {
    for (const [hash] of rows.postings()) expect(hash % n).toBe(shard);
    expect(new Map(rows.meta).get("shard")).toBe(String(shard));
    expect(new Map(rows.meta).get("shards")).toBe(String(n));
    // The track keys stay in shard 0.
    expect(rows.tracks).toEqual(
      shard === 0
        ? [
            [0, "101"],
            [1, "202"],
          ]
        : [],
    );
  }
  const merged = shards.flatMap(postingsOf).sort(([a], [b]) => a - b);
  expect(merged).toEqual(postingsOf(whole as ReturnType<typeof storeRows>[number]));
});

test("one database holds every row, as shard 0 of 1", () => {
  const rows = storeRows(smallIndex(), "ab".repeat(32), "v1");
  expect(rows).toHaveLength(1);
  expect([...(rows[0]?.postings() ?? [])].map(([hash]) => hash)).toEqual([0, 1, 3, 4, 5, 6, 8, 9]);
  expect(rows[0]?.meta).toEqual([
    ["sha256", "ab".repeat(32)],
    ["catalog_version", "v1"],
    ["time_bits", "12"],
    ["common_bucket_size", "3"],
    ["shard", "0"],
    ["shards", "1"],
  ]);
});
