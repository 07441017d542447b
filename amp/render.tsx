import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse } from "@remix-run/react";
import { siteStylesheets } from "#app/root.tsx";
import type { AmpPageData, AmpView } from "#app/shell/amp-view.ts";
import { ErrorPage, errorMessageKey, errorSignInHref, errorTypeOf } from "#app/shell/error-page.tsx";
import { enabledFeaturesFor } from "#app/shell/features.server.ts";
import { bundledStrings, type Strings } from "#app/shell/i18n.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { type RootData, rootData } from "#app/shell/root-data.server.ts";
import { stylesheetTexts } from "#app/shell/stylesheet-texts.server.ts";
import { stylesheetHrefs } from "#app/shell/stylesheets.tsx";
import { documentCacheControlHeader } from "#rules/document-cache-control.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import ampStylesheet from "./amp.css";
import { type AmpDocument, renderAmpDocument } from "./document";
import { ampCacheControl, ampHtmlHeaders } from "./http";

/**
 * The AMP renderer of a page. The worker hands `/amp/…` to Remix like any page (amp/request.ts),
 * so the route, its loader and its redirects are the React page's; where Remix would render the
 * React document, this renders the leaf route's `ampView` (the page's own view) with the AMP
 * primitives into an AMP document. A route without an `ampView` has no AMP form: the AMP 404.
 */
export async function renderAmpPage(
  remix: EntryContext,
  context: AppLoadContext,
  request: Request,
): Promise<Response> {
  const handled = remix.staticHandlerContext;
  const root =
    (handled.loaderData.root as RootData | undefined) ??
    rootData(context, request, await enabledFeaturesFor(context, request));
  const strings = strictStrings(context.edge.lang);
  const rootHrefs = siteStylesheets;
  const assets = context.cloudflare.env.ASSETS;

  const error = handled.errors ? Object.values(handled.errors)[0] : undefined;
  const leaf = handled.matches.at(-1);
  const leafView = leaf && (remix.routeModules[leaf.route.id] as { ampView?: AmpView<never> }).ampView;
  if (handled.errors || !leaf || !leafView) {
    const status = handled.errors ? handled.statusCode : 404;
    const type = isRouteErrorResponse(error)
      ? errorTypeOf(error.data)
      : handled.errors
        ? "jserror"
        : "notfound";
    if (handled.errors && !isRouteErrorResponse(error)) console.error("AMP page failed", error);
    const stylesheets = await stylesheetTexts(assets, [...rootHrefs, ampStylesheet]);
    const { html } = ampErrorDocument({ context, request, root, strings, status, type, stylesheets });
    const cacheControl = status === 404 ? ampCacheControl.notFound : ampCacheControl.failure;
    return new Response(html, { status, headers: ampHtmlHeaders(cacheControl) });
  }

  const data = handled.loaderData[leaf.route.id] as AmpPageData;
  const pageHrefs = stylesheetHrefs(
    remix.routeModules,
    handled.matches.map((match) => match.route.id).filter((id) => id !== "root"),
  );
  const css = await stylesheetTexts(assets, [...rootHrefs, ampStylesheet, ...pageHrefs]);
  const View = leafView as AmpView<() => AmpPageData>;
  const { html } = renderAmpDocument({
    root,
    descriptors: pageMeta(data.meta),
    view: <View data={data} />,
    stylesheets: css,
    strings,
  });
  // A page whose data is fresh for a time of its own (a chart, until its next recompute: decision
  // 032) gives the edge's document cache that lifetime; an AMP page is the same for every visitor
  // of its URL, so AMP caches and scrapers are given the same, not the hour every other page gets.
  const own = handled.loaderHeaders[leaf.route.id]?.get(documentCacheControlHeader);
  const headers = new Headers(ampHtmlHeaders(own ? `public, ${own}` : ampCacheControl.page));
  if (own) headers.set(documentCacheControlHeader, own);
  return new Response(html, { status: 200, headers });
}

/** The site's error page as an AMP document (the React root's `ErrorBoundary` draws the same view). */
export function ampErrorDocument({
  context,
  request,
  root,
  strings,
  status,
  type,
  stylesheets,
}: {
  context: Pick<AppLoadContext, "edge" | "config">;
  request: Request;
  root: RootData;
  strings: Strings;
  status: number;
  type: string | undefined;
  stylesheets: readonly string[];
}): AmpDocument {
  const { t } = strings;
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("pageTitle.error"),
    description: t(errorMessageKey(status, type, (key) => strings.exists(key, "common"))),
    type: "website",
  };
  return renderAmpDocument({
    root,
    // An error answer is no page to index.
    descriptors: [...pageMeta(meta), { name: "robots", content: "noindex" }],
    view: (
      <ErrorPage
        status={status}
        type={type}
        homeHref={localizedPath(context.edge.lang, "/")}
        // Sign-in is no AMP page: the React one, back on the React page of this address (Remix
        // has the address without /amp, amp/request.ts).
        signInHref={errorSignInHref(localizedPath(context.edge.lang, "/login"), returnPathOf(request))}
      />
    ),
    stylesheets,
    strings,
  });
}

/**
 * The page's strings, as the React page has them, with one difference: a key that exists in no
 * language fails loudly instead of printing the key (an AMP document is cached for an hour).
 * One per language and isolate: its strings never change, so every AMP render shares it.
 */
const strictStringsByLanguage = new Map<LanguageKey, Strings>();

export function strictStrings(lang: LanguageKey): Strings {
  let strings = strictStringsByLanguage.get(lang);
  if (strings === undefined) {
    strings = bundledStrings(lang, {
      onMissing: (namespace, key) => {
        throw new Error(`AMP: no string ${namespace}:${key}`);
      },
    });
    strictStringsByLanguage.set(lang, strings);
  }
  return strings;
}

function returnPathOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}
