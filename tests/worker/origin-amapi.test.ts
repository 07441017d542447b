import { env } from "cloudflare:test";
import * as v from "valibot";
import { expect, test } from "vitest";
import { createOrigin } from "#origin/index.ts";
import {
  albumsDocumentSchema,
  artistsDocumentSchema,
  artistViewNames,
  artistViewSchema,
  creditsDocumentSchema,
  playlistsDocumentSchema,
  searchResultsSchema,
  shazamTracksSchema,
  songSchema,
} from "#rules/schemas/amapi.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";

// The songs call is the origin's alone (no page reads it through the edge), so its document is read here.
const songsDocumentSchema = v.object({ data: v.array(songSchema) });

const origin = createOrigin();

function get(path: string): Promise<Response> {
  return Promise.resolve(origin.fetch(new Request(`https://example.com/services${path}`), env));
}

async function getJson<const S extends v.GenericSchema>(path: string, schema: S): Promise<v.InferOutput<S>> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return v.parse(schema, await response.json());
}

async function first<T>(sql: string): Promise<T> {
  const row = await env.DB.prepare(sql).first<T>();
  if (!row) throw new Error(`no row for ${sql}`);
  return row;
}

/** The artist with the most recordings, and an album with several artists. */
const busiestArtist =
  "SELECT a.adamid, a.name, a.id FROM artists a JOIN tracks t ON t.artist_id = a.id GROUP BY a.id ORDER BY COUNT(*) DESC, a.id LIMIT 1";
const compilation =
  "SELECT album_id AS id FROM tracks GROUP BY album_id HAVING COUNT(DISTINCT artist_id) > 1 ORDER BY album_id LIMIT 1";

test("songs by ids keep the order asked and leave out unknown ids", async () => {
  const { results } = await env.DB.prepare("SELECT adamid FROM tracks ORDER BY key LIMIT 3").all<{
    adamid: string;
  }>();
  const ids = results.map((r) => r.adamid).reverse();
  const doc = await getJson(`/amapi/v1/catalog/gb/songs?ids=${[...ids, "1"].join(",")}`, songsDocumentSchema);
  expect(doc.data.map((s) => s.id)).toEqual(ids);
  const equivalents = await getJson(
    `/amapi/v1/catalog/gb/songs?filter[equivalents]=${ids[0]}&include=artists`,
    songsDocumentSchema,
  );
  expect(equivalents.data.map((s) => s.id)).toEqual([ids[0]]);
  const artist = equivalents.data[0]?.relationships?.artists?.data[0];
  expect(artist && "attributes" in artist ? artist.attributes?.name : undefined).toBe(
    equivalents.data[0]?.attributes.artistName,
  );
});

test("a song by id, and its credits", async () => {
  const { adamid } = await first<{ adamid: string }>("SELECT adamid FROM tracks ORDER BY key LIMIT 1");
  const doc = await getJson(`/amapi/v1/catalog/gb/songs/${adamid}`, songsDocumentSchema);
  expect(doc.data[0]?.attributes.previews[0]?.url).toMatch(/^\/media\/previews\/\d+\.ogg$/);
  const credits = await getJson(
    `/amapi/v1/catalog/gb/songs/${adamid}/credits?l=en-GB`,
    creditsDocumentSchema,
  );
  expect(credits.data[0]?.relationships["credit-artists"].data[0]?.attributes.name).toBe(
    doc.data[0]?.attributes.artistName,
  );
});

test("an artist answers extensions only when asked, and every view", async () => {
  const artist = await first<{ adamid: string; name: string }>(busiestArtist);
  const plain = await getJson(`/amapi/v1/catalog/gb/artists/${artist.adamid}`, artistsDocumentSchema);
  expect(plain.data[0]?.attributes.name).toBe(artist.name);
  expect(plain.data[0]?.attributes.artistBio).toBeUndefined();
  expect(plain.data[0]?.views).toBeUndefined();
  const full = await getJson(
    `/amapi/v1/catalog/gb/artists/${artist.adamid}?extend=artistBio,bornOrFormed,origin&views=${artistViewNames.join(",")}`,
    artistsDocumentSchema,
  );
  const resource = full.data[0];
  expect(resource?.attributes.artistBio).toContain(artist.name);
  expect(Object.keys(resource?.views ?? {}).sort()).toEqual([...artistViewNames].sort());
  const topSongs = resource?.views?.["top-songs"]?.data ?? [];
  expect(topSongs.length).toBeGreaterThan(0);
  for (const song of topSongs)
    expect(
      "attributes" in song &&
        song.attributes &&
        "artistName" in song.attributes &&
        song.attributes.artistName,
    ).toBe(artist.name);
  expect(resource?.views?.["latest-release"]?.data.length).toBe(1);
  expect(resource?.views?.["top-music-videos"]?.data).toEqual([]);
});

test("top songs are ordered by tag counts", async () => {
  const artist = await first<{ adamid: string; id: number }>(busiestArtist);
  const view = await getJson(
    `/amapi/v1/catalog/gb/artists/${artist.adamid}/view/top-songs?limit=50`,
    artistViewSchema,
  );
  const { results } = await env.DB.prepare(
    "SELECT t.adamid FROM tracks t JOIN tag_counts c ON c.track_key = t.key WHERE t.artist_id = ? ORDER BY c.total DESC, t.key",
  )
    .bind(artist.id)
    .all<{ adamid: string }>();
  expect(view.data.map((s) => s.id)).toEqual(results.map((r) => r.adamid));
});

test("similar artists share an album or a genre with the artist", async () => {
  const { id } = await first<{ id: string }>(compilation);
  const { adamid } = await first<{ adamid: string }>(
    `SELECT a.adamid FROM artists a JOIN tracks t ON t.artist_id = a.id WHERE t.album_id = '${id}' ORDER BY a.id LIMIT 1`,
  );
  const view = await getJson(
    `/amapi/v1/catalog/gb/artists/${adamid}/view/similar-artists?limit=50`,
    artistViewSchema,
  );
  expect(view.data.length).toBeGreaterThan(0);
  expect(view.data.map((a) => a.id)).not.toContain(adamid);
});

test("an album has its tracks in order, its artists and its cover", async () => {
  const { id } = await first<{ id: string }>(compilation);
  const doc = await getJson(`/amapi/v1/catalog/gb/albums/${id}`, albumsDocumentSchema);
  const album = doc.data[0];
  expect(album?.attributes.isCompilation).toBe(true);
  expect(album?.relationships?.tracks?.data.length).toBe(album?.attributes.trackCount);
  expect((album?.relationships?.artists?.data.length ?? 0) > 1).toBe(true);
  expect(album?.attributes.artwork.url).toMatch(/\{w\}x\{h\}\.jpg$/);
  const custom = await getJson(`/amapi/custom/gb/albums/${id}`, albumsDocumentSchema);
  expect(custom.data[0]?.relationships?.tracks?.data.map((s) => s.id)).toEqual(
    album?.relationships?.tracks?.data.map((s) => s.id),
  );
});

test("custom album calls: as a playlist, its music videos, its tracks in the track shape, its playlists", async () => {
  const { id } = await first<{ id: string }>(compilation);
  const asPlaylist = await getJson(`/amapi/custom/gb/playlistalbum/${id}`, playlistsDocumentSchema);
  expect(asPlaylist.data[0]?.attributes.playlistType).toBe("album");
  const videos = await getJson(
    `/amapi/custom/gb/musicvideosbyalbum/${id}`,
    v.object({ data: v.array(v.unknown()) }),
  );
  expect(videos.data).toEqual([]);
  const full = await getJson(`/amapi/custom/en/GB/album/shazamtracks/${id}/full`, shazamTracksSchema);
  expect(full.tracks.map((t) => t.albumadamid)).toEqual(full.tracks.map(() => id));
  const playlists = await getJson(`/amapi/custom/en/GB/playlistsbyalbum/${id}`, playlistsDocumentSchema);
  expect(playlists.data.length).toBeGreaterThan(0);
  const featured = await getJson(`/amapi/custom/en/GB/albumfeaturedin/${id}`, playlistsDocumentSchema);
  expect(featured.data.map((p) => p.id)).toContain("ip-world-chart");
});

test("an editorial playlist and its tracks in the track shape", async () => {
  const { id } = await first<{ id: string }>("SELECT id FROM playlists ORDER BY id LIMIT 1");
  const doc = await getJson(`/amapi/v1/catalog/gb/playlists/${id}`, playlistsDocumentSchema);
  expect(doc.data[0]?.attributes.playlistType).toBe("editorial");
  const full = await getJson(`/amapi/custom/en/GB/playlist/shazamtracks/${id}/full`, shazamTracksSchema);
  expect(full.tracks.map((t) => t.trackadamid)).toEqual(
    doc.data[0]?.relationships?.tracks?.data.map((s) => s.id),
  );
});

test("search finds songs and artists, three at a time, with next links", async () => {
  const artist = await first<{ name: string }>(busiestArtist);
  const term = artist.name.split(" ")[0]?.toLowerCase() ?? "";
  const page = await getJson(
    `/amapi/v1/catalog/gb/search?types=songs,artists&term=${encodeURIComponent(term)}&limit=3`,
    searchResultsSchema,
  );
  expect(page.results.songs?.data.length).toBe(3);
  expect(page.results.artists?.data[0]?.attributes.name).toBe(artist.name);
  const next = page.results.songs?.next;
  expect(next).toMatch(/^\/v1\/catalog\/gb\/search\?offset=3&/);
  const second = await getJson(`/amapi${next}&limit=3`, searchResultsSchema);
  expect(second.results.artists).toBeUndefined();
  const ids = [...(page.results.songs?.data ?? []), ...(second.results.songs?.data ?? [])].map((s) => s.id);
  expect(new Set(ids).size).toBe(ids.length);
});

test("a search without matches answers empty groups without next links", async () => {
  const page = await getJson(
    "/amapi/v1/catalog/gb/search?types=songs,artists&term=zzqqxx&limit=3",
    searchResultsSchema,
  );
  expect(page.results.songs).toEqual({ href: expect.any(String), data: [] });
  expect(page.results.artists?.data).toEqual([]);
});

test.each([
  ["songs without ids", "/amapi/v1/catalog/gb/songs", 400],
  ["songs with a bad id", "/amapi/v1/catalog/gb/songs?ids=12,abc", 400],
  ["unknown songs", "/amapi/v1/catalog/gb/songs?ids=1,2", 404],
  ["an unknown song", "/amapi/v1/catalog/gb/songs/1", 404],
  ["an unknown artist", "/amapi/v1/catalog/gb/artists/1", 404],
  ["an unknown extension", "/amapi/v1/catalog/gb/artists/1?extend=birthday", 400],
  ["an unknown view", "/amapi/v1/catalog/gb/artists/1?views=fans", 400],
  ["an unknown album", "/amapi/v1/catalog/gb/albums/1", 404],
  ["an unknown custom album", "/amapi/custom/gb/albums/1", 404],
  ["an unknown playlist", "/amapi/v1/catalog/gb/playlists/pl.nothing", 404],
  ["a search without a term", "/amapi/v1/catalog/gb/search?types=songs", 400],
  ["a search of an unknown type", "/amapi/v1/catalog/gb/search?types=videos&term=a", 400],
  ["a search over the page limit", "/amapi/v1/catalog/gb/search?types=songs&term=a&limit=26", 400],
  ["an unknown storefront", "/amapi/v1/catalog/xx/search?term=a", 400],
])("%s answers %i", async (_, path, status) => {
  const response = await get(path);
  expect(response.status, path).toBe(status);
  expect(v.parse(serviceErrorSchema, await response.json()).error).toBe(
    status === 404 ? "notfound" : "invalidparam",
  );
});
