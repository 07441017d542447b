import { expect, test } from "vitest";
import { type CachedAnswer, createMemoryTier, sizeOf } from "#edge/services/cache.ts";

function copy(bodyBytes: number, times: Partial<CachedAnswer> = {}): CachedAnswer {
  return {
    answer: { status: 200, headers: [["content-type", "application/json"]], body: new Uint8Array(bodyBytes) },
    storedAt: 0,
    freshUntil: 1_000,
    staleUntil: 2_000,
    ...times,
  };
}

const roomy = { maxEntries: 100, maxBytes: 1_000_000, maxEntryBytes: 1_000_000 };

test("least recently used is evicted first when entries are full", () => {
  const tier = createMemoryTier({ ...roomy, maxEntries: 2 });
  tier.set("a", copy(1));
  tier.set("b", copy(1));
  expect(tier.get("a", 0)).toBeDefined();
  tier.set("c", copy(1));
  expect(tier.get("b", 0)).toBeUndefined();
  expect(tier.get("a", 0)).toBeDefined();
  expect(tier.get("c", 0)).toBeDefined();
  expect(tier.size().entries).toBe(2);
});

test("bytes stay within maxBytes, and are given back on delete and replace", () => {
  const entryBytes = sizeOf("a", copy(100).answer);
  const tier = createMemoryTier({ ...roomy, maxBytes: entryBytes * 2 });
  tier.set("a", copy(100));
  tier.set("b", copy(100));
  tier.set("c", copy(100));
  expect(tier.size()).toEqual({ entries: 2, bytes: entryBytes * 2 });
  expect(tier.get("a", 0)).toBeUndefined();
  tier.set("b", copy(100));
  expect(tier.size()).toEqual({ entries: 2, bytes: entryBytes * 2 });
  tier.delete("b");
  tier.delete("c");
  expect(tier.size()).toEqual({ entries: 0, bytes: 0 });
});

const refusals: { name: string; limits: typeof roomy; bodyBytes: number }[] = [
  { name: "over maxEntryBytes", limits: { ...roomy, maxEntryBytes: 500 }, bodyBytes: 600 },
  { name: "over maxBytes", limits: { ...roomy, maxBytes: 500 }, bodyBytes: 600 },
  { name: "tier turned off", limits: { ...roomy, maxEntries: 0 }, bodyBytes: 1 },
];

for (const rule of refusals) {
  test(`an entry ${rule.name} is not kept and evicts nothing`, () => {
    const tier = createMemoryTier(rule.limits);
    if (rule.limits.maxEntries > 0) tier.set("small", copy(1));
    expect(tier.set("big", copy(rule.bodyBytes))).toBe(false);
    expect(tier.get("big", 0)).toBeUndefined();
    expect(tier.size().entries).toBe(rule.limits.maxEntries > 0 ? 1 : 0);
  });
}

test("a copy is returned while fresh or stale, and dropped once past its stale window", () => {
  const tier = createMemoryTier(roomy);
  tier.set("a", copy(10));
  expect(tier.get("a", 999)?.freshUntil).toBe(1_000);
  expect(tier.get("a", 1_999)).toBeDefined();
  expect(tier.get("a", 2_000)).toBeUndefined();
  expect(tier.size()).toEqual({ entries: 0, bytes: 0 });
});
