import { env } from "cloudflare:test";
import * as v from "valibot";
import { expect, test } from "vitest";
import { createOrigin } from "#origin/index.ts";
import {
  catalogueArtistsPageSchema,
  catalogueListingMaxLimit,
  catalogueTracksPageSchema,
} from "#rules/schemas/catalogue.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";

const origin = createOrigin();

function get(path: string): Promise<Response> {
  return Promise.resolve(origin.fetch(new Request(`https://example.com${path}`), env));
}

/** Every item of a listing, page by page through `next`, and the number of pages. */
async function walk<Item>(
  first: string,
  parse: (json: unknown) => { data: Item[]; next?: string | undefined },
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let pages = 0;
  for (let path: string | undefined = first; path !== undefined; pages += 1) {
    const response = await get(path);
    expect(response.status, path).toBe(200);
    expect(response.headers.get("cache-control")).toContain("public");
    const page = parse(await response.json());
    items.push(...page.data);
    path = page.next;
  }
  return { items, pages };
}

const tracksPage = (json: unknown) => v.parse(catalogueTracksPageSchema, json);
const artistsPage = (json: unknown) => v.parse(catalogueArtistsPageSchema, json);

test("the track listing gives every track once, in key order, dated by when it was added", async () => {
  const { results } = await env.DB.prepare("SELECT key, alias, added_date FROM tracks ORDER BY key").all<{
    key: number;
    alias: string;
    added_date: string;
  }>();
  const expected = results.map((row) => ({
    key: String(row.key),
    alias: row.alias,
    lastModified: row.added_date,
  }));
  const whole = await walk("/services/catalogue/v1/tracks", tracksPage);
  expect(whole).toEqual({ items: expected, pages: 1 });
  // Small pages: the same tracks, continued after the last key of each page.
  const paged = await walk("/services/catalogue/v1/tracks?limit=10", tracksPage);
  expect(paged.items).toEqual(expected);
  expect(paged.pages).toBe(Math.floor(expected.length / 10) + 1);
});

test("the artist listing gives every artist once, dated by its newest track", async () => {
  const { results } = await env.DB.prepare(
    "SELECT a.id, a.adamid, a.alias, MAX(t.added_date) AS newest FROM artists a JOIN tracks t ON t.artist_id = a.id GROUP BY a.id ORDER BY a.id",
  ).all<{ id: number; adamid: string; alias: string; newest: string }>();
  const { items } = await walk("/services/catalogue/v1/artists?limit=5", artistsPage);
  expect(items).toEqual(
    results.map((row) => ({
      shazamId: String(row.id),
      adamid: row.adamid,
      alias: row.alias,
      lastModified: row.newest,
    })),
  );
});

test("a listing's limit is checked", async () => {
  for (const query of ["limit=0", `limit=${catalogueListingMaxLimit + 1}`, "limit=ten", "after=-1"]) {
    const response = await get(`/services/catalogue/v1/tracks?${query}`);
    expect(response.status, query).toBe(400);
    expect(v.parse(serviceErrorSchema, await response.json()).error).toBe("invalidparam");
  }
});
