import type { AppLoadContext } from "@remix-run/cloudflare";
import { ampPath, canonicalUrl, hasAmpForm } from "../../edge/path";
import type { PageMeta } from "../meta";

/** The parts of a page's meta that come from the request: canonical and AMP URLs, app path, locale. */
export function requestMeta(
  { edge }: Pick<AppLoadContext, "edge">,
  request: Request,
): Pick<PageMeta, "canonical" | "appPath" | "locale" | "amphtml"> {
  const origin = new URL(request.url).origin;
  const path = edge.path.canonicalPath;
  return {
    canonical: canonicalUrl(origin, edge.lang, path),
    appPath: path,
    locale: edge.locale,
    amphtml: hasAmpForm(edge.path.pageType) ? new URL(ampPath(edge.lang, path), origin).href : undefined,
  };
}

/** An absolute URL for a root-relative asset path (Open Graph images must be absolute). */
export function absoluteUrl(request: Request, path: string): string {
  return new URL(path, request.url).href;
}
