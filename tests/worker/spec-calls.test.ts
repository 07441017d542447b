import { env, SELF } from "cloudflare:test";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { searchPageSize, trackSearchPageSize } from "#rules/content-rules.ts";
import { searchNextOf, searchResponseSchema } from "#rules/schemas/search.ts";

// The calls of spec 000 §7, 001 §7 and 002 §7 that decision 026 added, each against the embedded
// origin through the worker (docs/calls.md lists every call and its test).

const site = "https://tunewave.test";

async function getJson(path: string) {
  const response = await SELF.fetch(`${site}${path}`);
  return { status: response.status, body: (await response.json()) as unknown };
}

/** A term many songs match: the first letter of the artist with the most tracks. */
async function busyTerm(): Promise<{ term: string; artist: string }> {
  const row = await env.DB.prepare(
    "SELECT a.name AS name FROM tracks t JOIN artists a ON a.id = t.artist_id GROUP BY a.id ORDER BY COUNT(*) DESC LIMIT 1",
  ).first<{ name: string }>();
  const artist = row?.name ?? "";
  return { term: artist.slice(0, 1), artist };
}

describe("spec 002 §7 search", () => {
  test("GET search: defaults pageSize 3 and limit 3, a top result, a next link rewritten to /services/search/", async () => {
    const { term } = await busyTerm();
    const { status, body } = await getJson(`/services/search/v1/en/GB/web?query=${encodeURIComponent(term)}`);
    expect(status).toBe(200);
    const answer = v.parse(searchResponseSchema, body);
    expect(answer.tracks?.hits).toHaveLength(searchPageSize);
    expect(answer.artists?.hits.length).toBeLessThanOrEqual(searchPageSize);
    expect(answer.topresult).toBeDefined();
    // The provider's next link is on its own root; the site asks it through the proxy.
    expect(answer.next).toMatch(/^\/search\/v1\/en\/GB\/web\?/);
    const next = searchNextOf(answer.next);
    expect(next).toMatch(/^\/services\/search\/v1\/en\/GB\/web\?.*page=1/);
    const second = v.parse(searchResponseSchema, (await getJson(next ?? "")).body);
    const firstKeys = answer.tracks?.hits.map((hit) => hit.track.key);
    for (const hit of second.tracks?.hits ?? []) expect(firstKeys).not.toContain(hit.track.key);
  });

  test("track search: pageSize default 10, tracks only", async () => {
    const { term } = await busyTerm();
    const { status, body } = await getJson(
      `/services/search/v1/en/GB/web/tracks?query=${encodeURIComponent(term)}`,
    );
    expect(status).toBe(200);
    const answer = v.parse(searchResponseSchema, body);
    expect(answer.tracks?.hits).toHaveLength(trackSearchPageSize);
    expect(answer.artists).toBeUndefined();
    expect(searchNextOf(answer.next)).toMatch(/^\/services\/search\/v1\/en\/GB\/web\/tracks\?.*page=1/);
  });

  test.each([
    ["no query", "/services/search/v1/en/GB/web"],
    ["an empty query", "/services/search/v1/en/GB/web?query=%20"],
    ["a page size over 25", "/services/search/v1/en/GB/web?query=a&pageSize=26"],
    ["an unknown country", "/services/search/v1/en/XX/web?query=a"],
    ["an unknown platform", "/services/search/v1/en/GB/android?query=a"],
  ])("%s is invalidparam (400)", async (_name, path) => {
    const { status, body } = await getJson(path);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "invalidparam" });
  });

  test.each([
    [
      "https://search.provider.example/search/v1/en/GB/web?query=a&page=2",
      "/services/search/v1/en/GB/web?query=a&page=2",
    ],
    ["/services/search/v1/de/DE/iphone/tracks?page=1", "/services/search/v1/de/DE/iphone/tracks?page=1"],
    ["/v1/catalog/gb/search?offset=3", undefined],
    ["javascript:alert(1)", undefined],
    ["/search/v1/en/GB/web/../../account/tags?x", undefined],
  ])("a next link %s becomes %s", (next, expected) => {
    expect(searchNextOf(next)).toBe(expected);
  });

  test("the search page shows the top result above the songs of the track search", async () => {
    const { artist } = await busyTerm();
    const response = await SELF.fetch(`${site}/search?term=${encodeURIComponent(artist)}`);
    const html = await response.text();
    expect(response.status).toBe(200);
    const top = /<section class="section search-top"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(top).toContain("Top result");
    // Typed whole, the artist's name is the top result, linking to the artist page.
    expect(top).toMatch(/class="search-top__name"[^>]*href="\/artist\//);
    expect(top).toContain(artist.replaceAll("&", "&amp;"));
    expect(html.indexOf('class="section search-top"')).toBeLessThan(html.indexOf('id="search-songs"'));
  });

  test("past the first page there is no top result", async () => {
    const { term } = await busyTerm();
    const html = await (await SELF.fetch(`${site}/search?term=${encodeURIComponent(term)}&songs=10`)).text();
    expect(html).not.toContain('class="section search-top"');
    expect(html).toContain('id="search-songs"');
  });
});

describe("spec 001 §9 lyric sample 150 and snippet 100", () => {
  test("the track page's description carries a snippet of at most 100, its JSON-LD a sample of at most 150", async () => {
    const row = await env.DB.prepare(
      "SELECT t.key, t.alias FROM tracks t JOIN lyrics l ON l.track_key = t.key ORDER BY t.key LIMIT 1",
    ).first<{
      key: number;
      alias: string;
    }>();
    expect(row).not.toBeNull();
    const html = await (await SELF.fetch(`${site}/track/${row?.key}/${row?.alias}`)).text();
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "";
    const snippet = description.split(" — ")[1] ?? "";
    expect(snippet.length).toBeGreaterThan(0);
    expect(snippet.length).toBeLessThanOrEqual(100);
    const jsonLd = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1] ?? "{}";
    const sample: string = JSON.parse(jsonLd).recordingOf?.lyrics?.text ?? "";
    expect(sample.length).toBeGreaterThan(snippet.length);
    expect(sample.length).toBeLessThanOrEqual(150);
    expect(sample.startsWith(snippet.replace(/…$/, ""))).toBe(true);
  });
});

describe("spec 001 §7 tag count list", () => {
  test("repeated id= answers the known ids in order; the track page's related songs show their counts", async () => {
    const { results } = await env.DB.prepare("SELECT key, alias FROM tracks ORDER BY key LIMIT 2").all<{
      key: number;
      alias: string;
    }>();
    const [first, second] = results;
    const { status, body } = await getJson(
      `/services/count/v2/web/tracks?id=${second?.key}&id=999999999999&id=${first?.key}`,
    );
    expect(status).toBe(200);
    expect((body as { id: string }[]).map((item) => item.id)).toEqual([
      String(second?.key),
      String(first?.key),
    ]);
    const html = await (await SELF.fetch(`${site}/track/${first?.key}/${first?.alias}`)).text();
    const related = /<section class="section" aria-labelledby="track-related-title">[\s\S]*?<\/section>/.exec(
      html,
    )?.[0];
    expect(related).toMatch(/class="track-row__note">Identified [\d,]+ times?</);
  });
});
