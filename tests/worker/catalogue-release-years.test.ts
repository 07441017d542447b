import { env } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { get } from "./site";

// A track page and its album page show one release year (decision 010: an album's tracks are
// released on it), read from the pages' markup for every album of the catalogue in D1; and no
// track is called by its number alone.

type AlbumRow = { id: string; alias: string; title: string };
type TrackRow = { key: number; alias: string; title: string };

const { results: albums } = await env.DB.prepare(
  "SELECT id, alias, title FROM albums ORDER BY id",
).all<AlbumRow>();

async function albumTracks(id: string): Promise<TrackRow[]> {
  const { results } = await env.DB.prepare(
    "SELECT key, alias, title FROM tracks WHERE album_id = ? ORDER BY key",
  )
    .bind(id)
    .all<TrackRow>();
  return results;
}

async function page(path: string): Promise<string> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The year in the album page's credits: `<dt>Released</dt><dd>January 1, 2012</dd>`. */
function albumYear(html: string): string | undefined {
  const released = /<dt>Released<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];
  return /\b\d{4}\b/.exec(released ?? "")?.[0];
}

/** The year in the track page's facts: `<dt>Released</dt><dd><time dateTime="…">2012</time></dd>`. */
function trackYear(html: string): string | undefined {
  const released = /<dt>Released<\/dt><dd><time [^>]*>([^<]*)<\/time><\/dd>/.exec(html)?.[1];
  return /\b\d{4}\b/.exec(released ?? "")?.[0];
}

describe("release years", () => {
  test("the catalogue has albums", () => {
    expect(albums.length).toBeGreaterThan(0);
  });

  test.each(albums)(
    "every track of $title shows the album page's year",
    async (album) => {
      const year = albumYear(await page(`/album/${album.id}/${album.alias}`));
      expect(year, album.title).toMatch(/^\d{4}$/);
      const tracks = await albumTracks(album.id);
      expect(tracks.length).toBeGreaterThan(0);
      const shown = await Promise.all(
        tracks.map(async (track) => ({
          track: track.title,
          year: trackYear(await page(`/track/${track.key}/${track.alias}`)),
        })),
      );
      expect(shown).toEqual(tracks.map((track) => ({ track: track.title, year })));
    },
    60_000,
  );
});

test("no track is called by its number alone", async () => {
  const { results } = await env.DB.prepare("SELECT title FROM tracks").all<{ title: string }>();
  expect(results.length).toBeGreaterThan(0);
  expect(
    results.map((row) => row.title).filter((title) => /^(?:track|untitled)\s*\d+\b/i.test(title)),
  ).toEqual([]);
});
