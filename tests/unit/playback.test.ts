import { describe, expect, test } from "vitest";
import type { PlaylistEntry } from "#app/shell/view.ts";
import {
  type AudioLike,
  createPlayer,
  indexAfterEnd,
  nextIndex,
  previousIndex,
} from "#app/track/browser/playback.ts";
import { isActive, type PlaybackState } from "#app/track/browser/playback-state.ts";

function entry(key: string, playlistBreak = false): PlaylistEntry {
  return { key, title: `Song ${key}`, artist: "Artist", src: `/media/previews/${key}.ogg`, playlistBreak };
}

const three = [entry("1"), entry("2"), entry("3")];

describe("spec 002 §4 playlist: next, previous, advance at the end, wrap, playlist-break", () => {
  test.each([
    [3, 0, 1],
    [3, 1, 2],
    [3, 2, 0],
    [1, 0, 0],
  ])("next of %i tracks after %i is %i", (length, current, next) => {
    expect(nextIndex(length, current)).toBe(next);
  });

  test.each([
    [3, 2, 1],
    [3, 0, 2],
    [1, 0, 0],
  ])("previous of %i tracks before %i is %i", (length, current, previous) => {
    expect(previousIndex(length, current)).toBe(previous);
  });

  test.each([
    ["advances to the next track", three, 0, 1],
    ["advances in the middle", three, 1, 2],
    ["wraps to the first after the last", three, 2, 0],
    ["a single track repeats", [entry("1")], 0, 0],
    ["a playlist-break track stops", [entry("1", true), entry("2")], 0, undefined],
    ["a break later in the list does not stop earlier tracks", [entry("1"), entry("2", true)], 0, 1],
    ["the last track marked playlist-break does not wrap", [entry("1"), entry("2", true)], 1, undefined],
    ["an index outside the list stops", three, 7, undefined],
  ])("%s", (_name, entries, current, following) => {
    expect(indexAfterEnd(entries, current)).toBe(following);
  });
});

/** An audio element stand-in: records what the player asks and fires events on demand. */
function fakeAudio(playResult: () => Promise<void> = () => Promise.resolve()) {
  const listeners = new Map<string, Set<(event: Event) => void>>();
  const calls: string[] = [];
  const audio: AudioLike = {
    src: "",
    currentTime: 0,
    play() {
      calls.push(`play ${audio.src}`);
      return playResult();
    },
    pause() {
      calls.push("pause");
    },
    addEventListener(type, listener) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)?.add(listener);
    },
    removeEventListener(type, listener) {
      listeners.get(type)?.delete(listener);
    },
  };
  const fire = (type: string) => {
    for (const listener of listeners.get(type) ?? []) listener(new Event(type));
  };
  return {
    audio,
    calls,
    fire,
    listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}

function recording() {
  const states: PlaybackState[] = [];
  return { states, onChange: (state: PlaybackState) => states.push(state) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the player", () => {
  test("play, then pause: the button's state follows (isActive)", async () => {
    const { audio, calls } = fakeAudio();
    const { states, onChange } = recording();
    const player = createPlayer(three, audio, onChange);
    player.play(0);
    expect(player.state).toEqual({ index: 0, status: "loading" });
    expect(isActive(player.state, 0)).toBe(true);
    await settle();
    expect(player.state).toEqual({ index: 0, status: "playing" });
    player.pause();
    expect(player.state).toEqual({ index: 0, status: "paused" });
    expect(isActive(player.state, 0)).toBe(false);
    expect(calls).toEqual(["play /media/previews/1.ogg", "pause"]);
    expect(states.map((state) => state.status)).toEqual(["loading", "playing", "paused"]);
  });

  test("resuming keeps the position; another track starts from its beginning", async () => {
    const { audio } = fakeAudio();
    const player = createPlayer(three, audio, () => {});
    player.play(0);
    await settle();
    audio.currentTime = 12;
    player.pause();
    player.play(0);
    expect(audio.currentTime).toBe(12);
    player.play(2);
    expect(audio.src).toBe("/media/previews/3.ogg");
    expect(audio.currentTime).toBe(0);
  });

  test("at the end of each track the next plays, wrapping after the last", async () => {
    const { audio, calls, fire } = fakeAudio();
    const player = createPlayer(three, audio, () => {});
    player.play(1);
    await settle();
    fire("ended");
    expect(player.state.index).toBe(2);
    await settle();
    fire("ended");
    expect(player.state.index).toBe(0);
    expect(calls).toEqual([
      "play /media/previews/2.ogg",
      "play /media/previews/3.ogg",
      "play /media/previews/1.ogg",
    ]);
  });

  test("a track marked playlist-break stops auto-advance", async () => {
    const { audio, calls, fire } = fakeAudio();
    const player = createPlayer([entry("1", true), entry("2")], audio, () => {});
    player.play(0);
    await settle();
    fire("pause");
    fire("ended");
    expect(player.state).toEqual({ index: 0, status: "idle" });
    expect(calls).toEqual(["play /media/previews/1.ogg"]);
  });

  test("next and previous move through the playlist", () => {
    const { audio } = fakeAudio();
    const player = createPlayer(three, audio, () => {});
    player.next();
    expect(player.state.index).toBe(0);
    player.next();
    expect(player.state.index).toBe(1);
    player.previous();
    player.previous();
    expect(player.state.index).toBe(2);
  });

  test("a failing preview is an error state; pressing again retries it", async () => {
    let fail = true;
    const { audio, calls } = fakeAudio(() =>
      fail ? Promise.reject(new DOMException("no source", "NotSupportedError")) : Promise.resolve(),
    );
    const player = createPlayer(three, audio, () => {});
    player.play(0);
    await settle();
    expect(player.state).toEqual({ index: 0, status: "error" });
    fail = false;
    player.play(0);
    await settle();
    expect(player.state).toEqual({ index: 0, status: "playing" });
    expect(calls).toEqual(["play /media/previews/1.ogg", "play /media/previews/1.ogg"]);
  });

  test("a media error event is an error state", async () => {
    const { audio, fire } = fakeAudio();
    const player = createPlayer(three, audio, () => {});
    player.play(0);
    fire("error");
    expect(player.state).toEqual({ index: 0, status: "error" });
  });

  test("a play interrupted by the next one is not an error", async () => {
    const { audio } = fakeAudio(() => Promise.reject(new DOMException("interrupted", "AbortError")));
    const player = createPlayer(three, audio, () => {});
    player.play(0);
    await settle();
    expect(player.state).toEqual({ index: 0, status: "loading" });
  });

  test("a pause while loading wins over the late start", async () => {
    let resolve: () => void = () => {};
    const { audio } = fakeAudio(() => new Promise<void>((done) => (resolve = done)));
    const player = createPlayer(three, audio, () => {});
    player.play(0);
    player.pause();
    resolve();
    await settle();
    expect(player.state).toEqual({ index: 0, status: "paused" });
  });

  test.each([
    ["a started play() that succeeds ends playing", () => Promise.resolve(), "playing"],
    [
      "a started play() that fails ends in the error state",
      () => Promise.reject(new DOMException("no source", "NotSupportedError")),
      "error",
    ],
  ] as const)("taking over the first press's element: %s", async (_name, started, status) => {
    const { audio, calls } = fakeAudio();
    const { states, onChange } = recording();
    const player = createPlayer(three, audio, onChange, {
      state: { index: 1, status: "loading" },
      started: started(),
    });
    expect(player.state).toEqual({ index: 1, status: "loading" });
    await settle();
    expect(player.state).toEqual({ index: 1, status });
    expect(states).toEqual([{ index: 1, status }]);
    // The press already set the source and called play(): the player does neither again.
    expect(calls).toEqual([]);
  });

  test("taken over paused, playing the same track resumes it where it was", async () => {
    const { audio, calls } = fakeAudio();
    audio.src = "/media/previews/2.ogg";
    audio.currentTime = 7;
    const player = createPlayer(three, audio, () => {}, { state: { index: 1, status: "paused" } });
    player.play(1);
    await settle();
    expect(player.state).toEqual({ index: 1, status: "playing" });
    expect(audio.currentTime).toBe(7);
    expect(calls).toEqual(["play /media/previews/2.ogg"]);
  });

  test("taken over, the end of the track moves to the next one", async () => {
    const { audio, calls, fire } = fakeAudio();
    const player = createPlayer(three, audio, () => {}, {
      state: { index: 0, status: "loading" },
      started: Promise.resolve(),
    });
    await settle();
    fire("ended");
    expect(player.state).toEqual({ index: 1, status: "loading" });
    expect(calls).toEqual(["play /media/previews/2.ogg"]);
  });

  test("destroy stops listening and pauses", () => {
    const { audio, calls, listenerCount } = fakeAudio();
    const player = createPlayer(three, audio, () => {});
    expect(listenerCount()).toBeGreaterThan(0);
    player.destroy();
    expect(listenerCount()).toBe(0);
    expect(calls).toEqual(["pause"]);
  });
});
