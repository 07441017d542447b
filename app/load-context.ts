import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import type { RequestContext } from "#edge/request-context.ts";
import type { ServicesProxy } from "#edge/services/index.ts";
import type { LoginState } from "#rules/account.ts";
import type { Env, SiteConfig } from "#rules/env.ts";

/**
 * Draws an `/amp/…` page from Remix's render of its route (amp/render.tsx `renderAmpPage`). The
 * worker hands it over, so app/ never imports amp/ (amp/ draws with app/'s views).
 */
export type AmpRenderer = (
  remix: EntryContext,
  context: AppLoadContext,
  request: Request,
) => Promise<Response>;

// The typed load context worker/steps/load-context.ts builds for every Remix request.
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
    /** The AMP renderer, for the document of a page whose request context `isAmp`. */
    renderAmpPage: AmpRenderer;
  }
  interface Future {
    v3_singleFetch: true;
  }
}
