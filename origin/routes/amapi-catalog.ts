import * as v from "valibot";
import {
  albumDocument,
  catalog,
  defaultViewLimit,
  idList,
  idOf,
  loadPlaylist,
  maxPage,
  playlistCacheControl,
  relateOf,
  requestOf,
  requireAlbum,
} from "#origin/amapi.ts";
import { artistView } from "#origin/artist-views.ts";
import { artistBy } from "#origin/db/artists.ts";
import { artistTracks, tracksByAdamIds, tracksByKeys } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, invalidParam, json, notFound, parseParams } from "#origin/http.ts";
import {
  type ArtistExtension,
  artistResource,
  playlistResource,
  songResource,
  storefront,
} from "#origin/shapes.ts";
import type {
  artistViewSchema,
  creditsDocumentSchema,
  playlistTracksDocumentSchema,
} from "#rules/schemas/amapi.ts";
import { type ArtistViewName, artistViewNames } from "#rules/schemas/amapi.ts";

// The catalogue API's resources by id (spec 001 §7): songs and their credits, artists and their
// views, albums, playlists and chart lists.

/** Songs, credits, artists and their views, albums and playlists by id. */

export function registerCatalogResources(origin: OriginApp) {
  /** Spec 001 §7 songs with ids and include; the same with filter[equivalents]. */
  origin.get(`${catalog}/songs`, async (c) => {
    const { ctx, query } = requestOf(c);
    const text = query.ids ?? query["filter[equivalents]"];
    if (text === undefined) throw invalidParam("ids or filter[equivalents] is required");
    const rows = await tracksByAdamIds(c.var.db, idList(text));
    if (rows.length === 0) throw notFound(`No songs ${text}`);
    const relate = await relateOf(c.var.db, query, rows);
    return json(c, { data: rows.map((row) => songResource(row, ctx, relate)) }, cachePolicy.catalogue);
  });

  origin.get(`${catalog}/songs/:id`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = idOf(c, "Song");
    const rows = await tracksByAdamIds(c.var.db, [id]);
    if (rows.length === 0) throw notFound(`No song ${id}`);
    const relate = await relateOf(c.var.db, query, rows);
    return json(c, { data: rows.map((row) => songResource(row, ctx, relate)) }, cachePolicy.catalogue);
  });

  /** Spec 001 §7 songs/{id}/credits?l={locale}. */
  origin.get(`${catalog}/songs/:id/credits`, async (c) => {
    requestOf(c);
    const id = idOf(c, "Song");
    const [row] = await tracksByAdamIds(c.var.db, [id]);
    if (!row) throw notFound(`No song ${id}`);
    const person = (roleNames: string[]) => [
      {
        id: row.artist_adamid,
        type: "credit-artists" as const,
        attributes: { name: row.artist_name, roleNames },
      },
    ];
    const body: v.InferInput<typeof creditsDocumentSchema> = {
      data: [
        {
          id: `${id}-performers`,
          type: "credit-categories",
          attributes: { title: "Performers", kind: "performer" },
          relationships: { "credit-artists": { data: person(["Performer"]) } },
        },
        {
          id: `${id}-composition`,
          type: "credit-categories",
          attributes: { title: "Composition & Lyrics", kind: "composer" },
          relationships: { "credit-artists": { data: person(["Composer"]) } },
        },
      ],
    };
    return json(c, body, cachePolicy.catalogue);
  });

  /** Spec 001 §7 artists/{id} with extend and views. */
  origin.get(`${catalog}/artists/:id`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = idOf(c, "Artist");
    const artist = await artistBy(c.var.db, "adamid", id);
    if (!artist) throw notFound(`No artist ${id}`);
    const views: Partial<Record<ArtistViewName, v.InferInput<typeof artistViewSchema>>> = {};
    for (const view of query.views ?? []) {
      views[view] = await artistView(c.var.db, artist, view, ctx, query.limit ?? defaultViewLimit, 0);
    }
    const own = await artistTracks(c.var.db, artist.id);
    const sf = storefront(ctx);
    const resource = {
      ...artistResource(artist, ctx, new Set<ArtistExtension>(query.extend ?? [])),
      relationships: {
        albums: {
          href: `/v1/catalog/${sf}/artists/${artist.adamid}/albums`,
          data: [...new Set(own.map((t) => t.album_id))].map((albumId) => ({
            id: albumId,
            type: "albums",
            href: `/v1/catalog/${sf}/albums/${albumId}`,
          })),
        },
      },
      ...(query.views ? { views } : {}),
    };
    return json(c, { data: [resource] }, cachePolicy.catalogue);
  });

  origin.get(`${catalog}/artists/:id/view/:view`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = idOf(c, "Artist");
    const view = parseParams(
      v.picklist(artistViewNames, `view must be among ${artistViewNames.join(", ")}`),
      c.req.param("view"),
    );
    const artist = await artistBy(c.var.db, "adamid", id);
    if (!artist) throw notFound(`No artist ${id}`);
    return json(
      c,
      await artistView(c.var.db, artist, view, ctx, query.limit ?? defaultViewLimit, query.offset ?? 0),
      cachePolicy.catalogue,
    );
  });

  origin.get(`${catalog}/albums/:id`, async (c) => {
    const { ctx } = requestOf(c);
    const album = await requireAlbum(c.var.db, idOf(c, "Album"));
    return json(c, await albumDocument(c.var.db, album, ctx), cachePolicy.catalogue);
  });

  origin.get(`${catalog}/playlists/:id`, async (c) => {
    const { ctx, query } = requestOf(c);
    const { like, keys, chart } = await loadPlaylist(c.var.db, c.req.param("id"));
    const rows = await tracksByKeys(c.var.db, keys.slice(0, query.limit ?? maxPage));
    const relate = await relateOf(c.var.db, query, rows);
    return json(
      c,
      { data: [playlistResource(like, ctx, { data: rows.map((r) => songResource(r, ctx, relate)) })] },
      playlistCacheControl(chart),
    );
  });

  /**
   * Spec 001 §7 chart lists: the playlist's tracks with the chart's page size (limit), relate[songs]
   * and include; itsct is accepted and does not change the answer.
   */
  origin.get(`${catalog}/playlists/:id/tracks`, async (c) => {
    const { ctx, query } = requestOf(c);
    const id = c.req.param("id");
    const { keys, chart } = await loadPlaylist(c.var.db, id);
    const limit = query.limit ?? maxPage;
    const offset = query.offset ?? 0;
    const rows = await tracksByKeys(c.var.db, keys.slice(offset, offset + limit));
    const relate = await relateOf(c.var.db, query, rows);
    const body: v.InferInput<typeof playlistTracksDocumentSchema> = {
      data: rows.map((row) => songResource(row, ctx, relate)),
      ...(offset + limit < keys.length
        ? { next: `/v1/catalog/${storefront(ctx)}/playlists/${id}/tracks?offset=${offset + limit}` }
        : {}),
      meta: {
        total: keys.length,
        // The order's own recompute, read with its scores, and whether it is seeded (decision 032).
        ...(chart ? { computedAt: chart.computedAt, demo: chart.demo } : {}),
      },
    };
    return json(c, body, playlistCacheControl(chart));
  });
}
