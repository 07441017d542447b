import { afterEach, expect, test, vi } from "vitest";
import {
  createFirstShowWatcher,
  type ScrollViewport,
  scrollVisibilityObserver,
  type VisibilityEntry,
  type VisibilityObserverFactory,
  visibilityCheckDelayMs,
} from "#app/shell/browser/visibility.ts";

afterEach(() => {
  vi.useRealTimers();
});

type Section = { name: string };

/** A hand-driven IntersectionObserver: the test says when a target enters or leaves the view. */
function fakeObserver() {
  let report: ((entries: ReadonlyArray<VisibilityEntry<Section>>) => void) | undefined;
  const observed = new Set<Section>();
  const factory: VisibilityObserverFactory<Section> = (callback) => {
    report = callback;
    return {
      observe: (target) => observed.add(target),
      unobserve: (target) => observed.delete(target),
      disconnect: () => observed.clear(),
    };
  };
  return {
    factory,
    observed,
    enter: (target: Section) => report?.([{ target, isIntersecting: true }]),
    leave: (target: Section) => report?.([{ target, isIntersecting: false }]),
  };
}

test("a section in view for 50 ms is reported once, then no longer observed", async () => {
  vi.useFakeTimers();
  const observer = fakeObserver();
  const shown: string[] = [];
  const watcher = createFirstShowWatcher((section) => shown.push(section), observer.factory);
  const lyrics = { name: "lyrics" };
  watcher.watch(lyrics, "track.lyrics");
  observer.enter(lyrics);
  await vi.advanceTimersByTimeAsync(visibilityCheckDelayMs - 1);
  expect(shown).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(shown).toEqual(["track.lyrics"]);
  expect(observer.observed.has(lyrics)).toBe(false);
  observer.leave(lyrics);
  observer.enter(lyrics);
  await vi.advanceTimersByTimeAsync(1000);
  expect(shown).toEqual(["track.lyrics"]);
});

test("a section scrolled past within 50 ms is not reported", async () => {
  vi.useFakeTimers();
  const observer = fakeObserver();
  const shown: string[] = [];
  const watcher = createFirstShowWatcher((section) => shown.push(section), observer.factory);
  const video = { name: "video" };
  watcher.watch(video, "track.video");
  observer.enter(video);
  await vi.advanceTimersByTimeAsync(20);
  observer.leave(video);
  await vi.advanceTimersByTimeAsync(1000);
  expect(shown).toEqual([]);
  expect(observer.observed.has(video)).toBe(true);
});

test("a section already shown is not watched again on the same page (a re-rendered element)", async () => {
  vi.useFakeTimers();
  const observer = fakeObserver();
  const shown: string[] = [];
  const watcher = createFirstShowWatcher((section) => shown.push(section), observer.factory);
  const first = { name: "first" };
  watcher.watch(first, "charts.top");
  observer.enter(first);
  await vi.advanceTimersByTimeAsync(visibilityCheckDelayMs);
  const again = { name: "again" };
  watcher.watch(again, "charts.top");
  expect(observer.observed.has(again)).toBe(false);
  expect(shown).toEqual(["charts.top"]);
});

test("unwatching before the delay cancels the report; disconnect stops everything", async () => {
  vi.useFakeTimers();
  const observer = fakeObserver();
  const shown: string[] = [];
  const watcher = createFirstShowWatcher((section) => shown.push(section), observer.factory);
  const a = { name: "a" };
  const b = { name: "b" };
  const stopA = watcher.watch(a, "a");
  watcher.watch(b, "b");
  observer.enter(a);
  observer.enter(b);
  stopA();
  watcher.disconnect();
  await vi.advanceTimersByTimeAsync(1000);
  expect(shown).toEqual([]);
  expect(observer.observed.size).toBe(0);
});

type Box = { top: number; bottom: number; left: number; right: number };

function scrollWorld() {
  const listeners = new Map<string, () => void>();
  const viewport: ScrollViewport = {
    innerWidth: 400,
    innerHeight: 800,
    addEventListener: (type, listener) => listeners.set(type, listener),
    removeEventListener: (type) => listeners.delete(type),
  };
  let offset = 0;
  const element = (top: number, height: number) => ({
    getBoundingClientRect: (): Box => ({
      top: top - offset,
      bottom: top + height - offset,
      left: 0,
      right: 400,
    }),
  });
  return {
    viewport,
    listeners,
    element,
    scrollTo(y: number) {
      offset = y;
      listeners.get("scroll")?.();
    },
  };
}

test("the scroll fallback reports sections as they scroll into view", async () => {
  vi.useFakeTimers();
  const world = scrollWorld();
  const shown: string[] = [];
  const watcher = createFirstShowWatcher(
    (section) => shown.push(section),
    scrollVisibilityObserver(world.viewport),
  );
  watcher.watch(world.element(100, 200), "top");
  watcher.watch(world.element(2000, 300), "bottom");
  await vi.advanceTimersByTimeAsync(visibilityCheckDelayMs);
  expect(shown).toEqual(["top"]);
  world.scrollTo(1500);
  await vi.advanceTimersByTimeAsync(49);
  expect(shown).toEqual(["top"]);
  await vi.advanceTimersByTimeAsync(1 + visibilityCheckDelayMs);
  expect(shown).toEqual(["top", "bottom"]);
  expect(world.listeners.size).toBe(0);
});
