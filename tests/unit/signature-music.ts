/**
 * Synthetic music for the signature tests: a seeded sequence of notes (two voices, harmonics,
 * plucked envelopes) defined in continuous time, so the same passage can be rendered at any sample
 * rate and any playback speed without resampling.
 */

import { seededRandom } from "#origin/catalog/audio-degrade.ts";
import { createIndexBuilder, type IndexTrack } from "#signature/track-index.ts";

type Note = { start: number; length: number; frequency: number; amplitude: number };

const SCALE = [0, 2, 4, 7, 9];

export function composeTrack(seed: number, seconds: number): Note[] {
  const random = seededRandom(seed);
  const notes: Note[] = [];
  for (let voice = 0; voice < 2; voice++) {
    let time = random() * 0.2;
    const octave = voice === 0 ? 110 : 440;
    while (time < seconds) {
      const length = 0.15 + random() * 0.45;
      const degree = SCALE[Math.floor(random() * SCALE.length)] as number;
      const frequency =
        octave * 2 ** ((degree + 12 * Math.floor(random() * 2)) / 12) * (1 + (random() - 0.5) * 0.02);
      notes.push({ start: time, length, frequency, amplitude: 0.12 + random() * 0.12 });
      time += length * (0.7 + random() * 0.5);
    }
  }
  return notes.sort((a, b) => a.start - b.start);
}

/**
 * Renders `seconds` of the track from `fromSecond`, at `sampleRate`, played `speed` times as fast
 * (tempo and pitch together, like a turntable off speed).
 */
export function renderTrack(
  notes: readonly Note[],
  options: { fromSecond: number; seconds: number; sampleRate: number; speed?: number },
): Float32Array {
  const { fromSecond, seconds, sampleRate } = options;
  const speed = options.speed ?? 1;
  const out = new Float32Array(Math.round(seconds * sampleRate));
  const endSecond = fromSecond + seconds * speed;
  for (const note of notes) {
    const noteEnd = note.start + note.length + 0.3;
    if (noteEnd < fromSecond || note.start > endSecond) continue;
    const first = Math.max(0, Math.ceil(((note.start - fromSecond) / speed) * sampleRate));
    const last = Math.min(out.length - 1, Math.floor(((noteEnd - fromSecond) / speed) * sampleRate));
    for (let i = first; i <= last; i++) {
      const t = fromSecond + (i / sampleRate) * speed - note.start;
      if (t < 0) continue;
      const envelope = Math.min(1, t / 0.01) * Math.exp(-t / (note.length * 0.6));
      let value = 0;
      for (let h = 1; h <= 5; h++) {
        const f = note.frequency * h;
        if (f * 2 >= sampleRate) break;
        value += Math.sin(2 * Math.PI * f * t) / h;
      }
      out[i] = (out[i] as number) + note.amplitude * envelope * value;
    }
  }
  return out;
}

export function whiteNoise(length: number, seed: number, amplitude: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = amplitude * (random() * 2 - 1);
  return out;
}

/** An index of these tracks in one call (the catalogue builder adds tracks one by one). */
export function buildIndex(tracks: readonly IndexTrack[]): Uint8Array {
  const builder = createIndexBuilder();
  for (const track of tracks) builder.addTrack(track.trackKey, track.samples, track.sampleRate);
  return builder.finish();
}
