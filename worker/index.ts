import type { AppLoadContext } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";
import { createRequestHandler } from "@remix-run/server-runtime";
import type { Context } from "hono";
import { Hono } from "hono";
import { answerAmp } from "../amp/request";
import { ampEdge } from "../amp/visitor";
import {
  bypassReasonOf,
  createDocumentCache,
  type DocumentCache,
  documentKey,
  documentWithNonce,
  flagsOf,
  pageVariantOf,
  recordingFreshness,
  type VisitorInputs,
  withNonce,
} from "../edge/document-cache";
import { type RequestContext, resolveRequest } from "../edge/request-context";
import { createNonce, withNosniff, withSecurityHeaders } from "../edge/security-headers";
import { createServicesProxy, remoteUpstream, type ServicesProxy, type Upstream } from "../edge/services";
import { anonymous, resolveSession, type SessionResolution } from "../edge/session";
import { createOrigin } from "../origin";
import { buildBeacon, metricsUrl, requestErrorStatistics } from "../rules/beacon-params";
import { type Env, readConfig, type SiteConfig, siteOriginOf } from "../rules/env";
import { edgeLocationOf, withCallerLocation } from "../rules/events";
import { fnv1a32 } from "../rules/feature-flags";
import { nullBodyStatuses } from "../rules/http-body";
import { localizedPath } from "../rules/path";
import { platformOf } from "../rules/user-agent";
import { crossSiteStep, type WorkerEnv } from "./cross-site";
import { boundedPageRequest, refusalResponse, refusalStatusOf } from "./refusals";
import { registerSiteFiles } from "./site-files";

// Created once per isolate, not per request.
const handleRemixRequest = createRequestHandler(build);
const origin = createOrigin();

/** `version`: the build and its configuration, the first part of every document's key. */
type Isolate = { env: Env; config: SiteConfig; proxy: ServicesProxy; version: string };
let isolate: Isolate | undefined;
/**
 * The document cache: one per isolate whatever `env` a request brings (the test pool hands every
 * request an env object of its own; the key's `version` tells configurations apart). Made at the first
 * request: the Cache API is not for the global scope.
 */
let documents: DocumentCache | undefined;

/**
 * What lives as long as the isolate: the environment, parsed once (a bad value fails loudly at the
 * first request), and one services proxy (its caches and failure counters).
 */
function isolateFor(env: Env): Isolate {
  if (isolate?.env !== env) {
    const config = readConfig(env);
    const upstream: Upstream = config.SERVICES_ORIGIN
      ? remoteUpstream(config.SERVICES_ORIGIN)
      : async (request) => origin.fetch(request, env);
    isolate = {
      env,
      config,
      proxy: createServicesProxy({
        upstream,
        timeoutMs: config.SERVICES_TIMEOUT_MS,
        // The embedded origin's answers are this build's: a copy another build's origin made (another
        // shape, another catalogue) is never read. A remote upstream's do not change with the site.
        ...(config.SERVICES_ORIGIN
          ? {}
          : {
              cacheKeyBase: `https://${build.assets.version.replace(/[^a-z0-9-]/gi, "")}.services.internal`,
            }),
      }),
      version: `${build.assets.version}-${fnv1a32(JSON.stringify(config)).toString(36)}`,
    };
  }
  return isolate;
}

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("=")).trim();

/** Headers every page answer carries: its language, and what an unprefixed URL's language depends on. */
function withEdgeHeaders(response: Response, edge: RequestContext, session: SessionResolution): Response {
  const headers = new Headers(response.headers);
  headers.set("Content-Language", edge.locale);
  if (!edge.path.langKey) headers.append("Vary", "Cookie, Accept-Language");
  // A signed-in visitor's page is theirs alone: no shared cache may keep it.
  if (session.hasSession) {
    if (!/\bno-store\b/.test(headers.get("Cache-Control") ?? ""))
      headers.set("Cache-Control", "private, no-store");
    if (edge.path.langKey) headers.append("Vary", "Cookie");
  }
  // A cookie the page set itself wins over the edge's: a sign-in link that sets a new session is
  // not undone by the expiry of the stale session the browser came with (issue 41 finding 8).
  const ownCookies = new Set(response.headers.getSetCookie().map(cookieName));
  for (const cookie of [...edge.setCookies, ...session.setCookies]) {
    if (!ownCookies.has(cookieName(cookie))) headers.append("Set-Cookie", cookie);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Spec 000 §8: a page answered to a bot, to an agent naming no system, or to a visitor of no known
 * country is an error statistic (decision 026). Once per page document (a client navigation's
 * `.data` request is the same visit), after the answer, through the services proxy like any beacon.
 */
function reportRequestErrors(
  request: Request,
  edge: RequestContext,
  proxy: ServicesProxy,
  ctx: { waitUntil(promise: Promise<unknown>): void },
): void {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.pathname.endsWith(".data")) return;
  // A browser says what it fetches: an icon or a script that reached the pages is no page view.
  const destination = request.headers.get("sec-fetch-dest");
  if (destination !== null && destination !== "document" && destination !== "iframe") return;
  const statistics = requestErrorStatistics({
    isBot: edge.isBot,
    countryUnknown: edge.countrySource === "default",
    userAgent: request.headers.get("user-agent") ?? "",
    screenname: edge.path.pageType === "unknown" ? "error" : edge.path.pageType,
    path: edge.path.canonicalPath,
  });
  const time = Date.now();
  for (const params of statistics) {
    const address = new URL(metricsUrl(buildBeacon(params), time, { isBot: edge.isBot }), url.origin);
    ctx.waitUntil(proxy.handle(new Request(address), ctx).catch(() => undefined));
  }
}

/**
 * A page document through the document cache (edge/document-cache.ts): looked up under the key of
 * `keyEdge` (the request as its page sees it), `userAgent` and `cf` (what the edge located), rendered as a GET on a miss with a
 * services proxy that records the data's freshness. The answer gets `nonce` in its nonce
 * attributes (none: an AMP page, which has no inline script), `x-cache` and `Server-Timing`.
 */
async function cachedDocument(
  c: Context<WorkerEnv>,
  keyEdge: RequestContext,
  userAgent: string | null,
  cf: VisitorInputs["cf"],
  nonce: string | undefined,
  render: (request: Request, services: ServicesProxy) => Promise<Response>,
): Promise<Response> {
  const started = Date.now();
  const request = c.req.raw;
  const { config, proxy, version } = isolateFor(c.env);
  documents ??= createDocumentCache();
  const platform = platformOf(userAgent);
  const flags = await flagsOf(proxy, keyEdge, config.SITE_ENV, platform);
  const url = new URL(request.url);
  const variant = pageVariantOf(keyEdge, { cf, userAgent, now: Date.now() });
  const key = documentKey({ version, url, edge: keyEdge, platform, flags, variant });
  const get = request.method === "GET" ? request : new Request(request, { method: "GET" });
  const served = await documents.serve({
    key,
    signal: request.signal,
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    render: async () => {
      const recording = recordingFreshness(proxy);
      const response = await render(get, recording.services);
      return { response, freshForMs: recording.freshForMs() };
    },
  });
  const { answer } = served;
  const headers = new Headers(answer.headers as [string, string][]);
  headers.set("x-cache", served.source);
  const description = served.tier ? `${served.source} ${served.tier}` : served.source;
  headers.append("Server-Timing", `cache;desc="${description}";dur=${Date.now() - started}`);
  if (served.renderMs !== undefined) headers.append("Server-Timing", `render;dur=${served.renderMs}`);
  const empty = request.method === "HEAD" || nullBodyStatuses.has(answer.status);
  const response = new Response(empty ? null : answer.body, { status: answer.status, headers });
  const html = /^text\/html\b/i.test(headers.get("content-type") ?? "");
  // A MISS was rendered by this request, with its nonce already; any other copy was another's.
  const ownRender = served.source === "MISS";
  if (nonce === undefined || empty || !html || ownRender) return response;
  const body = documentWithNonce(answer.body, nonce);
  return body ? new Response(body, { status: answer.status, headers }) : withNonce(response, nonce);
}

/** An answer rendered for this request alone, and why (`x-cache: BYPASS`). */
function bypassed(response: Response, reason: string): Response {
  const headers = new Headers(response.headers);
  headers.set("x-cache", "BYPASS");
  headers.append("Server-Timing", `cache;desc="BYPASS ${reason}"`);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A page write as Remix's own Origin check sees it: that check compares Origin with X-Forwarded-Host
 * or Host and throws (a bare 500) on a mismatch. The cross-site step has already held Origin to
 * SITE_ORIGIN, so the host Remix compares with is the site's, never a client-sent X-Forwarded-Host.
 */
function forRemix(request: Request, config: SiteConfig): Request {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const headers = new Headers(request.headers);
  headers.set("X-Forwarded-Host", new URL(siteOriginOf(config)).host);
  return new Request(request, { headers });
}

const app = new Hono<WorkerEnv>();

// Cheap refusals first (issue 28): a request over a size limit, or a path Remix cannot route, is
// answered before any routing or rendering.
app.use("*", async (c, next) => {
  const status = refusalStatusOf(c.req.raw);
  if (status === undefined) return next();
  // The body is read to the end so the connection can serve the visitor's next request.
  await c.req.raw.body?.pipeTo(new WritableStream());
  return refuse(c.req.raw, status);
});

// Then the one cross-site rule for every state-changing request, pages and services alike.
app.use(
  "*",
  crossSiteStep((env) => isolateFor(env).config),
);

function refuse(request: Request, status: number): Response {
  const https = new URL(request.url).protocol === "https:";
  return withSecurityHeaders(refusalResponse(request, status), { nonce: undefined, https, amp: false });
}

app.all("/services/*", async (c) => {
  const answer = await isolateFor(c.env).proxy.handle(c.req.raw, c.executionCtx);
  const cf = c.req.raw.cf as { latitude?: unknown; longitude?: unknown } | undefined;
  return withNosniff(withCallerLocation(new URL(c.req.url).pathname, answer, edgeLocationOf(cf)));
});
// Spec 001 §7 "/campaign/data/{name}.json": a services call outside /services (decision 022).
app.all("/campaign/data/*", async (c) =>
  withNosniff(await isolateFor(c.env).proxy.handle(c.req.raw, c.executionCtx)),
);

// robots.txt, sitemaps, web app manifests, security.txt: one answer per URL, not pages.
registerSiteFiles(app, isolateFor);

app.all("*", async (c) => {
  // A body over the page limit, declared or streamed, is refused before any rendering.
  const request = await boundedPageRequest(c.req.raw);
  if (request === 413) return refuse(c.req.raw, 413);
  const edge = resolveRequest(request, request.cf as { country?: string } | undefined);
  const { config, proxy } = isolateFor(c.env);
  const security = { nonce: createNonce(), https: new URL(request.url).protocol === "https:" };
  const loadContext: AppLoadContext = {
    cloudflare: {
      env: c.env,
      cf: request.cf as IncomingRequestCfProperties | undefined,
      ctx: c.executionCtx,
    },
    config,
    edge,
    services: proxy,
    account: null,
    cspNonce: security.nonce,
  };

  // /amp/…: the lightweight page, from the same route, at its one AMP address. The document
  // depends on its URL only (amp/visitor.ts): its answer varies by nothing and sets no cookie, so
  // cookies do not bypass the cache (amp/request.ts answers other methods 405).
  if (edge.isAmp) {
    // Nor does where the edge located the visitor: loaders see no `cf` (a concert list from no
    // place, dated in UTC).
    const cloudflare = { ...loadContext.cloudflare, cf: undefined };
    const answer = (page: Request, services: ServicesProxy) =>
      answerAmp(page, edge, (ampRequest, ampEdge) =>
        handleRemixRequest(ampRequest, { ...loadContext, cloudflare, services, edge: ampEdge }),
      );
    const amp =
      request.method === "GET" || request.method === "HEAD"
        ? await cachedDocument(c, ampEdge(edge), null, undefined, undefined, answer)
        : bypassed(await answer(request, proxy), "method");
    return withSecurityHeaders(amp, { ...security, amp: true });
  }

  // /en/…, /zh-hk/…, /DE/…: one canonical URL per page and language.
  if (edge.path.nonCanonicalPrefix !== undefined) {
    const target = localizedPath(edge.lang, edge.path.canonicalPath) + new URL(request.url).search;
    return withEdgeHeaders(
      new Response(null, { status: 301, headers: { Location: target } }),
      edge,
      anonymous,
    );
  }

  // An anonymous visitor's document: from the cache, its cookies added after the lookup.
  const bypass = bypassReasonOf(request);
  if (bypass === undefined) {
    const page = await cachedDocument(
      c,
      edge,
      request.headers.get("user-agent"),
      request.cf as VisitorInputs["cf"],
      security.nonce,
      (get, services) => handleRemixRequest(get, { ...loadContext, services }),
    );
    reportRequestErrors(request, edge, proxy, c.executionCtx);
    return withSecurityHeaders(withEdgeHeaders(page, edge, anonymous), { ...security, amp: false });
  }

  // A form another site posted changes nothing (worker/cross-site.ts): 403 with the localized
  // error page, rendered for nobody (no session looked up, no cookie set or cleared).
  if (c.get("crossSite")) {
    const errorPage = new Request(new URL(localizedPath(edge.lang, "/error/unauthorized"), request.url), {
      headers: { "accept-language": request.headers.get("accept-language") ?? "" },
    });
    const refused = await handleRemixRequest(errorPage, loadContext);
    const forbidden = new Response(refused.body, { status: 403, headers: refused.headers });
    return withSecurityHeaders(
      withEdgeHeaders(bypassed(forbidden, "cross-site"), { ...edge, setCookies: [] }, anonymous),
      {
        ...security,
        amp: false,
      },
    );
  }

  const session = await resolveSession(proxy, request);
  const response = bypassed(
    await handleRemixRequest(forRemix(request, config), { ...loadContext, account: session.account }),
    bypass,
  );
  reportRequestErrors(request, edge, proxy, c.executionCtx);
  return withSecurityHeaders(withEdgeHeaders(response, edge, session), { ...security, amp: false });
});

export default app;
