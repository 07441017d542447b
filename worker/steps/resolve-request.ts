import { createMiddleware } from "hono/factory";
import { resolveRequest } from "#edge/request-context.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/**
 * The request as every later step, the React renderer and the AMP renderer see it
 * (edge/request-context.ts): resolved once, here.
 */
export const resolvedRequest = createMiddleware<WorkerEnv>(async (c, next) => {
  const request = c.req.raw;
  c.set("edge", resolveRequest(request, request.cf as { country?: string } | undefined));
  await next();
});
