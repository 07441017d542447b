import { videoMessageSource } from "#rules/video-messages.ts";

/**
 * The track page's video player (spec 002 §4 "Video"): the video site's embed page in an iframe,
 * driven by its postMessage API (origin/routes/video.ts). States ready, playing, paused, ended; a
 * negative offset delays play; progress reported once each at 25/50/75/100 % of a play; the host
 * iframe checked every 15 s (§4), and a host that stopped answering is given up.
 */

export type VideoState = "loading" | "ready" | "playing" | "paused" | "ended" | "error";

/** Spec 002 §4: the progress points reported, in percent. */
export const progressPoints = [25, 50, 75, 100] as const;
export type ProgressPoint = (typeof progressPoints)[number];

/** Spec 002 §4: how often the host iframe player is checked. */
export const hostCheckMs = 15_000;

/**
 * The progress points a play reaches at `currentTime`, not reported yet in it. `ended` counts as
 * 100 % whatever the last time update said (the last one arrives a little before the end).
 */
export function progressReached(
  reported: ReadonlySet<ProgressPoint>,
  currentTime: number,
  duration: number,
  ended = false,
): ProgressPoint[] {
  if (!(duration > 0)) return [];
  const percent = ended ? 100 : (currentTime / duration) * 100;
  return progressPoints.filter((point) => percent >= point && !reported.has(point));
}

/** Spec 002 §4: how long to wait before play for an offset in ms (a negative one delays, others do not). */
export function playDelayMs(offsetMs: number): number {
  return offsetMs < 0 ? -offsetMs : 0;
}

type HostMessage = {
  source: typeof videoMessageSource;
  event: "state" | "time";
  state: VideoState;
  currentTime: number;
  duration: number;
};

function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Record<string, unknown>;
  return (
    m.source === videoMessageSource &&
    (m.event === "state" || m.event === "time") &&
    typeof m.state === "string" &&
    typeof m.currentTime === "number" &&
    typeof m.duration === "number"
  );
}

export type VideoTimers = {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
};

export type VideoPlayerOptions = {
  frame: Pick<HTMLIFrameElement, "src" | "contentWindow">;
  /** The window the iframe's messages arrive at. */
  window: Pick<Window, "addEventListener" | "removeEventListener">;
  offsetMs: number;
  timers: VideoTimers;
  onState(state: VideoState, currentTime: number, duration: number): void;
  onProgress(point: ProgressPoint): void;
};

export type VideoPlayer = { play(): void; pause(): void; stop(): void };

/**
 * Connects to the embed page in `frame`. Messages count only from that frame's window and the
 * embed's origin; commands go to that origin only. Every 15 s the player asks the host its state;
 * a host that sent nothing since the previous check has stopped answering: the player reports
 * `error` and stops listening (the page shows the error and a link to the watch page).
 */
export function connectVideoPlayer(options: VideoPlayerOptions): VideoPlayer {
  const { frame, timers } = options;
  // An iframe's `src` property is always absolute.
  const hostOrigin = new URL(frame.src).origin;
  let reported = new Set<ProgressPoint>();
  let state: VideoState = "loading";
  let heard = false;
  let delay: unknown;
  let stopped = false;

  const send = (command: "play" | "pause" | "state") =>
    frame.contentWindow?.postMessage({ source: videoMessageSource, command }, hostOrigin);

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== hostOrigin || event.source !== frame.contentWindow || !isHostMessage(event.data))
      return;
    heard = true;
    const { currentTime, duration } = event.data;
    const next = event.data.state;
    // A play that starts again from the end is a new play: its progress is reported again.
    if (next === "playing" && state === "ended") reported = new Set();
    for (const point of progressReached(reported, currentTime, duration, next === "ended")) {
      reported.add(point);
      options.onProgress(point);
    }
    state = next;
    options.onState(state, currentTime, duration);
  };

  const check = timers.setInterval(() => {
    if (!heard) {
      stop();
      options.onState("error", 0, 0);
      return;
    }
    heard = false;
    send("state");
  }, hostCheckMs);

  function stop() {
    if (stopped) return;
    stopped = true;
    timers.clearInterval(check);
    timers.clearTimeout(delay);
    options.window.removeEventListener("message", onMessage);
  }

  options.window.addEventListener("message", onMessage);
  return {
    play() {
      timers.clearTimeout(delay);
      const wait = playDelayMs(options.offsetMs);
      if (wait === 0) send("play");
      else delay = timers.setTimeout(() => send("play"), wait);
    },
    pause() {
      timers.clearTimeout(delay);
      send("pause");
    },
    stop,
  };
}
