import { createMiddleware } from "hono/factory";
import { anonymous } from "#edge/session.ts";
import { localizedPath } from "#rules/path.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";
import { withEdgeHeaders } from "./edge-headers";

/**
 * /en/…, /zh-hk/…, /DE/…: one canonical URL per page and language (301). An AMP address's own
 * moves are the AMP step's (amp/request.ts).
 */
export const canonicalPrefix = createMiddleware<WorkerEnv>(async (c, next) => {
  const edge = c.get("edge");
  if (edge.isAmp || edge.path.nonCanonicalPrefix === undefined) return next();
  const target = localizedPath(edge.lang, edge.path.canonicalPath) + new URL(c.req.url).search;
  return withEdgeHeaders(new Response(null, { status: 301, headers: { Location: target } }), edge, anonymous);
});
