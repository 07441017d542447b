import { rootData } from "../app/root-data.server";
import { SiteError, type SiteErrorType, statusOfError } from "../edge/errors";
import { type AmpPageType, ampPath, hasAmpForm, type ParsedPath } from "../edge/path";
import { renderAmpDocument } from "./document";
import type { AmpPageRenderer, AmpRequest } from "./page";
import { artistAmpPage } from "./pages/artist";
import { chartsAmpPage } from "./pages/charts";
import { errorAmpContent } from "./pages/error";
import { homeAmpPage } from "./pages/home";
import { trackAmpPage } from "./pages/track";
import { ampTranslator } from "./strings";
import type { Stylesheets } from "./stylesheets";

/**
 * The AMP page types, by the page type of the parsed path (edge/path.ts). A page type of the site
 * that is not here has no AMP form: its `/amp` address is the AMP 404. Every renderer builds its
 * page from the same page data function as its React route.
 */
export const ampPages: Record<AmpPageType, AmpPageRenderer> = {
  home: homeAmpPage,
  track: trackAmpPage,
  chartsview: chartsAmpPage,
  artist: artistAmpPage,
};

/**
 * Caching for AMP caches and social-card scrapers: a page is the same for every visitor of its URL
 * (AMP answers carry no cookies), fresh for 5 minutes in browsers and an hour in shared caches,
 * and served stale for a day while it is refreshed.
 */
export const ampCacheControl = {
  page: "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400",
  /** A missing page may appear (a new track): kept briefly. */
  notFound: "public, max-age=60, s-maxage=300",
  /** A failure is never pinned in a cache. */
  failure: "no-store",
} as const;

function htmlResponse(html: string, status: number, cacheControl: string): Response {
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

function errorResponse(
  request: AmpRequest,
  stylesheets: Stylesheets,
  status: number,
  type: SiteErrorType | undefined,
): Response {
  const { context } = request;
  const t = ampTranslator(context.edge.lang, []);
  const content = errorAmpContent({ context, request: request.request, status, type, t });
  const { html } = renderAmpDocument({
    root: rootData(context, request.request),
    page: content,
    stylesheets,
    t,
  });
  return htmlResponse(html, status, status === 404 ? ampCacheControl.notFound : ampCacheControl.failure);
}

/**
 * Where an AMP address written another way moves to (301): `/amp` first and in lower case, then the
 * language's canonical prefix (`/de/amp/x`, `/AMP/x`, `/amp/en/x`, `/amp/DE/x`). Undefined when
 * the address is already the one. An unprefixed address stays unprefixed (its language is the
 * visitor's, as on the React page); a secure path is left to the 404.
 */
export function ampRedirectLocation(path: ParsedPath, pathname: string): string | undefined {
  const ampFirst = pathname.split("/")[1] === "amp";
  if (path.isSecure || (ampFirst && path.nonCanonicalPrefix === undefined)) return undefined;
  return ampPath(path.langKey ?? "en", path.canonicalPath);
}

/**
 * Answers one `/amp` request: the page's AMP document (200), a 301 to the page's one AMP address,
 * or the AMP error page with the status of the error (404 for a path that names no AMP page).
 */
export async function renderAmp(request: AmpRequest, stylesheets: Stylesheets): Promise<Response> {
  const method = request.request.method;
  if (method !== "GET" && method !== "HEAD") {
    return new Response(null, {
      status: 405,
      headers: { Allow: "GET, HEAD", "Cache-Control": ampCacheControl.failure },
    });
  }
  const { path } = request.context.edge;
  const renderer = hasAmpForm(path.pageType) && !path.isSecure ? ampPages[path.pageType] : undefined;
  try {
    const outcome = renderer ? await renderer(request) : undefined;
    if (outcome === undefined) return errorResponse(request, stylesheets, 404, "notfound");
    if (outcome.kind === "redirect") {
      return new Response(null, {
        status: outcome.status ?? 301,
        headers: {
          Location: outcome.location,
          "Cache-Control": outcome.cacheControl ?? ampCacheControl.page,
        },
      });
    }
    const { html } = renderAmpDocument({
      root: rootData(request.context, request.request),
      page: outcome.content,
      stylesheets,
      t: outcome.t,
    });
    return htmlResponse(html, 200, ampCacheControl.page);
  } catch (error) {
    if (error instanceof SiteError) {
      return errorResponse(request, stylesheets, statusOfError(error.type, error.status), error.type);
    }
    console.error("AMP page failed", error);
    return errorResponse(request, stylesheets, 500, "jserror");
  }
}
