import { expect, test } from "vitest";
import { createRecentSearches, recentSearchesKey } from "#app/search/browser/recent-searches.ts";
import { recentSearchesMax } from "#app/search/search-groups.ts";
import { createSiteStorage, storageDefaultExpiryMs, storageVersionKey } from "#app/shell/browser/storage.ts";

function memoryStorage(
  initial: Record<string, string> = {},
  refuse: { reads?: boolean; writes?: boolean } = {},
) {
  const items = new Map(Object.entries({ [storageVersionKey]: "2", ...initial }));
  const storage: Storage = {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem(key) {
      if (refuse.reads) throw new DOMException("denied", "SecurityError");
      return items.get(key) ?? null;
    },
    setItem(key, value) {
      if (refuse.writes) throw new DOMException("quota", "QuotaExceededError");
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
    clear: () => items.clear(),
  };
  return storage;
}

function recentsOn(storage: Storage, now = () => 1_700_000_000_000) {
  return createRecentSearches(createSiteStorage({ storage: () => storage, now }));
}

test("nothing stored reads as an empty list", () => {
  expect(recentsOn(memoryStorage()).read()).toEqual({ ok: true, value: [] });
});

test("a search is kept under search.recents as a record with the default expiry", () => {
  const storage = memoryStorage();
  const recents = recentsOn(storage);
  expect(recents.add("  Adele  ")).toEqual({ ok: true, value: ["Adele"] });
  expect(JSON.parse(storage.getItem(recentSearchesKey) ?? "")).toEqual({
    data: ["Adele"],
    expires: 1_700_000_000_000 + storageDefaultExpiryMs,
  });
  expect(recents.read()).toEqual({ ok: true, value: ["Adele"] });
});

test.each([
  { name: "newest first", before: ["abba"], add: "adele", after: ["adele", "abba"] },
  {
    name: "a repeated term moves to the top",
    before: ["abba", "adele", "queen"],
    add: "adele",
    after: ["adele", "abba", "queen"],
  },
  {
    name: "repeats are found without case",
    before: ["abba", "Adele"],
    add: "ADELE",
    after: ["ADELE", "abba"],
  },
  { name: "whitespace is normalized", before: [], add: " the\t beat ", after: ["the beat"] },
  { name: "an empty term changes nothing", before: ["abba"], add: "   ", after: ["abba"] },
  {
    name: "the oldest falls off past the most kept",
    before: Array.from({ length: recentSearchesMax }, (_, index) => `term ${index}`),
    add: "new",
    after: ["new", ...Array.from({ length: recentSearchesMax - 1 }, (_, index) => `term ${index}`)],
  },
])("$name", ({ before, add, after }) => {
  const storage = memoryStorage({
    [recentSearchesKey]: JSON.stringify({ data: before, expires: 1_800_000_000_000 }),
  });
  const recents = recentsOn(storage);
  expect(recents.add(add)).toEqual({ ok: true, value: after });
  expect(recents.read()).toEqual({ ok: true, value: after });
});

test.each([
  ["an expired record", JSON.stringify({ data: ["abba"], expires: 1_600_000_000_000 })],
  ["a record of the wrong shape", JSON.stringify({ data: [1, 2], expires: 1_800_000_000_000 })],
  ["a bare list without a record", JSON.stringify(["abba"])],
  ["not JSON", "abba,adele"],
])("%s reads as no recent searches", (_name, raw) => {
  expect(recentsOn(memoryStorage({ [recentSearchesKey]: raw })).read()).toEqual({ ok: true, value: [] });
});

test("a storage that refuses to be read fails the read (the Recent group is rejected)", () => {
  const result = recentsOn(memoryStorage({}, { reads: true })).read();
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.type).toBe("unsupported");
});

test("a storage that refuses writes fails the add and keeps what was there", () => {
  const storage = memoryStorage(
    { [recentSearchesKey]: JSON.stringify({ data: ["abba"], expires: 1_800_000_000_000 }) },
    { writes: true },
  );
  const recents = recentsOn(storage);
  expect(recents.add("adele").ok).toBe(false);
  expect(recents.read()).toEqual({ ok: true, value: ["abba"] });
});

test("no storage at all fails every call without throwing", () => {
  const recents = createRecentSearches(
    createSiteStorage({
      storage: () => {
        throw new DOMException("disabled", "SecurityError");
      },
    }),
  );
  expect(recents.read().ok).toBe(false);
  expect(recents.add("adele").ok).toBe(false);
});
