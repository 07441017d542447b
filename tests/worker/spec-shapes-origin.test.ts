import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import * as v from "valibot";
import { afterEach, expect, test, vi } from "vitest";
import { createOrigin } from "#origin/index.ts";
import { featureNodeSchema } from "#rules/feature-flags.ts";
import { artistViewSchema, creditsDocumentSchema, searchResultsSchema } from "#rules/schemas/amapi.ts";
import { syncedLyricsSchema } from "#rules/schemas/lyrics.ts";
import { searchResponseSchema } from "#rules/schemas/search.ts";
import { tagCountListSchema, tagCountSchema } from "#rules/schemas/tagcount.ts";
import { relatedTracksSchema, trackSchema } from "#rules/schemas/track.ts";
import worker from "./built-worker";

/**
 * The site against a remote upstream (`SERVICES_ORIGIN`) that speaks only the shapes the spec
 * names: every JSON answer of the remote is cut down to its schema's fields (valibot objects drop
 * unknown keys), so a page that needed a field of the embedded origin beyond the schema would fail
 * here. A call the table below does not know is answered 404 and recorded, and the test fails on it.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const remoteHost = "spec-shapes.example";

const shapes: [RegExp, v.GenericSchema][] = [
  [/^\/services\/track\/v1\/[^/]+\/[A-Z]{2}\/(web|iphone)\/\d+$/, trackSchema],
  [/^\/services\/track\/v1\/[^/]+\/[A-Z]{2}\/(web|iphone)\/\d+\/related$/, relatedTracksSchema],
  [/^\/services\/count\/v2\/web\/track\/\d+$/, tagCountSchema],
  [/^\/services\/count\/v2\/web\/tracks$/, tagCountListSchema],
  [/^\/services\/lyrics\/v1\/[A-Za-z]{2}\/songs\/\d+\/synced$/, syncedLyricsSchema],
  [/^\/services\/amapi\/v1\/catalog\/[a-z]{2}\/artists\/\d+\/view\/top-songs$/, artistViewSchema],
  [/^\/services\/amapi\/v1\/catalog\/[a-z]{2}\/search$/, searchResultsSchema],
  // Spec 000 §7 song credits (the track page shows who performed and wrote the song).
  [/^\/services\/amapi\/v1\/catalog\/[a-z]{2}\/songs\/\d+\/credits$/, creditsDocumentSchema],
  [/^\/services\/search\/v1\/[^/]+\/[A-Z]{2}\/web(\/tracks)?$/, searchResponseSchema],
  // Spec 000 §7: the feature config, which the document cache's key reads (edge/document-cache.ts).
  [
    /^\/services\/config\/features\.json$/,
    v.object({ featureflags: v.record(v.string(), featureNodeSchema) }),
  ],
];

async function pageFromSpecShapedRemote(path: string) {
  const origin = createOrigin();
  const unknownCalls: string[] = [];
  const shapedCalls: string[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.host !== remoteHost) return realFetch(input, init);
    const schema = shapes.find(([pattern]) => pattern.test(url.pathname))?.[1];
    if (!schema) {
      unknownCalls.push(url.pathname);
      return Response.json({ error: "notfound", message: "not a spec call" }, { status: 404 });
    }
    shapedCalls.push(url.pathname);
    const answer = await origin.fetch(request, env);
    if (!answer.ok) return answer;
    const shaped = v.parse(schema, await answer.json());
    return Response.json(shaped, { headers: { "cache-control": answer.headers.get("cache-control") ?? "" } });
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    // A person in a known country: a request with neither is itself an error statistic (decision 026).
    new Request(`https://example.com${path}`, {
      redirect: "manual",
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36" },
      cf: { country: "GB" },
    }),
    { ...env, SERVICES_ORIGIN: `https://${remoteHost}` },
    ctx,
  );
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, html, unknownCalls, shapedCalls };
}

test("the track page: heading, related songs with counts, lyrics, from spec-shaped answers only", async () => {
  const row = await env.DB.prepare(
    "SELECT t.key, t.alias, t.title FROM tracks t JOIN lyrics l ON l.track_key = t.key ORDER BY t.key LIMIT 1",
  ).first<{ key: number; alias: string; title: string }>();
  const page = await pageFromSpecShapedRemote(`/track/${row?.key}/${row?.alias}`);
  expect(page.unknownCalls).toEqual([]);
  expect(page.status).toBe(200);
  expect(page.html).toContain(row?.title.replaceAll("&", "&amp;").replaceAll("'", "&#x27;"));
  expect(page.html).toContain('aria-labelledby="track-related-title"');
  expect(page.html).toMatch(/class="track-row__note">Identified/);
  expect(page.shapedCalls.some((call) => call.endsWith("/related"))).toBe(true);
  expect(page.shapedCalls).toContain("/services/count/v2/web/tracks");
});

test("the search page: the top result, songs of the track search, artists, from spec-shaped answers only", async () => {
  const row = await env.DB.prepare("SELECT name FROM artists ORDER BY id LIMIT 1").first<{ name: string }>();
  const page = await pageFromSpecShapedRemote(`/search?term=${encodeURIComponent(row?.name ?? "")}`);
  expect(page.unknownCalls).toEqual([]);
  expect(page.status).toBe(200);
  expect(page.html).toContain('class="section search-top"');
  expect(page.html).toMatch(/class="track-row__title"/);
  expect(page.shapedCalls.filter((call) => call.startsWith("/services/search/"))).toHaveLength(2);
});
