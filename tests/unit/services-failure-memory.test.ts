import { expect, test } from "vitest";
import { createFailureMemory, type FailureMemoryOptions } from "#edge/services/failure-memory.ts";

function memoryWith(overrides: Partial<FailureMemoryOptions> = {}) {
  let now = 0;
  const memory = createFailureMemory({
    rememberedAfterTries: 2,
    maxTries: 100,
    cooldownMs: 30_000,
    maxEntries: 10,
    now: () => now,
    ...overrides,
  });
  return { memory, advance: (ms: number) => (now += ms) };
}

const failure = { type: "serviceerror" as const, message: "500 from upstream", status: 500 };

test("try by try: 1-2 ask, 3-100 remembered, 101 and on limitexceeded", () => {
  const { memory } = memoryWith();
  const verdicts: string[] = [];
  for (let attempt = 1; attempt <= 102; attempt++) {
    const verdict = memory.check("u");
    verdicts.push(verdict.verdict);
    if (verdict.verdict === "ask") memory.record("u", failure);
  }
  expect(verdicts.slice(0, 2)).toEqual(["ask", "ask"]);
  expect(new Set(verdicts.slice(2, 100))).toEqual(new Set(["remembered"]));
  expect(verdicts.slice(100)).toEqual(["limitexceeded", "limitexceeded"]);
});

const cooldowns: { afterMs: number; verdict: string }[] = [
  { afterMs: 29_999, verdict: "remembered" },
  { afterMs: 30_000, verdict: "ask" },
];

for (const rule of cooldowns) {
  test(`${rule.afterMs} ms after the latest failure: ${rule.verdict}`, () => {
    const { memory, advance } = memoryWith();
    memory.record("u", failure);
    advance(10_000);
    memory.check("u");
    memory.record("u", failure);
    advance(rule.afterMs);
    expect(memory.check("u").verdict).toBe(rule.verdict);
  });
}

test("limitexceeded says how long until the cool-down ends", () => {
  const { memory, advance } = memoryWith({ maxTries: 1 });
  memory.record("u", failure);
  advance(12_000);
  expect(memory.check("u")).toEqual({ verdict: "limitexceeded", failure, tries: 2, retryAfterMs: 18_000 });
});

test("forget ends the memory of a URL; other URLs are apart", () => {
  const { memory } = memoryWith({ rememberedAfterTries: 0 });
  memory.record("a", failure);
  memory.record("b", failure);
  memory.forget("a");
  expect(memory.check("a").verdict).toBe("ask");
  expect(memory.check("b")).toMatchObject({ verdict: "remembered", failure });
});

test("at most maxEntries URLs are remembered; the oldest failure goes first", () => {
  const { memory } = memoryWith({ maxEntries: 3, rememberedAfterTries: 0 });
  for (const key of ["a", "b", "c", "d"]) memory.record(key, failure);
  memory.record("b", failure);
  memory.record("e", failure);
  expect(memory.size()).toBe(3);
  expect(["a", "b", "c", "d", "e"].map((key) => memory.check(key).verdict)).toEqual([
    "ask",
    "remembered",
    "ask",
    "remembered",
    "remembered",
  ]);
});
