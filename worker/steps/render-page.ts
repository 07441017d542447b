import type { Handler } from "hono";
import type { SiteConfig } from "#rules/env.ts";
import { siteOriginOf } from "#rules/env.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";
import { handleRemixRequest } from "#worker/remix.ts";

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

/** The page, rendered by Remix for this request alone, as the session's account. */
export const renderPage: Handler<WorkerEnv> = (c) =>
  handleRemixRequest(forRemix(c.req.raw, c.get("isolate").config), {
    ...c.get("loadContext"),
    account: c.get("session").account,
  });
