import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Context } from "hono";
import type { RequestContext } from "#edge/request-context.ts";
import type { ServicesProxy } from "#edge/services/index.ts";
import type { SessionResolution } from "#edge/session.ts";
import type { Env, SiteConfig } from "#rules/env.ts";

/**
 * What lives as long as the isolate: the environment, parsed once (a bad value fails loudly at the
 * first request), and one services proxy (its caches and failure counters). `version`: the build
 * and its configuration, the first part of every document's key.
 */
export type Isolate = { env: Env; config: SiteConfig; proxy: ServicesProxy; version: string };

/**
 * The worker's Hono environment: its bindings, and what each step of the pipeline (worker/index.ts)
 * tells the steps after it, in the order they set it.
 */
export type WorkerEnv = {
  Bindings: Env;
  Variables: {
    /** worker/steps/isolate.ts */
    isolate: Isolate;
    /** worker/steps/cross-site.ts: another site made this state-changing request. */
    crossSite: boolean;
    /** worker/steps/resolve-request.ts: the request resolved once, for both renderers. */
    edge: RequestContext;
    /** worker/steps/security-headers.ts: this answer's Content-Security-Policy nonce. */
    nonce: string;
    /** worker/steps/load-context.ts: what Remix loaders get. */
    loadContext: AppLoadContext;
    /** worker/steps/session.ts; anonymous until that step runs (worker/steps/edge-headers.ts). */
    session: SessionResolution;
  };
};

/**
 * A step's rewrite of the answer the later steps made. Hono's `c.res = answer` copies the old
 * answer's headers onto the new one (undoing a header the rewrite changed); the rewrite is already
 * the whole answer, so the old one is dropped first.
 */
export function replaceAnswer(c: Context<WorkerEnv>, answer: Response): void {
  c.res = undefined;
  c.res = answer;
}
