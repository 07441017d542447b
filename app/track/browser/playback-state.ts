/**
 * What the page's player shows (spec 002 §4 "Playlist"): the buttons render it from the first
 * press on, before the player's own code (app/track/browser/playback.ts, loaded on demand) has arrived.
 */

export type PlaybackStatus = "idle" | "loading" | "playing" | "paused" | "error";

export type PlaybackState = {
  /** The track the audio element holds; undefined before the first play. */
  index: number | undefined;
  status: PlaybackStatus;
};

/** A track's button shows "pause" while it is loading or playing. */
export function isActive(state: PlaybackState, index: number): boolean {
  return state.index === index && (state.status === "playing" || state.status === "loading");
}
