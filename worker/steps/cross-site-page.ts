import { createMiddleware } from "hono/factory";
import { localizedPath } from "#rules/path.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";
import { handleRemixRequest } from "#worker/remix.ts";
import { bypassed } from "./document-cache";

/**
 * A form another site posted changes nothing (worker/steps/cross-site.ts): 403 with the localized
 * error page, rendered for nobody (no session looked up, no cookie set or cleared).
 */
export const crossSitePage = createMiddleware<WorkerEnv>(async (c, next) => {
  if (!c.get("crossSite")) return next();
  const request = c.req.raw;
  const errorPage = new Request(
    new URL(localizedPath(c.get("edge").lang, "/error/unauthorized"), request.url),
    {
      headers: { "accept-language": request.headers.get("accept-language") ?? "" },
    },
  );
  const refused = await handleRemixRequest(errorPage, c.get("loadContext"));
  return bypassed(new Response(refused.body, { status: 403, headers: refused.headers }), "cross-site");
});
