import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
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
} from "#edge/document-cache.ts";
import type { ServicesProxy } from "#edge/services/index.ts";
import { nullBodyStatuses } from "#rules/http-body.ts";
import { platformOf } from "#rules/user-agent.ts";
import { replaceAnswer, type WorkerEnv } from "#worker/pipeline.ts";
import { handleRemixRequest } from "#worker/remix.ts";

/**
 * The document cache: one per isolate whatever `env` a request brings (the test pool hands every
 * request an env object of its own; the key's `version` tells configurations apart). Made at the first
 * request: the Cache API is not for the global scope.
 */
let documents: DocumentCache | undefined;

/** What a document's key reads of the visitor beyond the request context, and the nonce to put in it. */
type DocumentVisitor = Omit<VisitorInputs, "now"> & {
  /** None: an AMP page, which has no inline script. */
  nonce: string | undefined;
};

/**
 * A page document through the document cache (edge/document-cache.ts): looked up under the key of
 * the request context (`c.get("edge")`), `userAgent` and `cf` (what the edge located), rendered as a
 * GET on a miss with a services proxy that records the data's freshness. The answer gets `nonce`
 * in its nonce attributes, `x-cache` and `Server-Timing`.
 */
export async function cachedDocument(
  c: Context<WorkerEnv>,
  visitor: DocumentVisitor,
  render: (request: Request, services: ServicesProxy) => Promise<Response>,
): Promise<Response> {
  const started = Date.now();
  const request = c.req.raw;
  const edge = c.get("edge");
  const { config, proxy, version } = c.get("isolate");
  documents ??= createDocumentCache();
  const platform = platformOf(visitor.userAgent);
  const flags = await flagsOf(proxy, edge, config.SITE_ENV, platform);
  const url = new URL(request.url);
  const variant = pageVariantOf(edge, { cf: visitor.cf, userAgent: visitor.userAgent, now: Date.now() });
  const key = documentKey({ version, url, edge, platform, flags, variant });
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
  const { nonce } = visitor;
  if (nonce === undefined || empty || !html || ownRender) return response;
  const body = documentWithNonce(answer.body, nonce);
  return body ? new Response(body, { status: answer.status, headers }) : withNonce(response, nonce);
}

/** An answer rendered for this request alone, and why (`x-cache: BYPASS`). */
export function bypassed(response: Response, reason: string): Response {
  const headers = new Headers(response.headers);
  headers.set("x-cache", "BYPASS");
  headers.append("Server-Timing", `cache;desc="BYPASS ${reason}"`);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * An anonymous visitor's document comes from the cache (its cookies are added after the lookup, by
 * worker/steps/edge-headers.ts); any other request is rendered by the later steps for itself alone.
 */
export const documentCache = createMiddleware<WorkerEnv>(async (c, next) => {
  const request = c.req.raw;
  const bypass = bypassReasonOf(request);
  if (bypass === undefined) {
    const loadContext = c.get("loadContext");
    return cachedDocument(
      c,
      {
        userAgent: request.headers.get("user-agent"),
        cf: request.cf as VisitorInputs["cf"],
        nonce: c.get("nonce"),
      },
      (get, services) => handleRemixRequest(get, { ...loadContext, services }),
    );
  }
  await next();
  replaceAnswer(c, bypassed(c.res, bypass));
});
