import type * as v from "valibot";
import { catalog, maxSearchLimit, requestOf, searchTypes } from "#origin/amapi.ts";
import { SearchTerm, searchArtists, searchSongs } from "#origin/catalogue-search.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, invalidParam, json } from "#origin/http.ts";
import { artistResource, songResource, storefront } from "#origin/shapes.ts";
import { searchPageSize } from "#rules/content-rules.ts";
import type { searchResultsSchema } from "#rules/schemas/amapi.ts";

/** Spec 000 §7 catalogue search. */
export function registerCatalogSearch(origin: OriginApp) {
  /** Spec 000 §7 catalogue search: types=songs,artists, term, limit=3; next links per group. */
  origin.get(`${catalog}/search`, async (c) => {
    const { ctx, query } = requestOf(c);
    const term = (query.term ?? "").trim();
    if (term.length === 0 || term.length > 100) throw invalidParam("term must be 1 to 100 characters");
    const types = query.types ?? [...searchTypes];
    if (types.length === 0) throw invalidParam("types is required");
    const limit = query.limit ?? searchPageSize;
    if (limit > maxSearchLimit) throw invalidParam(`limit must be at most ${maxSearchLimit}`);
    const offset = query.offset ?? 0;
    const sf = storefront(ctx);
    const href = (type: string, at: number) =>
      `/v1/catalog/${sf}/search?offset=${at}&term=${encodeURIComponent(query.term ?? "")}&types=${type}`;
    const results: v.InferInput<typeof searchResultsSchema>["results"] = {};
    const searched = new SearchTerm(c.var.db, term);

    if (types.includes("songs")) {
      const songs = await searchSongs(searched, offset, limit);
      results.songs = {
        href: href("songs", offset),
        ...(songs.more ? { next: href("songs", offset + limit) } : {}),
        data: songs.hits.map((hit) => songResource(hit.row, ctx)),
      };
    }
    if (types.includes("artists")) {
      const artists = await searchArtists(searched, offset, limit);
      results.artists = {
        href: href("artists", offset),
        ...(artists.more ? { next: href("artists", offset + limit) } : {}),
        data: artists.hits.map((hit) => artistResource(hit.row, ctx, new Set())),
      };
    }
    return json(c, { results }, cachePolicy.catalogue);
  });
}
