/**
 * A swipe (spec 002 §9 "Swipe lock at 5 px; velocity window 100 ms"): a finger's gesture is
 * nothing until it has moved 5 px, then it is locked to the axis it moved most along, for the rest
 * of the gesture (a vertical swipe never turns into a horizontal one half way). Its speed is
 * measured over the last 100 ms only, so a slow drag ended by a flick counts as a flick.
 */

/** Spec 002 §9 "Swipe lock at 5 px". */
export const swipeLockPx = 5;
/** Spec 002 §9 "velocity window 100 ms". */
export const swipeVelocityWindowMs = 100;

export type SwipeAxis = "x" | "y";
type Point = { x: number; y: number; t: number };

export type Swipe = {
  /** The axis, once the finger has moved the lock distance; undefined before. */
  readonly axis: SwipeAxis | undefined;
  /** How far the finger is from where it started along the locked axis (0 before the lock). */
  readonly distance: number;
  move(x: number, y: number, t: number): void;
  /** Pixels per millisecond along the locked axis over the last 100 ms (signed). */
  velocity(): number;
};

export function startSwipe(x: number, y: number, t: number): Swipe {
  const start: Point = { x, y, t };
  /** The points of the last 100 ms. */
  const points: Point[] = [start];
  let axis: SwipeAxis | undefined;
  const along = (point: Point) => (axis === "x" ? point.x - start.x : axis === "y" ? point.y - start.y : 0);
  return {
    get axis() {
      return axis;
    },
    get distance() {
      const last = points[points.length - 1] ?? start;
      return along(last);
    },
    move(x, y, t) {
      points.push({ x, y, t });
      // Only the last 100 ms count for the speed.
      while (points.length > 1 && (points[0]?.t ?? t) < t - swipeVelocityWindowMs) points.shift();
      if (axis) return;
      const dx = Math.abs(x - start.x);
      const dy = Math.abs(y - start.y);
      if (Math.max(dx, dy) >= swipeLockPx) axis = dx > dy ? "x" : "y";
    },
    velocity() {
      const first = points[0];
      const last = points[points.length - 1];
      if (!axis || !first || !last || last.t === first.t) return 0;
      return (along(last) - along(first)) / (last.t - first.t);
    },
  };
}
