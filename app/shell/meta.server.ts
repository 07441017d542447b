import type { AppLoadContext } from "@remix-run/cloudflare";
import { siteOriginOf } from "#rules/env.ts";
import { addressQuery, ampPath, canonicalUrl, hasAmpForm } from "#rules/path.ts";
import type { PageMeta } from "./meta";

/** The parts of a page's meta that come from the request: canonical and AMP URLs, app path, locale. */
export function requestMeta(
  { edge, config }: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
): Pick<PageMeta, "canonical" | "appPath" | "locale" | "amphtml"> {
  const origin = siteOriginOf(config);
  const path = edge.path.canonicalPath;
  const query = addressQuery(edge.path, new URL(request.url).searchParams);
  return {
    canonical: canonicalUrl(origin, edge.lang, path, query),
    appPath: path + query,
    locale: edge.locale,
    amphtml: hasAmpForm(edge.path.pageType)
      ? new URL(ampPath(edge.lang, path) + query, origin).href
      : undefined,
  };
}

/** An absolute URL for a root-relative asset path (Open Graph images must be absolute). */
export function absoluteUrl({ config }: Pick<AppLoadContext, "config">, path: string): string {
  return new URL(path, siteOriginOf(config)).href;
}

/**
 * The head of a page that is a place on the site rather than an item (home, charts landing): its
 * title and description, and the page as `schema` (schema.org WebSite, CollectionPage) at its
 * canonical address.
 */
export function websitePageMeta(
  context: Pick<AppLoadContext, "edge" | "config">,
  request: Request,
  {
    title,
    description,
    schema,
  }: { title: string; description: string; schema: { "@type": string; name: string; description?: string } },
): PageMeta {
  const base = requestMeta(context, request);
  return {
    ...base,
    title,
    description,
    type: "website",
    jsonLd: { "@context": "https://schema.org", ...schema, url: base.canonical },
  };
}
