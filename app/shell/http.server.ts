import { data, redirect } from "@remix-run/cloudflare";
import type { Params } from "@remix-run/react";
import { SiteError, statusOfError } from "#rules/errors.ts";
import { isLanguageKey } from "#rules/languages.ts";

// Route modules take the configuration readers from here: a route that imported rules/env itself
// would ship it (and valibot) to the browser, which keeps a route's imports though only its loader
// uses them; a .server module is an empty module there.
export { cloudKitConfigOf, siteOriginOf } from "#rules/env.ts";

/**
 * Throws the error page for a catalogue error type, with its status (the one mapping, rules/errors).
 * Spec 000 §4 "a failed render with a redirect error redirects", §8 "Redirect error: uses path and
 * status": a redirect error that names a page path moves there; one without a path is an error page.
 */
export function throwSiteError(error: SiteError): never {
  const move = redirectOfError(error);
  if (move) throw redirect(move.path, move.status);
  throw data({ type: error.type }, { status: statusOfError(error.type, error.status) });
}

/**
 * The page path and 3xx status a redirect error moves to. An upstream speaks of its own host, so an
 * absolute Location keeps only its path; a Location under /services/ is a data address, not a page.
 */
export function redirectOfError(error: SiteError): { path: string; status: number } | undefined {
  if (error.type !== "redirect" || typeof error.args?.location !== "string") return undefined;
  let target: URL;
  try {
    target = new URL(error.args.location, "http://site.invalid");
  } catch {
    return undefined;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return undefined;
  if (target.pathname.startsWith("/services/")) return undefined;
  const status = error.status;
  const moves = status !== undefined && status >= 300 && status < 400 && status !== 304;
  // "//host" as a Location is another site (protocol-relative): a page path has one leading slash.
  const path = target.pathname.replace(/^\/+/, "/");
  return { path: path + target.search, status: moves ? status : 302 };
}

/**
 * An action's form: a body that is not a form (JSON, text, a malformed multipart body) is the
 * invalidparam page, 400, not the 500 `request.formData()` would throw (decision 028).
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throwSiteError(new SiteError("invalidparam", "The request body is not a form"));
  }
}

/** A first path segment that is not a language key is not one of our pages: 404. */
export function requireKnownLanguage(params: Params): void {
  if (params.lang !== undefined && !isLanguageKey(params.lang)) {
    throwSiteError(new SiteError("notfound", `no page at /${params.lang}`));
  }
}

/** Runs a page's data loading, turning catalogue errors into error pages with the right status. */
export async function loadPage<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof SiteError) throwSiteError(error);
    throw error;
  }
}

/**
 * `loadPage` for a track, album or playlist: one the catalogue does not hold is content that is
 * gone (an id of the catalogue's form names a song or record it once held, or a link to a removed
 * one), so the not-found page says spec 001 §8's "Not Found / This content is no longer
 * available" (`contentunavailable`), still with 404.
 */
export function loadContentPage<T>(load: () => Promise<T>): Promise<T> {
  return loadPage(() =>
    load().catch((error: unknown) => {
      if (error instanceof SiteError && error.type === "notfound")
        throw data({ type: "contentunavailable" as const }, { status: 404 });
      throw error;
    }),
  );
}
