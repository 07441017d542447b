import type { AppLoadContext } from "@remix-run/cloudflare";
import { isAdamIdRouteOn } from "#app/artist/artist.server.ts";
import { chartPagePaths, loadLocations } from "#app/charts/chart-address.server.ts";
import { featureOptionsOf } from "#app/shell/features.server.ts";
import type { RequestContext } from "#edge/request-context.ts";
import {
  albumPath,
  artistPath,
  catalogueListingServicePath,
  eventPath,
  eventsServicePath,
  playlistPath,
  radioSpinsPath,
  trackPath,
} from "#rules/addresses.ts";
import { siteOriginOf } from "#rules/env.ts";
import { SiteError } from "#rules/errors.ts";
import { servicesPathOfNext } from "#rules/events.ts";
import {
  catalogueAlbumsPageSchema,
  catalogueArtistsPageSchema,
  catalogueListingMaxLimit,
  cataloguePlaylistsPageSchema,
  catalogueTracksPageSchema,
} from "#rules/schemas/catalogue.ts";
import { eventsDocumentSchema } from "#rules/schemas/events.ts";
import {
  localizedSitemapUrls,
  newestLastmod,
  type SitemapLimits,
  type SitemapPage,
  type SitemapReference,
  type SitemapUrl,
  sitemapLimits,
  splitSitemap,
} from "./sitemaps";

/**
 * What the sitemaps list, read through the services proxy like every page's data (so a remote
 * origin answers it too): one sitemap type per kind of page, each split into as many files as the
 * protocol's limits need. Only canonical, indexable pages: no AMP form (each page names its own),
 * no search results, nothing signed-in.
 */

type Context = Pick<AppLoadContext, "edge" | "services" | "config">;

export type SitemapType = {
  /** The type's name in its file names: `/sitemaps/{name}-{n}.xml`. */
  name: string;
  /** The pages of the type, in no language. */
  pages(context: Context, request: Request): Promise<SitemapPage[]>;
};

/** Pages that are not made of catalogue data and are meant to be found (the others say noindex). */
export const staticPagePaths = [
  "/",
  "/charts",
  "/concerts",
  "/identify",
  "/apps",
  "/company",
  "/careers",
  "/developers",
  "/terms",
  "/privacy",
  "/privacy/policy",
  "/privacy/data-categories",
  "/privacy/transfer-notice",
];

/** Pages of a listing past this many are refused: a listing that never ends is a broken upstream. */
const maxListingPages = 10_000;

/** Every item of a paged catalogue listing, following its `next` links. */
async function walkListing<Item>(
  first: string,
  loadPage: (path: string) => Promise<{ data: Item[]; next?: string | undefined }>,
): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  for (let path: string | undefined = first; path !== undefined; ) {
    if (seen.has(path) || seen.size === maxListingPages)
      throw new SiteError("baddata", `The listing ${first} does not end`);
    seen.add(path);
    const page = await loadPage(path);
    items.push(...page.data);
    path = page.next;
  }
  return items;
}

/**
 * The visitor a sitemap is made for: a crawler, with no visitor or install id and not in the app,
 * so that a feature switch on a partial rollout gives the addresses a crawler's own visit gives.
 */
function asCrawler(edge: RequestContext): RequestContext {
  return { ...edge, webId: undefined, inid: undefined, inApp: false };
}

/** The sitemap types, in the index's order. */
export const sitemapTypes: readonly SitemapType[] = [
  {
    name: "pages",
    pages: async () => staticPagePaths.map((path) => ({ path })),
  },
  {
    name: "charts",
    pages: async (context) => chartPagePaths(await loadLocations(context)).map((path) => ({ path })),
  },
  {
    name: "radio",
    pages: async (context) =>
      (await loadLocations(context)).global.genres
        .filter((genre) => genre.count > 0)
        .map((genre) => ({ path: radioSpinsPath(genre.urlName) })),
  },
  {
    // Upcoming concerts everywhere (no country filter): a past concert's page still answers, but
    // is no longer worth a crawler's visit.
    name: "concerts",
    pages: async ({ services }) => {
      const events = await walkListing(
        eventsServicePath("GB", { l: "en", "filter[isFuture]": "true" }),
        async (path) => {
          const page = await services.getJson(path, eventsDocumentSchema);
          return { data: page.data, next: page.next ? servicesPathOfNext(page.next) : undefined };
        },
      );
      return events.map((event) => ({ path: eventPath(event.id) }));
    },
  },
  {
    name: "tracks",
    pages: async ({ services }) => {
      const tracks = await walkListing(
        catalogueListingServicePath("tracks", { limit: catalogueListingMaxLimit }),
        (path) => services.getJson(path, catalogueTracksPageSchema),
      );
      return tracks.map((track) => ({
        path: trackPath(track.key, track.alias),
        lastmod: track.lastModified,
      }));
    },
  },
  {
    name: "artists",
    pages: async (context, request) => {
      const crawler = { ...context, edge: asCrawler(context.edge), account: null };
      const [adamIdRoute, artists] = await Promise.all([
        isAdamIdRouteOn(crawler, featureOptionsOf(context, request)),
        walkListing(catalogueListingServicePath("artists", { limit: catalogueListingMaxLimit }), (path) =>
          context.services.getJson(path, catalogueArtistsPageSchema),
        ),
      ]);
      return artists.map((artist) => ({
        path: artistPath(artist, adamIdRoute),
        lastmod: artist.lastModified,
      }));
    },
  },
  {
    name: "albums",
    pages: async ({ services }) => {
      const albums = await walkListing(
        catalogueListingServicePath("albums", { limit: catalogueListingMaxLimit }),
        (path) => services.getJson(path, catalogueAlbumsPageSchema),
      );
      return albums.map((album) => ({ path: albumPath(album.id, album.alias), lastmod: album.lastModified }));
    },
  },
  {
    name: "playlists",
    pages: async ({ services }) => {
      const playlists = await walkListing(
        catalogueListingServicePath("playlists", { limit: catalogueListingMaxLimit }),
        (path) => services.getJson(path, cataloguePlaylistsPageSchema),
      );
      return playlists.map((playlist) => ({
        path: playlistPath(playlist.id),
        lastmod: playlist.lastModified,
      }));
    },
  },
];

/** A sitemap file's path: the type's name and its number, from 1. */
export function sitemapFilePath(type: string, index: number): string {
  return `/sitemaps/${type}-${index + 1}.xml`;
}

/** The type and index of a sitemap file's name (`tracks-2.xml`), or undefined for any other name. */
export function parseSitemapFileName(name: string): { type: SitemapType; index: number } | undefined {
  const match = /^([a-z]+)-([1-9]\d{0,5})\.xml$/.exec(name);
  const type = sitemapTypes.find((entry) => entry.name === match?.[1]);
  return type && match?.[2] ? { type, index: Number(match[2]) - 1 } : undefined;
}

/** A type's URLs, in every language, split into files. */
export async function sitemapFiles(
  type: SitemapType,
  context: Context,
  request: Request,
  limits: SitemapLimits = sitemapLimits,
): Promise<SitemapUrl[][]> {
  const origin = siteOriginOf(context.config);
  const pages = await type.pages(context, request);
  return splitSitemap(
    pages.flatMap((page) => localizedSitemapUrls(origin, page)),
    limits,
  );
}

/** The sitemap index's entries: every file of every type, dated by its newest page. */
export async function sitemapIndexEntries(
  context: Context,
  request: Request,
  limits: SitemapLimits = sitemapLimits,
): Promise<SitemapReference[]> {
  const origin = siteOriginOf(context.config);
  const perType = await Promise.all(
    sitemapTypes.map(async (type) =>
      (await sitemapFiles(type, context, request, limits)).map((urls, index) => ({
        loc: new URL(sitemapFilePath(type.name, index), origin).href,
        lastmod: newestLastmod(urls),
      })),
    ),
  );
  return perType.flat();
}
