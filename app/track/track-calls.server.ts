import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { trackHref } from "#app/shell/view.ts";
import { trackKeyOf as keyOfSegment, storefrontOf, trackServicePath } from "#rules/addresses.ts";
import { SiteError } from "#rules/errors.ts";
import { type Track, trackSchema } from "#rules/schemas/track.ts";

/** The track service's calls (spec 001 §7): the track key of an address, the track call and its failures, the page's optional parts. */

const internalMessages = {
  /** Spec 001 §8 internal message. */
  trackNoId: "Track service No id",
  typeNotValid: "Track data type not valid",
} as const;

/**
 * The track key of a path segment (rules/addresses.ts `trackKeyOf`, spec 001 §5); none is the
 * spec's invalid parameter 'Track service No id'.
 */
export function trackKeyOf(segment: string | undefined): string {
  const key = keyOfSegment(segment);
  if (key === undefined) throw new SiteError("invalidparam", internalMessages.trackNoId);
  return key;
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
  // Always /web/: the /iphone/ variant (spec 001 §7) answers app links (music://, spotify:) that
  // a page's store list drops (webHref); see docs/calls.md.
  return trackServicePath(lang, storefrontOf(country), key, { query });
}

/** The canonical address of a track (`/track/{key}` redirects there): the track call alone. */
export async function loadTrackPath(
  { edge, services }: Pick<AppLoadContext, "edge" | "services">,
  keySegment: string | undefined,
  search: URLSearchParams,
): Promise<string> {
  const key = trackKeyOf(keySegment);
  const track = await loadTrack(services, trackCallPath(edge, key, search));
  return trackHref(edge.lang, track.key, track.alias);
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
