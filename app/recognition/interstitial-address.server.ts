import * as v from "valibot";
import { throwSiteError } from "#app/shell/http.server.ts";
import { SiteError } from "#rules/errors.ts";

/** A track key, as the track address writes it. */
const interstitialSchema = v.object({ key: v.pipe(v.string(), v.regex(/^\d{1,12}$/)) });

/**
 * The track key of `/track/webrec/interstitial?key=…`, or the site's invalid-parameter error.
 * Only the route's loader checks it: here, its schema keeps valibot out of the page's browser
 * code (decision 027: a route module's module-level schema is downloaded with the page).
 */
export function interstitialKeyOf(search: URLSearchParams): string {
  const query = v.safeParse(interstitialSchema, { key: search.get("key") ?? "" });
  if (!query.success) throwSiteError(new SiteError("invalidparam", v.summarize(query.issues)));
  return query.output.key;
}
