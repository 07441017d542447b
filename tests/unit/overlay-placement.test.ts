import { expect, test } from "vitest";
import { anchoredPosition, placeAroundAnchor } from "#app/ui/overlay.tsx";

// Spec 002 §2 "positioned around an anchor (above, below, below-center, left, right, left-center,
// right-center)": a 40×20 button at (100, 200), a 60×30 box.
const anchor = { top: 200, left: 100, width: 40, height: 20 };
const size = { width: 60, height: 30 };

test.each([
  { placement: "below", top: 220, left: 100 },
  { placement: "below-center", top: 220, left: 90 },
  { placement: "above", top: 170, left: 100 },
  { placement: "right", top: 200, left: 140 },
  { placement: "right-center", top: 195, left: 140 },
  { placement: "left", top: 200, left: 40 },
  { placement: "left-center", top: 195, left: 40 },
] as const)("$placement of the anchor: top $top, left $left", ({ placement, top, left }) => {
  expect(anchoredPosition(placement, anchor, size)).toEqual({ top, left });
});

test.each([
  {
    name: "room below: below",
    viewport: { width: 400, height: 800 },
    placement: "below",
    top: 220,
    left: 100,
  },
  {
    name: "no room below: above",
    viewport: { width: 400, height: 240 },
    placement: "above",
    top: 170,
    left: 100,
  },
  {
    name: "a tall anchor at the left edge, no room below or above: right",
    viewport: { width: 400, height: 240 },
    anchorAt: { top: 0, left: 0, width: 40, height: 220 },
    placement: "right",
    top: 0,
    left: 40,
  },
  {
    name: "nowhere fits: the first, moved inside the viewport",
    viewport: { width: 50, height: 40 },
    placement: "below",
    top: 10,
    left: 0,
  },
] as const)("$name", ({ viewport, placement, top, left, ...rest }) => {
  const at = ("anchorAt" in rest ? rest.anchorAt : undefined) ?? anchor;
  expect(
    placeAroundAnchor(
      ["below", "above", "below-center", "right", "left", "right-center", "left-center"],
      at,
      size,
      viewport,
    ),
  ).toEqual({ placement, top, left });
});
