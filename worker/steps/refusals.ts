import { createMiddleware } from "hono/factory";
import type { WorkerEnv } from "#worker/pipeline.ts";
import { boundedPageRequest, refusalResponse, refusalStatusOf } from "#worker/refusals.ts";

/**
 * Cheap refusals first (decision 028): a request over a size limit, or a path Remix cannot route, is
 * answered before any routing or rendering.
 */
export const cheapRefusals = createMiddleware<WorkerEnv>(async (c, next) => {
  const status = refusalStatusOf(c.req.raw);
  if (status === undefined) return next();
  // The body is read to the end so the connection can serve the visitor's next request.
  await c.req.raw.body?.pipeTo(new WritableStream());
  return refusalResponse(c.req.raw, status);
});

/**
 * A page's body over the page limit, declared or streamed, is refused before any rendering; else
 * the page request goes on with its body read whole (worker/refusals.ts `boundedPageRequest`).
 */
export const boundedPageBody = createMiddleware<WorkerEnv>(async (c, next) => {
  const request = await boundedPageRequest(c.req.raw);
  if (request === 413) return refusalResponse(c.req.raw, 413);
  c.req.raw = request;
  await next();
});
