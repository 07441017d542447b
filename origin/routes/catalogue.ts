import * as v from "valibot";
import { albumListing } from "#origin/db/albums.ts";
import { artistListing } from "#origin/db/artists.ts";
import { playlistListing } from "#origin/db/playlists.ts";
import { trackListing } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, intParam, json, parseParams } from "#origin/http.ts";
import { type CatalogueListing, catalogueListingServicePath } from "#rules/addresses.ts";
import {
  type catalogueAlbumsPageSchema,
  type catalogueArtistsPageSchema,
  catalogueListingMaxLimit,
  cataloguePlaylistIdSchema,
  type cataloguePlaylistsPageSchema,
  type catalogueTracksPageSchema,
} from "#rules/schemas/catalogue.ts";

const listingQuerySchema = v.object({
  limit: intParam("limit", 1, catalogueListingMaxLimit),
  after: intParam("after", 0, Number.MAX_SAFE_INTEGER),
});

/** Playlists continue after a text id. */
const playlistListingQuerySchema = v.object({
  limit: intParam("limit", 1, catalogueListingMaxLimit),
  after: v.optional(cataloguePlaylistIdSchema),
});

/** The following page's path: only when this one is full (a last full page is followed by an empty one). */
function nextPage(
  listing: CatalogueListing,
  limit: number,
  count: number,
  lastId: number | string | undefined,
): string | undefined {
  if (count < limit || lastId === undefined) return undefined;
  return catalogueListingServicePath(listing, { limit, after: lastId });
}

/**
 * The catalogue listings the sitemaps are made of (rules/schemas/catalogue.ts): every track, artist,
 * album and playlist, in pages, ordered by id and continued after the last id (a page stays the same page when
 * tracks are added, unlike an offset), with the date each last changed.
 */
export function registerCatalogue(origin: OriginApp) {
  origin.get("/catalogue/v1/tracks", async (c) => {
    const { limit = catalogueListingMaxLimit, after = 0 } = parseParams(listingQuerySchema, c.req.query());
    const rows = await trackListing(c.var.db, after, limit);
    const body: v.InferInput<typeof catalogueTracksPageSchema> = {
      data: rows.map((row) => ({ key: String(row.key), alias: row.alias, lastModified: row.added_date })),
      next: nextPage("tracks", limit, rows.length, rows.at(-1)?.key),
    };
    return json(c, body, cachePolicy.catalogue);
  });

  origin.get("/catalogue/v1/artists", async (c) => {
    const { limit = catalogueListingMaxLimit, after = 0 } = parseParams(listingQuerySchema, c.req.query());
    const rows = await artistListing(c.var.db, after, limit);
    const body: v.InferInput<typeof catalogueArtistsPageSchema> = {
      data: rows.map((row) => ({
        shazamId: String(row.id),
        adamid: row.adamid,
        alias: row.alias,
        ...(row.last_modified ? { lastModified: row.last_modified } : {}),
      })),
      next: nextPage("artists", limit, rows.length, rows.at(-1)?.id),
    };
    return json(c, body, cachePolicy.catalogue);
  });

  origin.get("/catalogue/v1/albums", async (c) => {
    const { limit = catalogueListingMaxLimit, after = 0 } = parseParams(listingQuerySchema, c.req.query());
    const rows = await albumListing(c.var.db, after, limit);
    const body: v.InferInput<typeof catalogueAlbumsPageSchema> = {
      data: rows.map((row) => ({
        id: row.id,
        alias: row.alias,
        ...(row.last_modified ? { lastModified: row.last_modified } : {}),
      })),
      next: nextPage("albums", limit, rows.length, rows.at(-1)?.id),
    };
    return json(c, body, cachePolicy.catalogue);
  });

  origin.get("/catalogue/v1/playlists", async (c) => {
    const { limit = catalogueListingMaxLimit, after = "" } = parseParams(
      playlistListingQuerySchema,
      c.req.query(),
    );
    const rows = await playlistListing(c.var.db, after, limit);
    const body: v.InferInput<typeof cataloguePlaylistsPageSchema> = {
      data: rows.map((row) => ({ id: row.id, lastModified: row.last_modified })),
      next: nextPage("playlists", limit, rows.length, rows.at(-1)?.id),
    };
    return json(c, body, cachePolicy.catalogue);
  });
}
