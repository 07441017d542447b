import * as v from "valibot";
import { servicesPathOf, servicesRootPathOf } from "#rules/addresses.ts";
import { artistSchema } from "./artist";
import { trackSummarySchema } from "./track";

/**
 * Spec 002 §3 "Search response: tracks.hits[].track, artists.hits[].artist, topresult (artist or
 * track), next" of `GET /services/search/v1/{lang}/{country}/{web|iphone}` (002 §7 search: query,
 * pageSize, page, limit, itsct) and of its track search `…/tracks` (pageSize default 10).
 */
export const searchArtistSchema = v.pick(artistSchema, [
  "id",
  "adamid",
  "name",
  "alias",
  "avatar",
  "avatarTemplate",
  "url",
]);

/**
 * Our addition to a track hit (decision 033): the lyric line the song was found by, as parts with the
 * matched words marked (text, never HTML), its index in the lyrics and when it is sung (synced lyrics).
 */
export const searchLyricLineSchema = v.object({
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  offsetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  parts: v.array(v.object({ text: v.string(), matched: v.boolean() })),
});

export type SearchLyricLine = v.InferOutput<typeof searchLyricLineSchema>;

export const searchResponseSchema = v.object({
  tracks: v.optional(
    v.object({
      hits: v.array(v.object({ track: trackSummarySchema, lyric: v.optional(searchLyricLineSchema) })),
    }),
  ),
  artists: v.optional(v.object({ hits: v.array(v.object({ artist: searchArtistSchema })) })),
  topresult: v.optional(
    v.variant("type", [
      v.object({ type: v.literal("track"), track: trackSummarySchema }),
      v.object({ type: v.literal("artist"), artist: searchArtistSchema }),
    ]),
  ),
  /** The provider's link to the next page; a client rewrites it to `/services/search/…` (searchNextOf). */
  next: v.optional(v.string()),
});

export type SearchResponse = v.InferOutput<typeof searchResponseSchema>;

/**
 * Spec 002 §7 "The next link is rewritten to /services/search/...": a next link of the search
 * service (its own host or a path) becomes the same call through the services proxy; anything
 * else is no next page.
 */
export function searchNextOf(next: string | undefined): string | undefined {
  if (next === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(next, "https://provider.invalid");
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const path = servicesRootPathOf(url.pathname);
  if (!/^\/search\/v1\/[a-z-]+\/[A-Z]{2}\/(web|iphone)(\/tracks)?$/.test(path)) return undefined;
  return `${servicesPathOf(path)}${url.search}`;
}
