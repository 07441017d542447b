import { env } from "cloudflare:test";
import * as v from "valibot";
import { expect, test } from "vitest";
import { createOrigin } from "#origin/index.ts";
import { contrastRatio, isNewRelease } from "#rules/content-rules.ts";
import { artistSchema } from "#rules/schemas/artist.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";
import { syncedLyricsSchema } from "#rules/schemas/lyrics.ts";
import { tagCountListSchema, tagCountSchema } from "#rules/schemas/tagcount.ts";
import { relatedTracksSchema, storeNames, trackSchema } from "#rules/schemas/track.ts";

const origin = createOrigin();

function get(path: string): Promise<Response> {
  return Promise.resolve(origin.fetch(new Request(`https://example.com/services${path}`), env));
}

async function getJson<const S extends v.GenericSchema>(path: string, schema: S): Promise<v.InferOutput<S>> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return v.parse(schema, await response.json());
}

async function expectError(path: string, status: number, message?: string) {
  const response = await get(path);
  expect(response.status, path).toBe(status);
  const body = v.parse(serviceErrorSchema, await response.json());
  expect(body.error).toBe(status === 404 ? "notfound" : "invalidparam");
  if (message) expect(body.message).toBe(message);
}

type TrackFixture = {
  key: number;
  adamid: string;
  title: string;
  name: string;
  release_date: string;
  duration_ms: number;
};

async function aTrack(withLyrics: boolean): Promise<TrackFixture> {
  const row = await env.DB.prepare(
    `SELECT t.key, t.adamid, t.title, a.name, t.release_date, t.duration_ms FROM tracks t JOIN artists a ON a.id = t.artist_id
     WHERE t.key ${withLyrics ? "" : "NOT"} IN (SELECT track_key FROM lyrics) ORDER BY t.key LIMIT 1`,
  ).first<TrackFixture>();
  if (!row) throw new Error("the catalogue has no such track");
  return row;
}

test("a track answers the spec's track shape from the catalogue", async () => {
  const fixture = await aTrack(false);
  const response = await get(`/track/v1/en/GB/web/${fixture.key}?itsct=charts&trackLength=180000`);
  expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600, s-maxage=86400");
  const track = v.parse(trackSchema, await response.json());
  expect(track).toMatchObject({
    key: String(fixture.key),
    title: fixture.title,
    subtitle: fixture.name,
    type: "MUSIC",
  });
  expect(track.heading).toEqual({ title: fixture.title, subtitle: fixture.name });
  expect(track.url).toBe(`/track/${fixture.key}/${track.alias}`);
  expect(track.sections.map((s) => s.type)).toEqual(["SONG", "ARTIST", "VIDEO", "RELATED"]);
  // Every preview has an art track on the video site (origin/routes/video.ts).
  expect(track.sections.find((s) => s.type === "VIDEO")).toEqual({
    type: "VIDEO",
    tabname: "Video",
    watchurl: `/services/video/watch/${fixture.key}`,
    embedurl: `/services/video/embed/${fixture.key}`,
    image: `/media/videos/${fixture.key}.jpg`,
    arttrack: true,
  });
  for (const store of storeNames)
    expect(track.stores[store]?.previewurl).toBe(`/media/previews/${fixture.key}.ogg`);
  expect(track.isNewRelease).toBe(isNewRelease(fixture.release_date, new Date()));
  expect(track.durationMs).toBe(fixture.duration_ms);
  expect(track.licence.name).not.toBe("");
  expect(track.source.package).not.toBe("");
  expect(track.images.default).toMatch(/\/375x375\.jpg$/);
  expect(contrastRatio(track.properties.colors.accessible, "#ffffff")).toBeGreaterThanOrEqual(
    Math.min(4.5, contrastRatio(`#${track.properties.bkgcolor}`, "#ffffff")),
  );
});

test("the track id is the leading digits of the path segment", async () => {
  const fixture = await aTrack(false);
  const track = await getJson(`/track/v1/en/GB/web/${fixture.key}-some-alias`, trackSchema);
  expect(track.key).toBe(String(fixture.key));
});

test("the iphone variant links to the apps instead of the web stores", async () => {
  const fixture = await aTrack(false);
  const web = await getJson(`/track/v1/en/GB/web/${fixture.key}`, trackSchema);
  const app = await getJson(`/track/v1/en/GB/iphone/${fixture.key}`, trackSchema);
  expect(web.stores.spotify?.actions[0]?.uri).toMatch(/^https:\/\/open\.spotify\.com\/search\//);
  expect(app.stores.spotify?.actions[0]?.uri).toMatch(/^spotify:search:/);
});

test("a track with lyrics has a LYRICS section marked as demo lyrics, linking to synced lyrics", async () => {
  const fixture = await aTrack(true);
  const track = await getJson(`/track/v1/en/GB/web/${fixture.key}`, trackSchema);
  const lyrics = track.sections.find((s) => s.type === "LYRICS");
  expect(lyrics?.type === "LYRICS" && lyrics.demo).toBe(true);
  expect(lyrics?.type === "LYRICS" && lyrics.footer).toMatch(/Demo lyrics/);
  const url = lyrics?.type === "LYRICS" ? lyrics.url : undefined;
  expect(url).toBe(`/services/lyrics/v1/gb/songs/${fixture.adamid}/synced`);
  const synced = await getJson(url?.replace("/services", "") ?? "", syncedLyricsSchema);
  expect(synced.demo).toBe(true);
  expect(synced.syncedtext.map((l) => l.text)).toEqual(lyrics?.type === "LYRICS" ? lyrics.text : []);
  const offsets = synced.syncedtext.map((l) => l.offset);
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  expect(new Set(offsets).size).toBe(offsets.length);
  expect(offsets.every((o) => o >= 0 && o < fixture.duration_ms)).toBe(true);
});

test("related tracks leave out the track itself", async () => {
  const fixture = await aTrack(false);
  const related = await getJson(`/track/v1/en/GB/web/${fixture.key}/related?limit=5`, relatedTracksSchema);
  expect(related.tracks.length).toBeGreaterThan(0);
  expect(related.tracks.length).toBeLessThanOrEqual(5);
  expect(related.tracks.map((t) => t.key)).not.toContain(String(fixture.key));
});

test("the artist service answers by artist id", async () => {
  const fixture = await aTrack(false);
  const track = await getJson(`/track/v1/en/GB/web/${fixture.key}`, trackSchema);
  const artistId = track.artists[0]?.id;
  const artist = await getJson(`/artist/v1/en/GB/web/${artistId}`, artistSchema);
  expect(artist).toMatchObject({ id: artistId, adamid: track.artists[0]?.adamid, name: fixture.name });
  expect(artist.bio).toContain(fixture.name);
});

test("tag counts answer a total per track, singly and as a list", async () => {
  const [a, b] = [await aTrack(false), await aTrack(true)];
  const stored = await env.DB.prepare("SELECT total FROM tag_counts WHERE track_key = ?")
    .bind(a.key)
    .first<{ total: number }>();
  const one = await getJson(`/count/v2/web/track/${a.key}`, tagCountSchema);
  // `demo`: the total includes the seeded count (decision 032), which pages label as demo data.
  expect(one).toEqual({ id: String(a.key), total: stored?.total, demo: true });
  const list = await getJson(`/count/v2/web/tracks?id=${b.key}&id=${a.key}&id=999`, tagCountListSchema);
  expect(list.map((c) => c.id)).toEqual([String(b.key), String(a.key)]);
  const track = await getJson(`/track/v1/en/GB/web/${a.key}`, trackSchema);
  expect(track.properties.numberOfShazams).toBe(one.total);
});

test.each([
  ["a track id without digits", "/track/v1/en/GB/web/abc", 400, "Track service No id"],
  // Decision 058: a run of more than 15 digits names no track (its first 15 are another track's key).
  ["a track id of 16 digits", "/track/v1/en/GB/web/1234567890123456-alias", 400, "Track service No id"],
  ["an unknown track", "/track/v1/en/GB/web/1", 404, undefined],
  ["an unknown platform", "/track/v1/en/GB/android/1", 400, "Unknown platform"],
  ["an unknown country", "/track/v1/en/QQ/web/1", 400, "Unknown country"],
  ["a bad trackLength", "/track/v1/en/GB/web/1?trackLength=long", 400, "trackLength must be a whole number"],
  ["related of an unknown track", "/track/v1/en/GB/web/1/related", 404, undefined],
  ["an unknown artist", "/artist/v1/en/GB/web/1", 404, undefined],
  ["a tag count without a numeric id", "/count/v2/web/track/x1", 400, "TrackTagCount service No id"],
  ["a tag count list without ids", "/count/v2/web/tracks", 400, "TrackTagCount service No id"],
  ["a tag count of an unknown track", "/count/v2/web/track/1", 404, undefined],
  ["synced lyrics without an adam id", "/lyrics/v1/gb/songs/x/synced", 400, "Lyrics service No adam id"],
  ["synced lyrics of an unknown song", "/lyrics/v1/gb/songs/1/synced", 404, "No Synced Lyrics"],
])("%s answers %i", async (_, path, status, message) => {
  await expectError(path, status, message);
});

test("a track without lyrics has no synced lyrics", async () => {
  const fixture = await aTrack(false);
  await expectError(`/lyrics/v1/gb/songs/${fixture.adamid}/synced`, 404, "No Synced Lyrics");
});
