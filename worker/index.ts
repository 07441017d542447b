import type { AppLoadContext } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";
import { createRequestHandler } from "@remix-run/server-runtime";
import { Hono } from "hono";
import { answerAmp } from "../amp/request";
import { localizedPath } from "../edge/path";
import { type RequestContext, resolveRequest } from "../edge/request-context";
import { createServicesProxy, type ServicesProxy } from "../edge/services";
import { remoteUpstream, type Upstream } from "../edge/upstream";
import { createOrigin } from "../origin";
import { type Env, readConfig } from "./env";

// Created once per isolate, not per request.
const handleRemixRequest = createRequestHandler(build);
const origin = createOrigin();

let services: { env: Env; proxy: ServicesProxy } | undefined;

/** One services proxy per isolate (its caches and failure counters live as long as the isolate). */
function servicesFor(env: Env): ServicesProxy {
  if (services?.env !== env) {
    const config = readConfig(env);
    const upstream: Upstream = config.SERVICES_ORIGIN
      ? remoteUpstream(config.SERVICES_ORIGIN)
      : async (request) => origin.fetch(request, env);
    services = { env, proxy: createServicesProxy({ upstream, timeoutMs: config.SERVICES_TIMEOUT_MS }) };
  }
  return services.proxy;
}

/** Headers every page answer carries: its language, and what an unprefixed URL's language depends on. */
function withEdgeHeaders(response: Response, edge: RequestContext): Response {
  const headers = new Headers(response.headers);
  headers.set("Content-Language", edge.locale);
  if (!edge.path.langKey) headers.append("Vary", "Cookie, Accept-Language");
  for (const cookie of edge.setCookies) headers.append("Set-Cookie", cookie);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

const app = new Hono<{ Bindings: Env }>();

app.all("/services/*", (c) => servicesFor(c.env).handle(c.req.raw, c.executionCtx));

app.all("*", async (c) => {
  const request = c.req.raw;
  const edge = resolveRequest(request, request.cf as { country?: string } | undefined);
  const loadContext: AppLoadContext = {
    cloudflare: {
      env: c.env,
      cf: request.cf as IncomingRequestCfProperties | undefined,
      ctx: c.executionCtx,
    },
    edge,
    services: servicesFor(c.env),
  };

  // /amp/…: the lightweight page, from the same route, at its one AMP address. The document
  // depends on its URL only (amp/visitor.ts): its answer varies by nothing and sets no cookie.
  if (edge.isAmp) {
    return answerAmp(request, edge, (ampRequest, ampEdge) =>
      handleRemixRequest(ampRequest, { ...loadContext, edge: ampEdge }),
    );
  }

  // /en/…, /zh-hk/…, /DE/…: one canonical URL per page and language.
  if (edge.path.nonCanonicalPrefix !== undefined) {
    const target = localizedPath(edge.lang, edge.path.canonicalPath) + new URL(request.url).search;
    return withEdgeHeaders(new Response(null, { status: 301, headers: { Location: target } }), edge);
  }

  const response = await handleRemixRequest(request, loadContext);
  return withEdgeHeaders(response, edge);
});

export default app;
