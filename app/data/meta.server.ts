import type { AppLoadContext } from "@remix-run/cloudflare";
import { canonicalUrl } from "../../edge/path";
import type { PageMeta } from "../meta";

/** The parts of a page's meta that come from the request: canonical URL, app path, locale. */
export function requestMeta(
  { edge }: Pick<AppLoadContext, "edge">,
  request: Request,
): Pick<PageMeta, "canonical" | "appPath" | "locale"> {
  const origin = new URL(request.url).origin;
  return {
    canonical: canonicalUrl(origin, edge.lang, edge.path.canonicalPath),
    appPath: edge.path.canonicalPath,
    locale: edge.locale,
  };
}

/** An absolute URL for a root-relative asset path (Open Graph images must be absolute). */
export function absoluteUrl(request: Request, path: string): string {
  return new URL(path, request.url).href;
}
