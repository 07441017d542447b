import type { PlaylistEntry } from "#app/shell/view.ts";
import type { PlaybackState } from "./playback-state";

/**
 * Preview playback of a page's playlist (spec 002 §4 "Playlist"): the current index moves to next
 * or previous; at the end of a track it moves to the next, wrapping to the first after the last;
 * a track marked playlist-break stops auto-advance. One audio element plays the whole page, so
 * starting a track stops the one before. The rules are pure; `createPlayer` drives any object
 * shaped like an HTMLAudioElement, so it is tested without a browser. It is loaded on demand at the
 * first press (app/track/playback.tsx), and takes over the audio element that press
 * already started.
 */

export function nextIndex(length: number, current: number): number {
  return length === 0 ? 0 : (current + 1) % length;
}

export function previousIndex(length: number, current: number): number {
  return length === 0 ? 0 : (current - 1 + length) % length;
}

/** What plays when the track at `current` ends: the next one, wrapping; none after a break. */
export function indexAfterEnd(entries: readonly PlaylistEntry[], current: number): number | undefined {
  const entry = entries[current];
  if (!entry || entry.playlistBreak) return undefined;
  return nextIndex(entries.length, current);
}

type Listener = (event: Event) => void;

/** The parts of HTMLAudioElement the player uses. */
export type AudioLike = {
  src: string;
  currentTime: number;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
};

export type Player = {
  readonly state: PlaybackState;
  play(index: number): void;
  pause(): void;
  next(): void;
  previous(): void;
  /** Stops listening to the audio element and pauses it. */
  destroy(): void;
};

/** What the presses before the player arrived did: the state they showed and the play() they started. */
export type HandOver = { state: PlaybackState; started?: Promise<void> };

export function createPlayer(
  entries: readonly PlaylistEntry[],
  audio: AudioLike,
  onChange: (state: PlaybackState) => void,
  handOver: HandOver = { state: { index: undefined, status: "idle" } },
): Player {
  let state: PlaybackState = handOver.state;
  // A play() promise rejected because a newer load replaced it is not a failure.
  let attempt = 0;

  function set(next: PlaybackState) {
    if (next.index === state.index && next.status === state.status) return;
    state = next;
    onChange(state);
  }

  function play(index: number) {
    const entry = entries[index];
    if (!entry) return;
    if (index !== state.index || state.status === "error") {
      audio.src = entry.src;
      audio.currentTime = 0;
    }
    set({ index, status: "loading" });
    follow(index, audio.play());
  }

  /** Moves a loading track to playing or error by what its play() says, unless a newer press came. */
  function follow(index: number, started: Promise<void>) {
    const current = ++attempt;
    started.then(
      () => {
        if (current === attempt && state.index === index && state.status === "loading")
          set({ index, status: "playing" });
      },
      (error: unknown) => {
        if (current !== attempt) return;
        if (error instanceof Error && error.name === "AbortError") return;
        set({ index, status: "error" });
      },
    );
  }

  function pause() {
    attempt += 1;
    audio.pause();
    if (state.status === "playing" || state.status === "loading") set({ ...state, status: "paused" });
  }

  const listeners: Record<string, Listener> = {
    playing: () => {
      if (state.index !== undefined) set({ index: state.index, status: "playing" });
    },
    pause: () => {
      if (state.status === "playing") set({ ...state, status: "paused" });
    },
    ended: () => {
      if (state.index === undefined) return;
      const following = indexAfterEnd(entries, state.index);
      if (following === undefined) set({ index: state.index, status: "idle" });
      else play(following);
    },
    error: () => {
      if (state.index !== undefined) set({ index: state.index, status: "error" });
    },
  };
  for (const [type, listener] of Object.entries(listeners)) audio.addEventListener(type, listener);
  if (handOver.started && state.index !== undefined) follow(state.index, handOver.started);

  return {
    get state() {
      return state;
    },
    play,
    pause,
    next() {
      play(nextIndex(entries.length, state.index ?? -1));
    },
    previous() {
      play(previousIndex(entries.length, state.index ?? 0));
    },
    destroy() {
      for (const [type, listener] of Object.entries(listeners)) audio.removeEventListener(type, listener);
      audio.pause();
    },
  };
}
