import { describe, expect, test } from "vitest";
import {
  addRecentIdentification,
  moveRecentIdentificationsToLibrary,
  type RecentIdentification,
  recentIdentifications,
  recentIdentificationsKey,
  recentIdentificationsMax,
  removeRecentIdentification,
} from "#app/recognition/browser/recent-identifications.ts";
import { createSiteStorage, storageDefaultExpiryMs } from "#app/shell/browser/storage.ts";
import { memoryStorage } from "./memory-storage";

// The songs identified on this device, their expiry, removal and the move into the
// library on sign-in.

const now = 1_800_000_000_000;

function entry(n: number, matchedAt = now - n * 1000): RecentIdentification {
  return { sessionId: `s-${n}`, trackId: String(100 + n), weburl: `/track/${100 + n}/song`, matchedAt };
}

function store() {
  const backing = memoryStorage();
  return createSiteStorage({ storage: () => backing, now: () => now });
}

describe("the list", () => {
  test("newest first, one entry a recognition, at most the maximum", () => {
    const storage = store();
    for (let n = recentIdentificationsMax + 5; n >= 1; n--) addRecentIdentification(storage, entry(n));
    addRecentIdentification(storage, entry(1));
    const list = recentIdentifications(storage, now);
    expect(list).toHaveLength(recentIdentificationsMax);
    expect(list[0]).toEqual(entry(1));
    expect(new Set(list.map((kept) => kept.sessionId)).size).toBe(recentIdentificationsMax);
  });

  test.each([
    ["an expired entry", [entry(1, now - storageDefaultExpiryMs - 1), entry(2)], ["s-2"]],
    ["an entry another script wrote", [{ sessionId: "a b", trackId: "x" }, entry(2)], ["s-2"]],
    ["a list that is not a list", "nonsense", []],
  ])("drops %s", (_name, stored, kept) => {
    const storage = store();
    storage.set(recentIdentificationsKey, stored);
    expect(recentIdentifications(storage, now).map((item) => item.sessionId)).toEqual(kept);
  });

  test("one is removed, the others stay", () => {
    const storage = store();
    for (const n of [3, 2, 1]) addRecentIdentification(storage, entry(n));
    removeRecentIdentification(storage, "s-2", now);
    expect(recentIdentifications(storage, now).map((item) => item.sessionId)).toEqual(["s-1", "s-3"]);
  });
});

describe("the move into the library", () => {
  test.each([
    [
      "201 and 200 move, a 404 is dropped, a 503 stays",
      [201, 200, 404, 503],
      { moved: 2, signedOut: false },
      ["s-1"],
    ],
    [
      "an ended session stops the move",
      [201, 456, 201, 201],
      { moved: 1, signedOut: true },
      ["s-1", "s-2", "s-3"],
    ],
  ])("%s", async (_name, statuses, outcome, left) => {
    const storage = store();
    for (const n of [4, 3, 2, 1]) addRecentIdentification(storage, entry(n));
    const bodies: unknown[] = [];
    const answers = [...statuses];
    const result = await moveRecentIdentificationsToLibrary(
      storage,
      async (_input, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return new Response("{}", { status: answers.shift() ?? 500 });
      },
      now,
    );
    expect(result).toEqual(outcome);
    expect(recentIdentifications(storage, now).map((item) => item.sessionId)).toEqual(left);
    // Oldest first, as the recognitions made signed in would have been tagged.
    expect(bodies[0]).toEqual({ source: "web", trackKey: "104", recognitionId: "s-4", tagTime: now - 4000 });
  });
});
