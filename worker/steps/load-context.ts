import { createMiddleware } from "hono/factory";
import { renderAmpPage } from "#amp/render.tsx";
import type { WorkerEnv } from "#worker/pipeline.ts";

/**
 * What Remix loaders get (app/load-context.ts), built once per page request, anonymous: the
 * session step adds the account. An AMP page depends on its URL only, so its loaders do not see
 * where the edge located the visitor either (`cf`: a concert list from no place, dated in UTC).
 * The AMP renderer is handed to Remix here: the worker may import amp/, app/ may not.
 */
export const remixLoadContext = createMiddleware<WorkerEnv>(async (c, next) => {
  const { config, proxy } = c.get("isolate");
  const edge = c.get("edge");
  c.set("loadContext", {
    cloudflare: {
      env: c.env,
      cf: edge.isAmp ? undefined : (c.req.raw.cf as IncomingRequestCfProperties | undefined),
      ctx: c.executionCtx,
    },
    config,
    edge,
    services: proxy,
    account: null,
    cspNonce: c.get("nonce"),
    renderAmpPage,
  });
  await next();
});
