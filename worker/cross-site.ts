import type { MiddlewareHandler } from "hono";
import { isCrossSiteRequest } from "../edge/request-context";
import { type Env, siteOriginOf } from "../rules/env";

/** The worker's Hono environment: its bindings, and what the cross-site step tells the page handler. */
export type WorkerEnv = { Bindings: Env; Variables: { crossSite: boolean } };

/** `/services` and the campaign data are JSON calls: a refusal there is a JSON answer. */
const servicePrefixes = ["/services/", "/campaign/data/"];

/**
 * The one place every state-changing request passes (issue 41): page actions, sign-in and
 * sign-out, and every `/services` write. Another site's write changes nothing. A service answers
 * it 403 here; a page is told (`crossSite`) and shows its localized error page instead of running
 * its action. The body is read to the end and dropped: workerd reports a body left unread when the
 * answer goes out.
 */
export function crossSiteStep(
  siteConfig: (env: Env) => { SITE_ORIGIN: string },
): MiddlewareHandler<WorkerEnv> {
  return async (c, next) => {
    const request = c.req.raw;
    const crossSite = isCrossSiteRequest(request, siteOriginOf(siteConfig(c.env)));
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
  };
}
