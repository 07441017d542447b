import type { RequestContext } from "../edge/request-context";
import type { ServicesProxy } from "../edge/services";
import type { LoginState } from "../rules/account";
import type { Env, SiteConfig } from "../rules/env";

// The typed load context worker/index.ts builds for every Remix request.
declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: {
      env: Env;
      cf: IncomingRequestCfProperties | undefined;
      ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
    };
    /** The environment, parsed once per isolate (rules/env.ts): read settings from here, not from `env`. */
    config: SiteConfig;
    edge: RequestContext;
    services: ServicesProxy;
    /** The signed-in account (edge/session.ts), or null: anonymous, or an AMP page. */
    account: LoginState | null;
    /** This response's Content-Security-Policy nonce (edge/security-headers.ts), for Remix's inline scripts. */
    cspNonce: string;
  }
  interface Future {
    v3_singleFetch: true;
  }
}
