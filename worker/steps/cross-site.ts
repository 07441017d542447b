import { createMiddleware } from "hono/factory";
import { isCrossSiteRequest } from "#edge/request-context.ts";
import { siteOriginOf } from "#rules/env.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/** `/services` and the campaign data are JSON calls: a refusal there is a JSON answer. */
const servicePrefixes = ["/services/", "/campaign/data/"];

/**
 * The one place every state-changing request passes (decision 030): page actions, sign-in and
 * sign-out, and every `/services` write. Another site's write changes nothing. A service answers
 * it 403 here; a page is told (`crossSite`) and shows its localized error page instead of running
 * its action (worker/steps/cross-site-page.ts). The body is read to the end and dropped: workerd
 * reports a body left unread when the answer goes out.
 */
export const crossSite = createMiddleware<WorkerEnv>(async (c, next) => {
  const request = c.req.raw;
  const crossSite = isCrossSiteRequest(request, siteOriginOf(c.get("isolate").config));
  c.set("crossSite", crossSite);
  if (!crossSite) return next();
  await request.body?.pipeTo(new WritableStream());
  const { pathname } = new URL(request.url);
  if (!servicePrefixes.some((prefix) => pathname.startsWith(prefix))) return next();
  return new Response(
    JSON.stringify({ error: "unauthorized", message: "A request from another site changes nothing here" }),
    {
      status: 403,
      headers: {
        "Content-Type": "application/json; charset=UTF-8",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    },
  );
});
