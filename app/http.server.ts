import { data } from "@remix-run/cloudflare";
import type { Params } from "@remix-run/react";
import { SiteError, statusOfError } from "../edge/errors";
import { isLanguageKey } from "../edge/languages";

/** Throws the error page for a catalogue error type, with its status (the one mapping, edge/errors). */
export function throwSiteError(error: SiteError): never {
  throw data({ type: error.type }, { status: statusOfError(error.type, error.status) });
}

/**
 * An action's form: a body that is not a form (JSON, text, a malformed multipart body) is the
 * invalidparam page, 400, not the 500 `request.formData()` would throw (issue 28).
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
