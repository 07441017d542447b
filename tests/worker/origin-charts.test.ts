import { env } from "cloudflare:test";
import * as v from "valibot";
import { expect, test } from "vitest";
import { cityScore, discoveryScore } from "#origin/catalog-rules.ts";
import { createOrigin } from "#origin/index.ts";
import { playlistsDocumentSchema, playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { chartLocationsSchema } from "#rules/schemas/charts.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";

const origin = createOrigin();

function get(path: string): Promise<Response> {
  return Promise.resolve(origin.fetch(new Request(`https://example.com/services${path}`), env));
}

async function getJson<const S extends v.GenericSchema>(path: string, schema: S): Promise<v.InferOutput<S>> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return v.parse(schema, await response.json());
}

async function trackCount(): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM tracks").first<{ n: number }>();
  return row?.n ?? 0;
}

async function keysOf(document: v.InferOutput<typeof playlistTracksDocumentSchema>): Promise<number[]> {
  return document.data.map((song) => Number(song.attributes.shazamKey));
}

test("locations list real countries with their cities, list ids and genre counts", async () => {
  const response = await get("/charts/locations");
  expect(response.headers.get("Cache-Control")).toBe("public, max-age=1800");
  const locations = v.parse(chartLocationsSchema, await response.json());
  const gb = locations.countries.find((c) => c.id === "GB");
  expect(gb).toMatchObject({
    urlName: "united-kingdom",
    locName: "United Kingdom",
    listid: "ip-country-chart-GB",
    momentum_listid: "ip-country-discovery-GB",
  });
  expect(gb?.cities.map((c) => c.locName)).toContain("London");
  expect(locations.countries.length).toBeGreaterThan(150);
  const genreTotal = locations.global.genres.reduce((sum, g) => sum + g.count, 0);
  expect(genreTotal).toBe(await trackCount());
});

test.each([
  ["country top 200", "ip-country-chart-GB", 200],
  ["world", "ip-world-chart", 200],
  ["discovery", "ip-country-discovery-DE", 200],
])("%s chart ranks every charting track, up to its size", async (_, listid, size) => {
  const doc = await getJson(
    `/amapi/v1/catalog/gb/playlists/${listid}/tracks?limit=${size}`,
    playlistTracksDocumentSchema,
  );
  expect(doc.data.length).toBe(Math.min(size, await trackCount()));
  expect(doc.meta.total).toBe(doc.data.length);
  expect(new Set(doc.data.map((s) => s.id)).size).toBe(doc.data.length);
});

test("a country chart is ranked by that country's tag counts", async () => {
  const doc = await getJson(
    "/amapi/v1/catalog/gb/playlists/ip-country-chart-FR/tracks?limit=200",
    playlistTracksDocumentSchema,
  );
  const { results } = await env.DB.prepare(
    "SELECT track_key FROM country_tag_counts WHERE country = 'FR' ORDER BY total DESC, track_key",
  ).all<{ track_key: number }>();
  expect(await keysOf(doc)).toEqual(results.map((r) => r.track_key));
});

test("a discovery chart is ranked by momentum, not by totals", async () => {
  const doc = await getJson(
    "/amapi/v1/catalog/gb/playlists/ip-country-discovery-FR/tracks",
    playlistTracksDocumentSchema,
  );
  const { results } = await env.DB.prepare(
    "SELECT track_key, total, recent FROM country_tag_counts WHERE country = 'FR'",
  ).all<{
    track_key: number;
    total: number;
    recent: number;
  }>();
  const score = new Map(results.map((r) => [r.track_key, discoveryScore(r.total, r.recent)]));
  const scores = (await keysOf(doc)).map((k) => score.get(k) ?? -1);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
});

test("a city chart has 50 tracks ranked by the city-weighted counts of its country", async () => {
  const city = await env.DB.prepare(
    "SELECT id, country FROM cities WHERE country = 'GB' ORDER BY population DESC",
  ).first<{ id: number; country: string }>();
  expect(city).not.toBeNull();
  const doc = await getJson(
    `/amapi/v1/catalog/gb/playlists/ip-city-chart-${city?.id}/tracks?limit=50`,
    playlistTracksDocumentSchema,
  );
  expect(doc.data.length).toBe(Math.min(50, await trackCount()));
  const { results } = await env.DB.prepare(
    "SELECT track_key, total FROM country_tag_counts WHERE country = 'GB'",
  ).all<{ track_key: number; total: number }>();
  const score = new Map(results.map((r) => [r.track_key, cityScore(r.total, r.track_key, city?.id ?? 0)]));
  const scores = (await keysOf(doc)).map((k) => score.get(k) ?? -1);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
});

test("a genre chart holds only that genre and has the genre's count", async () => {
  const locations = await getJson("/charts/locations", chartLocationsSchema);
  const genre = locations.countries.find((c) => c.id === "US")?.genres[0];
  expect(genre).toBeDefined();
  const doc = await getJson(
    `/amapi/v1/catalog/us/playlists/${genre?.listid}/tracks?limit=${genre?.count}`,
    playlistTracksDocumentSchema,
  );
  expect(doc.data.length).toBe(genre?.count);
  for (const song of doc.data) expect(song.attributes.genreNames[0]).toBe(genre?.name);
});

test("relate[songs]=artists adds artist references and include=artists their attributes", async () => {
  const related = await getJson(
    "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=5&relate[songs]=artists,music-videos&itsct=charts",
    playlistTracksDocumentSchema,
  );
  expect(related.data[0]?.relationships?.artists?.data[0]).not.toHaveProperty("attributes");
  expect(related.data[0]?.relationships?.["music-videos"]?.data).toEqual([]);
  const included = await getJson(
    "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=5&relate[songs]=artists&include=artists",
    playlistTracksDocumentSchema,
  );
  const artist = included.data[0]?.relationships?.artists?.data[0];
  expect(artist && "attributes" in artist ? artist.attributes?.name : undefined).toBe(
    included.data[0]?.attributes.artistName,
  );
});

test("paging a chart with limit and offset follows the next link", async () => {
  const first = await getJson(
    "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=10",
    playlistTracksDocumentSchema,
  );
  expect(first.next).toBe("/v1/catalog/gb/playlists/ip-world-chart/tracks?offset=10");
  const second = await getJson(`/amapi${first.next}&limit=10`, playlistTracksDocumentSchema);
  const all = await getJson(
    "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=20",
    playlistTracksDocumentSchema,
  );
  expect([...first.data, ...second.data].map((s) => s.id)).toEqual(all.data.map((s) => s.id));
});

test("a chart list is also a playlist resource with its name", async () => {
  const doc = await getJson("/amapi/v1/catalog/gb/playlists/ip-country-chart-GB", playlistsDocumentSchema);
  expect(doc.data[0]?.attributes).toMatchObject({ name: "Top 200: United Kingdom", playlistType: "chart" });
});

test.each([
  ["an unknown list id", "/amapi/v1/catalog/gb/playlists/ip-country-chart-QQ/tracks", 404],
  ["an unknown city", "/amapi/v1/catalog/gb/playlists/ip-city-chart-1/tracks", 404],
  ["an unknown genre", "/amapi/v1/catalog/gb/playlists/genre-global-chart-1/tracks", 404],
  ["a limit over 200", "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=201", 400],
  ["a limit that is not a number", "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=ten", 400],
  ["an unknown relation", "/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?relate[songs]=labels", 400],
  ["an unknown storefront", "/amapi/v1/catalog/zz/playlists/ip-world-chart/tracks", 400],
])("%s answers %i with a JSON error", async (_, path, status) => {
  const response = await get(path);
  expect(response.status).toBe(status);
  const body = v.parse(serviceErrorSchema, await response.json());
  expect(body.error).toBe(status === 404 ? "notfound" : "invalidparam");
  expect(response.headers.get("Cache-Control")).toBe(status === 404 ? "public, max-age=60" : "no-store");
});
