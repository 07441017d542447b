import type { Page } from "playwright-core";
import * as v from "valibot";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { trackSchema } from "#rules/schemas/track.ts";

/** A song as the site's services describe it. */
export type Track = v.InferOutput<typeof trackSchema>;

/** The first song of the world chart, found through the site's own services. */
export async function worldChartTopTrack(baseURL: string): Promise<Track> {
  const chart = v.parse(
    playlistTracksDocumentSchema,
    await (
      await fetch(`${baseURL}/services/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=1`)
    ).json(),
  );
  const key = chart.data[0]?.attributes.shazamKey;
  return v.parse(trackSchema, await (await fetch(`${baseURL}/services/track/v1/en/GB/web/${key}`)).json());
}

/** The song's page. */
export function trackPagePath(track: Track): string {
  return `/track/${track.key}/${track.alias}`;
}

/**
 * Keeps every audio element the page makes reachable from the test as `window.madeAudio` (the
 * player's is not in the DOM).
 */
export async function recordAudioElements(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const made: HTMLAudioElement[] = [];
    const NativeAudio = window.Audio;
    (window as unknown as { madeAudio: HTMLAudioElement[] }).madeAudio = made;
    window.Audio = function recordedAudio(src?: string) {
      const audio = new NativeAudio(src);
      made.push(audio);
      return audio;
    } as unknown as typeof window.Audio;
  });
}
