import type { Hono } from "hono";
import { ampCacheControl } from "../amp/http";
import { manifestPath, webAppManifest } from "../app/home-screen.server";
import type { Env } from "../edge/env";
import { defaultLanguageKey, isLanguageKey, type LanguageKey } from "../edge/languages";

/**
 * The files phones ask for by name (docs/decisions/018-sitemaps-and-home-screen.md): the web app
 * manifests. They are not pages: each URL has one answer for every client, with no language
 * negotiation, no cookie and no session, so the worker answers them here instead of passing them
 * to Remix, whose pages vary by visitor. (The icons are static files the build draws:
 * scripts/build-site-files.mjs.)
 */

/** Cached like the documents shared caches keep (amp/http.ts): an hour in shared caches, stale for a day. */
const cacheControl = ampCacheControl.page;

const contentTypes = {
  manifest: "application/manifest+json; charset=utf-8",
} as const;

function answer(body: BodyInit, contentType: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export function registerSiteFiles(app: Hono<{ Bindings: Env }>) {
  const manifest = (lang: LanguageKey) =>
    answer(JSON.stringify(webAppManifest(lang), null, 2), contentTypes.manifest);
  app.get(manifestPath(defaultLanguageKey), () => manifest(defaultLanguageKey));
  // Other languages at their prefix; anything else under that name is the site's not-found page.
  app.get("/:lang/manifest.webmanifest", (c, next) => {
    const lang = c.req.param("lang");
    return isLanguageKey(lang) && lang !== defaultLanguageKey ? manifest(lang) : next();
  });
}
