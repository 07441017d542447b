import type { Env, SiteConfig } from "../edge/env";
import type { RequestContext } from "../edge/request-context";
import type { ServicesProxy } from "../edge/services";

// The typed load context worker/index.ts builds for every Remix request.
declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: {
      env: Env;
      cf: IncomingRequestCfProperties | undefined;
      ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
    };
    /** The environment, parsed once per isolate (edge/env.ts): read settings from here, not from `env`. */
    config: SiteConfig;
    edge: RequestContext;
    services: ServicesProxy;
  }
  interface Future {
    v3_singleFetch: true;
  }
}
