import { createMiddleware } from "hono/factory";
import { answerAmp } from "#amp/request.ts";
import type { ServicesProxy } from "#edge/services/index.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";
import { handleRemixRequest } from "#worker/remix.ts";
import { bypassed, cachedDocument } from "./document-cache";

/**
 * /amp/…: the lightweight page, from the same route, at its one AMP address (amp/request.ts). The
 * document depends on its URL only (edge/request-context.ts): its answer varies by nothing and sets
 * no cookie, so cookies do not bypass the cache, and other methods are answered 405.
 */
export const ampPages = createMiddleware<WorkerEnv>(async (c, next) => {
  const edge = c.get("edge");
  const loadContext = c.get("loadContext");
  if (!edge.isAmp) return next();
  const request = c.req.raw;
  const answer = (page: Request, services: ServicesProxy) =>
    answerAmp(page, edge, (ampRequest) => handleRemixRequest(ampRequest, { ...loadContext, services }));
  return request.method === "GET" || request.method === "HEAD"
    ? cachedDocument(c, { userAgent: null, cf: undefined, nonce: undefined }, answer)
    : bypassed(await answer(request, c.get("isolate").proxy), "method");
});
