import { describe, expect, test } from "vitest";
import { createFailureMemory, type FailureVerdict, type RememberedFailure } from "./failure-memory";
import * as limits from "./limits";

// The counting rule of spec 001 §4 and §9 (decision 059) on a fake clock: tries 1–2 ask the
// upstream, 3–100 get the remembered failure, from 101 `limitexceeded`; the memory lasts 30 s from
// the latest upstream failure; a success forgets.

const notFound: RememberedFailure = { type: "serviceerror", message: "404 from upstream", status: 404 };
const down: RememberedFailure = { type: "serviceerror", message: "503 from upstream", status: 503 };

function memoryOnClock(maxEntries = 1000) {
  let now = 1_800_000_000_000;
  const memory = createFailureMemory({
    rememberedAfterTries: limits.rememberedFailureAfterTries,
    maxTries: limits.maxTries,
    cooldownMs: limits.failureCooldownMs,
    maxEntries,
    now: () => now,
  });
  return {
    memory,
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * Plays `tries` requests for one URL as the proxy does: a verdict `ask` goes to the upstream,
 * which fails (and the failure is recorded); returns the verdicts in order.
 */
function play(memory: ReturnType<typeof memoryOnClock>["memory"], key: string, tries: number) {
  const verdicts: FailureVerdict["verdict"][] = [];
  for (let attempt = 1; attempt <= tries; attempt++) {
    const verdict = memory.check(key);
    verdicts.push(verdict.verdict);
    if (verdict.verdict === "ask") memory.record(key, notFound);
  }
  return verdicts;
}

describe("tries of a failing URL", () => {
  const rows: { attempt: number; verdict: FailureVerdict["verdict"] }[] = [
    { attempt: 1, verdict: "ask" },
    { attempt: 2, verdict: "ask" },
    { attempt: 3, verdict: "remembered" },
    { attempt: 50, verdict: "remembered" },
    { attempt: 100, verdict: "remembered" },
    { attempt: 101, verdict: "limitexceeded" },
    { attempt: 150, verdict: "limitexceeded" },
  ];
  for (const row of rows) {
    test(`try ${row.attempt}: ${row.verdict}`, () => {
      const { memory } = memoryOnClock();
      expect(play(memory, "/u", row.attempt).at(-1)).toBe(row.verdict);
    });
  }

  test("exactly 2 tries of 150 ask the upstream", () => {
    const { memory } = memoryOnClock();
    expect(play(memory, "/u", 150).filter((verdict) => verdict === "ask")).toHaveLength(2);
  });

  test("the remembered failure is the latest one recorded, with its try count", () => {
    const { memory } = memoryOnClock();
    memory.check("/u");
    memory.record("/u", down);
    memory.check("/u");
    memory.record("/u", notFound);
    expect(memory.check("/u")).toEqual({ verdict: "remembered", failure: notFound, tries: 3 });
  });
});

describe("lifetime: 30 s from the latest upstream failure", () => {
  const rows: {
    name: string;
    failuresAtMs: number[];
    checkAtMs: number;
    verdict: FailureVerdict["verdict"];
  }[] = [
    { name: "just before the lifetime", failuresAtMs: [0, 0], checkAtMs: 29_999, verdict: "remembered" },
    { name: "at the lifetime", failuresAtMs: [0, 0], checkAtMs: 30_000, verdict: "ask" },
    // 40 s after the first failure, 20 s after the latest one: still remembered.
    {
      name: "counted from the latest failure",
      failuresAtMs: [0, 20_000],
      checkAtMs: 40_000,
      verdict: "remembered",
    },
    {
      name: "the latest failure's lifetime over",
      failuresAtMs: [0, 20_000],
      checkAtMs: 50_000,
      verdict: "ask",
    },
  ];
  for (const row of rows) {
    test(`${row.name}: ${row.verdict} at ${row.checkAtMs} ms`, () => {
      const clock = memoryOnClock();
      let at = 0;
      for (const failedAt of row.failuresAtMs) {
        clock.advance(failedAt - at);
        at = failedAt;
        expect(clock.memory.check("/u").verdict).toBe("ask");
        clock.memory.record("/u", notFound);
      }
      clock.advance(row.checkAtMs - at);
      expect(clock.memory.check("/u").verdict).toBe(row.verdict);
    });
  }

  test("answering from memory does not lengthen the lifetime; limitexceeded ends with it too", () => {
    const clock = memoryOnClock();
    play(clock.memory, "/u", 2);
    for (let attempt = 3; attempt <= 100; attempt++) {
      clock.advance(100);
      expect(clock.memory.check("/u").verdict).toBe("remembered");
    }
    // 98 answers 100 ms apart, then 10 s: 19.8 s after the latest failure.
    clock.advance(10_000);
    const limited = clock.memory.check("/u");
    expect(limited).toMatchObject({ verdict: "limitexceeded", retryAfterMs: 10_200 });
    clock.advance(10_200);
    expect(clock.memory.check("/u").verdict).toBe("ask");
  });
});

describe("forgetting", () => {
  test("a success forgets: the count starts again", () => {
    const { memory } = memoryOnClock();
    play(memory, "/u", 5);
    memory.forget("/u");
    expect(play(memory, "/u", 3)).toEqual(["ask", "ask", "remembered"]);
  });

  test("URLs are counted apart", () => {
    const { memory } = memoryOnClock();
    play(memory, "/a", 120);
    expect(play(memory, "/b", 3)).toEqual(["ask", "ask", "remembered"]);
  });

  test("at most maxEntries URLs: the oldest failure goes first", () => {
    const { memory } = memoryOnClock(2);
    for (const key of ["/a", "/b", "/c"]) play(memory, key, 2);
    expect(memory.size()).toBe(2);
    expect(memory.check("/a").verdict).toBe("ask");
    expect(memory.check("/c").verdict).toBe("remembered");
  });
});
