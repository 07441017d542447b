import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { findCountry } from "#rules/countries.ts";
import { SiteError } from "#rules/errors.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import { type Track, trackSchema } from "#rules/schemas/track.ts";

/** The track service's calls (spec 001 §7): the track key of an address, the track call and its failures, the page's optional parts. */

/** The storefront asked when the visitor's country has none (world, global). */
const defaultStorefront = "GB";

const internalMessages = {
  /** Spec 001 §8 internal message. */
  trackNoId: "Track service No id",
  typeNotValid: "Track data type not valid",
} as const;

/**
 * Spec 001 §5 "Track id must be numeric (leading digits from the path)". No leading digits is an
 * invalid parameter; more digits than an id has is not an id either.
 */
export function trackKeyOf(segment: string | undefined): string {
  const digits = /^\d+/.exec(segment ?? "")?.[0];
  if (!digits || digits.length > 15) throw new SiteError("invalidparam", internalMessages.trackNoId);
  return digits;
}

function siteErrorOf(error: unknown): SiteError | undefined {
  return error instanceof SiteError ? error : undefined;
}

/** Optional parts of the page: a failure leaves the part out instead of failing the page. */
export async function optional<T>(what: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    const siteError = siteErrorOf(error);
    if (!siteError) throw error;
    console.warn(`track page: no ${what}: ${siteError.type} ${siteError.message}`);
    return undefined;
  }
}

/** `GET /services/count/v2/web/tracks?id=1&id=2…` (spec 001 §7 tag count list). */
export function tagCountListPath(keys: readonly string[]): string {
  return `/services/count/v2/web/tracks?${keys.map((key) => `id=${encodeURIComponent(key)}`).join("&")}`;
}

/** The visitor's country as a store front the catalogue knows, else the default one. */
function storefrontOf(country: string): string {
  return /^[A-Z]{2}$/.test(country) && findCountry(country) ? country : defaultStorefront;
}

/** `GET /services/amapi/v1/catalog/{country}/songs/{id}/credits?l={locale}` (spec 001 §7): a song's credits. */
export function songCreditsPath(
  edge: Pick<AppLoadContext["edge"], "country" | "locale">,
  songAdamId: string,
): string {
  const storefront = storefrontOf(edge.country).toLowerCase();
  return withQuery(`/services/amapi/v1/catalog/${storefront}/songs/${songAdamId}/credits`, {
    l: edge.locale,
  });
}

export function withQuery(path: string, query: Record<string, string>): string {
  const url = new URL(path, "https://services.internal");
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}

/** Spec 001 §2 parameters passed on to the track call (spec 001 §7 "with itsct and trackLength"). */
const trackCallQuerySchema = v.object({
  itsct: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/))),
  trackLength: v.optional(v.pipe(v.string(), v.regex(/^\d{1,8}$/))),
});

export function trackCallPath(
  edge: Pick<AppLoadContext["edge"], "lang" | "country">,
  key: string,
  search: URLSearchParams,
): string {
  const { lang, country } = edge;
  const query: Record<string, string> = {};
  for (const name of ["itsct", "trackLength"] as const) {
    const value = search.get(name);
    const parsed = v.safeParse(trackCallQuerySchema.entries[name], value ?? undefined);
    if (value !== null && parsed.success) query[name] = value;
  }
  const storefront = storefrontOf(country);
  // Always /web/: the /iphone/ variant (spec 001 §7) answers app links (music://, spotify:) that
  // a page's store list drops (webHref); see docs/calls.md.
  return withQuery(`/services/track/v1/${lang}/${storefront}/web/${key}`, query);
}

/** The canonical address of a track (`/track/{key}` redirects there): the track call alone. */
export async function loadTrackPath(
  { edge, services }: Pick<AppLoadContext, "edge" | "services">,
  keySegment: string | undefined,
  search: URLSearchParams,
): Promise<string> {
  const key = trackKeyOf(keySegment);
  const track = await loadTrack(services, trackCallPath(edge, key, search));
  return trackPathOf(edge.lang, track);
}

export function trackPathOf(lang: LanguageKey, track: Pick<Track, "key" | "alias">): string {
  return localizedPath(lang, `/track/${track.key}/${encodeURIComponent(track.alias)}`);
}

/** The track call: an unknown track is not found; a payload of another type is a data error. */
export async function loadTrack(services: AppLoadContext["services"], path: string): Promise<Track> {
  try {
    return await services.getJson(path, trackSchema);
  } catch (error) {
    const siteError = siteErrorOf(error);
    if (!siteError) throw error;
    if (siteError.type === "serviceerror" && siteError.status === 404) {
      throw new SiteError("notfound", `No track at ${path}`, { status: 404 });
    }
    if (siteError.type === "baddata" && siteError.message.includes(internalMessages.typeNotValid)) {
      throw new SiteError("baddata", internalMessages.typeNotValid);
    }
    throw siteError;
  }
}
