import { describe, expect, test } from "vitest";
import { rankEntries } from "#origin/catalog-rules.ts";
import {
  type Baseline,
  cityIsLive,
  cityLiveThreshold,
  dayAge,
  dayWeight,
  decayedVisitors,
  type LiveDay,
  trackScores,
  visitorWeight,
  windowStart,
} from "#origin/chart-scores.ts";
import { chartFreshSeconds, lateRecomputeRecheckSeconds } from "#rules/chart-schedule.ts";

// A country of 69 tracks shaped like the seeded ones (a leader in the thousands, a long tail):
// track k has total 5500 / (1 + k / 4), recent a tenth of it.
const tracks = Array.from({ length: 69 }, (_, k) => k + 1);
const baselines = new Map<number, Baseline>(
  tracks.map((k) => {
    const total = Math.round(5500 / (1 + (k - 1) / 4));
    return [k, { total, recent: Math.round(total / 10) }];
  }),
);
const leader = Math.max(...[...baselines.values()].map((b) => b.total));

/** The chart's order (best first) with `live` days per track. */
function ranked(live: Map<number, LiveDay[]>, by: "score" | "momentum" = "score"): number[] {
  const weight = visitorWeight(leader);
  return rankEntries(
    tracks.map((k) => ({
      trackKey: k,
      score: trackScores(baselines.get(k) ?? { total: 0, recent: 0 }, live.get(k) ?? [], weight)[by],
    })),
  ).map((e) => e.trackKey);
}

const seededOrder = rankEntries(
  tracks.map((k) => ({ trackKey: k, score: baselines.get(k)?.total ?? 0 })),
).map((e) => e.trackKey);
const lowerHalf = [40, 55, 69];

describe("chart scores", () => {
  test.each([
    {
      name: "no live counts: the seeded order",
      live: new Map<number, LiveDay[]>(),
      check: (o: number[]) => expect(o).toEqual(seededOrder),
    },
    ...lowerHalf.map((k) => ({
      name: `50 visitors today lift track ${k} (lower half) into the top 10`,
      live: new Map([[k, [{ age: 0, identifications: 50, visitors: 50 }]]]),
      check: (o: number[]) => expect(o.indexOf(k)).toBeLessThan(10),
    })),
    ...lowerHalf.map((k) => ({
      name: `one visitor identifying track ${k} 50 times does not`,
      live: new Map([[k, [{ age: 0, identifications: 50, visitors: 1 }]]]),
      check: (o: number[]) => expect(o.indexOf(k)).toBeGreaterThanOrEqual(10),
    })),
    {
      name: "50 visitors a week ago count less than 50 today",
      live: new Map([
        [60, [{ age: 0, identifications: 50, visitors: 50 }]],
        [61, [{ age: 6, identifications: 50, visitors: 50 }]],
      ]),
      check: (o: number[]) => expect(o.indexOf(60)).toBeLessThan(o.indexOf(61)),
    },
  ])("$name", ({ live, check }) => check(ranked(live)));

  test("momentum ranks a rising song over a bigger steady one", () => {
    const steady = Array.from({ length: 7 }, (_, age) => ({ age, identifications: 40, visitors: 40 }));
    const rising = [0, 1].map((age) => ({ age, identifications: 40, visitors: 40 }));
    // The same seeded numbers for both, so only the live shape differs.
    const order = ranked(
      new Map([
        [30, steady],
        [31, rising],
      ]),
      "momentum",
    );
    expect(order.indexOf(31)).toBeLessThan(order.indexOf(30));
    expect(decayedVisitors(steady)).toBeGreaterThan(decayedVisitors(rising));
  });

  test.each([
    { age: 0, weight: 1 },
    { age: 2, weight: 0.5 },
    { age: 4, weight: 0.25 },
    { age: 7, weight: 0 },
    { age: -1, weight: 0 },
  ])("a visitor-day $age days old weighs $weight", ({ age, weight }) => {
    expect(dayWeight(age)).toBeCloseTo(weight);
  });

  test.each([
    { identifications: cityLiveThreshold - 1, live: false },
    { identifications: cityLiveThreshold, live: true },
  ])("a city with $identifications identifications has a live chart: $live", ({ identifications, live }) => {
    expect(cityIsLive(identifications)).toBe(live);
  });

  test.each([
    { day: "2026-11-28", now: "2026-11-28T23:59:00Z", age: 0 },
    { day: "2026-11-27", now: "2026-11-28T00:01:00Z", age: 1 },
    { day: "2026-11-22", now: "2026-11-28T12:00:00Z", age: 6 },
  ])("$day is $age days before $now", ({ day, now, age }) => {
    expect(dayAge(day, new Date(now))).toBe(age);
  });

  test("the window starts six days before today", () => {
    expect(windowStart(new Date("2026-11-28T12:00:00Z"))).toBe("2026-11-22");
  });

  test.each([
    { computedAt: "2026-11-28T03:00:00.000Z", now: "2026-11-28T03:00:00.000Z", seconds: 600 },
    { computedAt: "2026-11-28T03:00:00.000Z", now: "2026-11-28T03:07:30.000Z", seconds: 150 },
    { computedAt: "2026-11-28T03:00:00.000Z", now: "2026-11-28T03:09:59.500Z", seconds: 1 },
    // A run computed off the mark (a manual one) is replaced at the next mark all the same.
    { computedAt: "2026-11-28T03:04:00.000Z", now: "2026-11-28T03:05:00.000Z", seconds: 300 },
    // The 03:10 run is due and has not stored yet: look again soon, not at 03:20.
    {
      computedAt: "2026-11-28T03:00:00.000Z",
      now: "2026-11-28T03:10:01.000Z",
      seconds: lateRecomputeRecheckSeconds,
    },
    {
      computedAt: "2026-11-28T02:00:00.000Z",
      now: "2026-11-28T03:07:30.000Z",
      seconds: lateRecomputeRecheckSeconds,
    },
    // A time ahead of the clock keeps an answer one period at most.
    { computedAt: "2026-11-28T03:20:00.000Z", now: "2026-11-28T03:00:00.000Z", seconds: 600 },
  ])("computed at $computedAt, at $now an answer stays fresh $seconds s", ({ computedAt, now, seconds }) => {
    expect(chartFreshSeconds(Date.parse(computedAt), Date.parse(now))).toBe(seconds);
  });
});
