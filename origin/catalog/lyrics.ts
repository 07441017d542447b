/**
 * Demo lyrics: original short texts written for this project, for a subset of the (instrumental)
 * recordings, so the lyrics and synced-lyrics features have real data. Marked as demo lyrics in the
 * payload and in the footer.
 */

export const demoLyricsProvider = "Tunewave demo lyrics";
export const demoLyricsFooter =
  "Demo lyrics written for Tunewave. The recording is instrumental: these words are not part of it.";

/** Keyed by binary package and file name. */
export const demoLyrics: Readonly<Record<string, readonly string[]>> = {
  "wesnoth-1.16-music/journeys_end.ogg": [
    "The road runs out where the river bends",
    "Lanterns lit at the journey's end",
    "Boots worn through and the banners torn",
    "We walk on home by the light of morn",
    "Count the names that the mountains keep",
    "Sing them low so the valleys sleep",
    "Every mile was a promise made",
    "Rest now, friend, in the evening shade",
  ],
  "wesnoth-1.16-music/traveling_minstrels.ogg": [
    "Three strings, a drum and a borrowed cart",
    "We play the square till the dancers start",
    "Coins in the hat and bread on the fire",
    "One more tune for the village choir",
    "North by the ford and south by the mill",
    "Every town has a song to fill",
    "Pack up the lute when the lamps burn low",
    "Over the hill is the next show",
  ],
  "wesnoth-1.16-music/love_theme.ogg": [
    "Under the willow the rain comes soft",
    "Your letter kept in the tower loft",
    "War on the border, a candle here",
    "I read your words till the sky is clear",
    "If the bells ring out at the break of day",
    "I will know you found your way",
  ],
  "wesnoth-1.16-music/wanderer.ogg": [
    "Another stranger at the gate",
    "Dust of the southern roads",
    "He asks for water, asks the date",
    "Then shoulders up his loads",
    "No one knows the name he keeps",
    "Or where his wandering goes",
    "The fire is warm, the village sleeps",
    "And on the wanderer goes",
  ],
  "warzone2100-music/track12.opus": [
    "Static on the radio",
    "Grey light over the plain",
    "Rebuild what the fire let go",
    "Wire the towers again",
    "Count the signals one by one",
    "A new dawn on the wire",
    "Machines awake beneath the sun",
    "Out of the ash and fire",
  ],
  "warzone2100-music/track7.opus": [
    "Rusted fences, endless sky",
    "Radio towers standing by",
    "Nothing grows but the wind is free",
    "This wasteland's kind of home to me",
    "Tracks in the sand where the convoys ran",
    "Building back with our own two hands",
  ],
};

export type SyncedLine = { offset: number; text: string };

/**
 * Times lines against the recording: evenly spaced between 10% and 90% of its length, each moved
 * to the strongest onset within `snapMs` of its slot (the line keeps its slot when there is none).
 */
export function timeLyrics(
  lines: readonly string[],
  durationMs: number,
  onsets: readonly { ms: number; strength: number }[],
  snapMs = 2500,
): SyncedLine[] {
  const start = durationMs * 0.1;
  const span = durationMs * 0.8;
  let previous = -1;
  return lines.map((text, i) => {
    const slot = Math.round(start + (span * i) / lines.length);
    let best: { ms: number; strength: number } | undefined;
    for (const onset of onsets) {
      if (Math.abs(onset.ms - slot) > snapMs || onset.ms <= previous) continue;
      if (!best || onset.strength > best.strength) best = onset;
    }
    const offset = Math.max(best?.ms ?? slot, previous + 1);
    previous = offset;
    return { offset, text };
  });
}
