import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import * as v from "valibot";
import { expect } from "vitest";
import { decodeAudioFile } from "#origin/catalog/audio-decode.ts";
import { addNoise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import { encodeWav16 } from "#signature/index.ts";

// A WAV file as Chromium's microphone, made from a catalogue recording: what the recognition and
// library tests play to /identify.

export const excerptSeconds = 15;

const manifestSchema = v.object({
  tracks: v.array(
    v.object({ key: v.number(), audioFile: v.string(), durationMs: v.number(), title: v.string() }),
  ),
});

export function microphoneFlags(wavFile: string): string[] {
  return [
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-audio-capture=${wavFile}`,
    "--autoplay-policy=no-user-gesture-required",
  ];
}

/** The catalogue recording at `at` (0 to 1) among those of a minute or more, by key. */
export function longRecording(at: number) {
  const manifest = v.parse(
    manifestSchema,
    JSON.parse(
      readFileSync(path.join(import.meta.dirname, "../../origin/catalog/dist/catalog.json"), "utf8"),
    ),
  );
  const long = manifest.tracks.filter((track) => track.durationMs > 60_000).sort((a, b) => a.key - b.key);
  const chosen = long[Math.floor(long.length * at)];
  if (!chosen) throw new Error("no recording of a minute or more in the catalogue");
  return chosen;
}

/**
 * The preview file of the catalogue recording `longRecording(at)` picks: what a person would
 * choose or drop as a file. A test takes one no other recognition test identifies.
 */
export function previewTrack(at: number): { key: string; file: string } {
  const chosen = longRecording(at);
  return {
    key: String(chosen.key),
    file: path.join(import.meta.dirname, `../../public/media/previews/${chosen.key}.ogg`),
  };
}

/**
 * A catalogue recording, and 15 s from its middle as a noisy WAV. `at` picks it among the
 * recordings of a minute or more, by key: 0.5 (default) the middle one; a test that counts a
 * song's identifications takes one no other test identifies.
 */
export async function catalogueExcerpt(at = 0.5) {
  const chosen = longRecording(at);
  const { samples, sampleRate } = await decodeAudioFile(chosen.audioFile);
  const length = excerptSeconds * sampleRate;
  const from = Math.floor((samples.length - length) / 2);
  const excerpt = addNoise(samples.subarray(from, from + length), sampleRate, 20, "pink", seededRandom(11));
  const wavFile = path.join(tmpdir(), `tunewave-recognition-${chosen.key}.wav`);
  writeFileSync(wavFile, encodeWav16(excerpt, sampleRate));
  return {
    key: String(chosen.key),
    wavFile,
    fromMs: (from / sampleRate) * 1000,
    durationMs: chosen.durationMs,
  };
}

export async function pressListen(page: Page) {
  const button = page.getByRole("button", { name: "Tap to listen" });
  await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
  await button.click();
}
