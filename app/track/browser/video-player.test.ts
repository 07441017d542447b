import { expect, test } from "vitest";
import {
  connectVideoPlayer,
  hostCheckMs,
  type ProgressPoint,
  playDelayMs,
  progressReached,
  type VideoState,
} from "#app/track/browser/video-player.ts";
import { videoMessageSource } from "#rules/video-messages.ts";

test.each([
  ["nothing before a quarter", [], 24.9, 100, false, []],
  ["a quarter", [], 25, 100, false, [25]],
  ["a seek past half reports both points passed", [], 60, 100, false, [25, 50]],
  ["points already reported are not reported again", [25, 50], 80, 100, false, [75]],
  ["the end", [25, 50, 75], 100, 100, false, [100]],
  ["ended counts as 100 % though the last time came early", [25, 50, 75], 29.8, 30, true, [100]],
  ["ended after a seek to the end reports every point", [], 0, 30, true, [25, 50, 75, 100]],
  ["no duration yet: nothing", [], 5, 0, false, []],
  ["an infinite duration: nothing", [], 5, Number.NaN, false, []],
] as const)("progress: %s", (_, reported, time, duration, ended, expected) => {
  expect(progressReached(new Set<ProgressPoint>(reported), time, duration, ended)).toEqual(expected);
});

test.each([
  ["a negative offset delays play by that many ms", -1500, 1500],
  ["no offset: at once", 0, 0],
  ["a positive offset does not delay", 2000, 0],
])("%s", (_, offset, delay) => {
  expect(playDelayMs(offset)).toBe(delay);
});

/** A player over a fake frame and window, with timers run by hand. */
function harness(offsetMs = 0) {
  const sent: unknown[] = [];
  const hostWindow = { postMessage: (message: unknown, origin: string) => sent.push({ message, origin }) };
  const listeners = new Set<(event: MessageEvent) => void>();
  const timers: { run: () => void; at: number; every?: number; id: number }[] = [];
  let now = 0;
  let nextId = 1;
  const states: VideoState[] = [];
  const progress: ProgressPoint[] = [];
  const player = connectVideoPlayer({
    frame: {
      src: "https://site.test/services/video/embed/1",
      contentWindow: hostWindow as unknown as Window,
    },
    window: {
      addEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.delete(listener),
    } as unknown as Window,
    offsetMs,
    timers: {
      setTimeout: (run, ms) => timers.push({ run, at: now + ms, id: nextId }) && nextId++,
      clearTimeout: (id) => timers.splice(0, timers.length, ...timers.filter((t) => t.id !== id)),
      setInterval: (run, ms) => timers.push({ run, at: now + ms, every: ms, id: nextId }) && nextId++,
      clearInterval: (id) => timers.splice(0, timers.length, ...timers.filter((t) => t.id !== id)),
    },
    onState: (state) => states.push(state),
    onProgress: (point) => progress.push(point),
  });
  return {
    player,
    sent,
    states,
    progress,
    listeners,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        if (due.every) due.at += due.every;
        else timers.splice(timers.indexOf(due), 1);
        due.run();
      }
      now = end;
    },
    host(
      state: VideoState,
      currentTime: number,
      duration = 30,
      origin = "https://site.test",
      source: unknown = hostWindow,
    ) {
      const data = { source: videoMessageSource, event: "state", state, currentTime, duration };
      for (const listener of [...listeners]) listener({ origin, source, data } as MessageEvent);
    },
  };
}

test("commands go to the embed's origin only, and a negative offset delays play", () => {
  const h = harness(-1000);
  h.player.play();
  expect(h.sent).toEqual([]);
  h.advance(999);
  expect(h.sent).toEqual([]);
  h.advance(1);
  expect(h.sent).toEqual([
    { message: { source: videoMessageSource, command: "play" }, origin: "https://site.test" },
  ]);
});

test("messages from another origin or another window are ignored", () => {
  const h = harness();
  h.host("playing", 20, 30, "https://elsewhere.test");
  h.host("playing", 20, 30, "https://site.test", {});
  expect(h.states).toEqual([]);
  h.host("playing", 20, 30);
  expect(h.states).toEqual(["playing"]);
  expect(h.progress).toEqual([25, 50]);
});

test("progress once each per play; a play again after the end reports again", () => {
  const h = harness();
  for (const t of [0, 8, 8, 16, 23, 29.9]) h.host("playing", t);
  h.host("paused", 29.9);
  h.host("ended", 29.95);
  expect(h.progress).toEqual([25, 50, 75, 100]);
  expect(h.states.slice(-2)).toEqual(["paused", "ended"]);
  h.host("playing", 0);
  h.host("playing", 10);
  expect(h.progress).toEqual([25, 50, 75, 100, 25]);
});

test("every 15 s the host is asked its state; one silent since the last check is given up", () => {
  const h = harness();
  h.host("ready", 0);
  h.advance(hostCheckMs);
  expect(h.sent).toEqual([
    { message: { source: videoMessageSource, command: "state" }, origin: "https://site.test" },
  ]);
  h.host("playing", 1);
  h.advance(hostCheckMs);
  expect(h.states.at(-1)).toBe("playing");
  h.advance(hostCheckMs);
  expect(h.states.at(-1)).toBe("error");
  expect(h.listeners.size).toBe(0);
});
