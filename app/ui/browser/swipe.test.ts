import { describe, expect, test } from "vitest";
import { startSwipe } from "#app/ui/browser/swipe.ts";

// Spec 002 §9 "Swipe lock at 5 px; velocity window 100 ms".

type Move = [x: number, y: number, t: number];

describe("the axis locks once the finger has moved 5 px, to the axis it moved most along", () => {
  const cases: { name: string; moves: Move[]; axis: "x" | "y" | undefined; distance: number }[] = [
    { name: "4 px is not yet a swipe", moves: [[4, 0, 10]], axis: undefined, distance: 0 },
    {
      name: "4 px down and 4 px across is not yet a swipe",
      moves: [[4, 4, 10]],
      axis: undefined,
      distance: 0,
    },
    { name: "5 px down locks vertically", moves: [[0, 5, 10]], axis: "y", distance: 5 },
    { name: "5 px up locks vertically, negative", moves: [[0, -5, 10]], axis: "y", distance: -5 },
    { name: "5 px across locks horizontally", moves: [[5, 2, 10]], axis: "x", distance: 5 },
    {
      name: "a vertical swipe that then goes sideways stays vertical",
      moves: [
        [0, 6, 10],
        [80, 10, 20],
      ],
      axis: "y",
      distance: 10,
    },
    {
      name: "a sideways swipe that then goes down stays sideways",
      moves: [
        [-6, 0, 10],
        [-8, 90, 20],
      ],
      axis: "x",
      distance: -8,
    },
  ];
  test.each(cases)("$name", ({ moves, axis, distance }) => {
    const swipe = startSwipe(0, 0, 0);
    for (const [x, y, t] of moves) swipe.move(x, y, t);
    expect(swipe.axis).toBe(axis);
    expect(swipe.distance).toBe(distance);
  });
});

describe("the speed counts the last 100 ms only", () => {
  const cases: { name: string; moves: Move[]; velocity: number }[] = [
    { name: "no lock, no speed", moves: [[0, 3, 50]], velocity: 0 },
    {
      name: "a steady drag: its speed",
      moves: [
        [0, 10, 20],
        [0, 20, 40],
        [0, 30, 60],
      ],
      velocity: 0.5,
    },
    {
      name: "a slow drag ended by a flick: the flick's speed",
      moves: [
        [0, 10, 200],
        [0, 20, 400],
        [0, 30, 600],
        [0, 130, 650],
        [0, 230, 700],
      ],
      velocity: 2,
    },
    {
      name: "a drag that stopped 100 ms ago: still",
      moves: [
        [0, 50, 50],
        [0, 100, 100],
        [0, 100, 150],
        [0, 100, 201],
      ],
      velocity: 0,
    },
    {
      name: "flicked back up: negative",
      moves: [
        [0, 100, 100],
        [0, 50, 150],
      ],
      velocity: -1,
    },
  ];
  test.each(cases)("$name", ({ moves, velocity }) => {
    const swipe = startSwipe(0, 0, 0);
    for (const [x, y, t] of moves) swipe.move(x, y, t);
    expect(swipe.velocity()).toBeCloseTo(velocity, 6);
  });
});
