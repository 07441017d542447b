import { type Context, Hono } from "hono";
import { ampCacheControl } from "#amp/http.ts";
import { robotsTxt, securityTxt, securityTxtPath } from "#app/site-files/crawler-files.ts";
import { manifestPath, webAppManifest } from "#app/site-files/home-screen.server.ts";
import { parseSitemapFileName, sitemapFiles, sitemapIndexEntries } from "#app/site-files/sitemaps.server.ts";
import { sitemapIndexXml, sitemapXml } from "#app/site-files/sitemaps.ts";
import { resolveRequest } from "#edge/request-context.ts";
import { loadLanguages } from "#locales/index.ts";
import { siteOriginOf } from "#rules/env.ts";
import { SiteError } from "#rules/errors.ts";
import { defaultLanguageKey, isLanguageKey, type LanguageKey } from "#rules/languages.ts";
import { builtAt } from "./build-time.generated";
import type { WorkerEnv } from "./pipeline";

/**
 * The files crawlers and phones ask for by name (docs/decisions/018-sitemaps-and-home-screen.md):
 * robots.txt, the sitemaps, the web app manifests and security.txt. They are not pages: each URL
 * has one answer for every client, with no language negotiation, no cookie and no session, so the
 * worker answers them here instead of passing them to Remix, whose pages vary by visitor. (The
 * icons are static files the build draws: scripts/build-site-files.mjs.)
 */

/** Cached like the documents shared caches keep (amp/http.ts): an hour in shared caches, stale for a day. */
const cacheControl = ampCacheControl.page;

const contentTypes = {
  text: "text/plain; charset=utf-8",
  xml: "application/xml; charset=utf-8",
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

/**
 * A sitemap that cannot be made whole (the services failed) is not answered in part: a crawler
 * would drop the pages it leaves out. 503 with Retry-After tells it to come back, and nothing keeps
 * the failure.
 */
function failure(error: unknown): Response {
  if (!(error instanceof SiteError)) throw error;
  return new Response(`${error.type}: ${error.message}\n`, {
    status: 503,
    headers: { "Content-Type": contentTypes.text, "Cache-Control": "no-store", "Retry-After": "3600" },
  });
}

function notFound(): Response {
  return new Response("notfound\n", {
    status: 404,
    headers: { "Content-Type": contentTypes.text, "Cache-Control": ampCacheControl.notFound },
  });
}

/** Text pieces as a byte stream, in chunks of about 64 KiB: a sitemap file may be tens of megabytes. */
function streamOf(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.iterator]();
  const encoder = new TextEncoder();
  const chunkLength = 64 * 1024;
  return new ReadableStream({
    pull(controller) {
      let chunk = "";
      while (chunk.length < chunkLength) {
        const next = iterator.next();
        if (next.done) {
          if (chunk !== "") controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/** What a sitemap loads with: the request resolved as for a page, the isolate's config and proxy. */
function loadContext(c: Context<WorkerEnv>) {
  const request = c.req.raw;
  return {
    edge: resolveRequest(request, request.cf as { country?: string } | undefined),
    services: c.get("isolate").proxy,
    config: c.get("isolate").config,
  };
}

/** The site files' routes, mounted by the worker (worker/index.ts). */
export const siteFiles = new Hono<WorkerEnv>();

siteFiles.get("/robots.txt", (c) =>
  answer(robotsTxt(siteOriginOf(c.get("isolate").config)), contentTypes.text),
);

siteFiles.get(securityTxtPath, (c) =>
  answer(securityTxt(siteOriginOf(c.get("isolate").config), new Date(builtAt)), contentTypes.text),
);

siteFiles.get("/sitemap.xml", async (c) => {
  try {
    const entries = await sitemapIndexEntries(loadContext(c), c.req.raw);
    return answer(sitemapIndexXml(entries), contentTypes.xml);
  } catch (error) {
    return failure(error);
  }
});

siteFiles.get("/sitemaps/:file", async (c) => {
  const file = parseSitemapFileName(c.req.param("file"));
  if (!file) return notFound();
  try {
    const files = await sitemapFiles(file.type, loadContext(c), c.req.raw);
    const urls = files[file.index];
    return urls ? answer(streamOf(sitemapXml(urls)), contentTypes.xml) : notFound();
  } catch (error) {
    return failure(error);
  }
});

async function manifest(lang: LanguageKey) {
  await loadLanguages([lang, defaultLanguageKey]);
  return answer(JSON.stringify(webAppManifest(lang), null, 2), contentTypes.manifest);
}
siteFiles.get(manifestPath(defaultLanguageKey), () => manifest(defaultLanguageKey));
// Other languages at their prefix; anything else under that name is the site's not-found page.
siteFiles.get("/:lang/manifest.webmanifest", (c, next) => {
  const lang = c.req.param("lang");
  return isLanguageKey(lang) && lang !== defaultLanguageKey ? manifest(lang) : next();
});
