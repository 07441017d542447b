import type { RequestContext } from "#edge/request-context.ts";
import {
  type AmpPageType,
  ampPath,
  hasAmpForm,
  localizedPath,
  type ParsedPath,
  parsePath,
} from "#rules/path.ts";
import { ampCacheControl } from "./http";

/** Renders a page through Remix with the request context (worker/steps/amp.ts). */
export type RenderPage = (request: Request) => Promise<Response>;

/** The request without the visitor's headers (cookies, user agent, languages): only its URL counts. */
export function ampRequest(request: Request): Request {
  return new Request(request.url, { method: request.method });
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

function namesAmpPage(path: ParsedPath): path is ParsedPath & { pageType: AmpPageType } {
  return hasAmpForm(path.pageType) && !path.isSecure;
}

/**
 * Answers one `/amp/…` request. The page is the React page's route: the address without `/amp`
 * goes to Remix with the request context, which for an AMP address depends on the URL only
 * (edge/request-context.ts `resolveRequest`), and the route's loader decides
 * everything a page decides; Remix's document render becomes the AMP renderer (amp/render.tsx).
 * Around it, what only AMP has: one address per page (301), read-only, its moves kept on AMP
 * addresses, and the AMP 404 for an address that names no AMP page, which is the site's own
 * not-found page drawn as AMP.
 */
export async function answerAmp(
  request: Request,
  edge: RequestContext,
  render: RenderPage,
): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(null, {
      status: 405,
      headers: { Allow: "GET, HEAD", "Cache-Control": ampCacheControl.failure },
    });
  }
  const location = ampRedirectLocation(edge.path, url.pathname);
  if (location !== undefined) {
    return new Response(null, {
      status: 301,
      headers: { Location: location + url.search, "Cache-Control": ampCacheControl.page },
    });
  }
  const notFoundPath = localizedPath(edge.lang, "/error/notfound");
  const pagePath = namesAmpPage(edge.path) ? url.pathname.slice("/amp".length) || "/" : notFoundPath;
  let response = await render(ampRequest(new Request(new URL(pagePath + url.search, url), request)));
  if (response.status >= 300 && response.status < 400) return ampMove(response, url);
  // A resource route (a chart's CSV) or a data request under /amp is no AMP page.
  if (!response.headers.get("Content-Type")?.startsWith("text/html")) {
    await response.body?.cancel();
    response = await render(ampRequest(new Request(new URL(notFoundPath, url), request)));
  }
  const headers = new Headers(response.headers);
  headers.set("Content-Language", edge.locale);
  return new Response(response.body, { status: response.status, headers });
}

/**
 * A page's move, kept on AMP addresses: a move to a page with an AMP form goes to that form. A
 * permanent move is the page's address and cached like a page; any other depends on the visitor
 * or a form's choice and is never cached, unless the route said otherwise.
 */
function ampMove(response: Response, url: URL): Response {
  const target = new URL(response.headers.get("Location") ?? "/", url);
  let location = target.href;
  if (target.origin === url.origin) {
    const path = parsePath(target.pathname);
    location = namesAmpPage(path)
      ? ampPath(path.langKey ?? "en", path.canonicalPath) + target.search
      : target.pathname + target.search;
  }
  const permanent = response.status === 301 || response.status === 308;
  const cacheControl =
    response.headers.get("Cache-Control") ?? (permanent ? ampCacheControl.page : ampCacheControl.failure);
  return new Response(null, {
    status: response.status,
    headers: { Location: location, "Cache-Control": cacheControl },
  });
}
