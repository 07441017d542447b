import type { RequestContext } from "../edge/request-context";
import type { ServicesProxy } from "../edge/services";
import type { Env } from "../worker/env";

// The typed load context worker/index.ts builds for every Remix request.
declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: {
      env: Env;
      cf: IncomingRequestCfProperties | undefined;
      ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
    };
    edge: RequestContext;
    services: ServicesProxy;
  }
  interface Future {
    v3_singleFetch: true;
  }
}
