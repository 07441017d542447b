import { Hono } from "hono";
import { ampPages } from "#worker/steps/amp.ts";
import { canonicalPrefix } from "#worker/steps/canonical-prefix.ts";
import { crossSite } from "#worker/steps/cross-site.ts";
import { crossSitePage } from "#worker/steps/cross-site-page.ts";
import { documentCache } from "#worker/steps/document-cache.ts";
import { edgeHeaders } from "#worker/steps/edge-headers.ts";
import { isolateStep } from "#worker/steps/isolate.ts";
import { remixLoadContext } from "#worker/steps/load-context.ts";
import { boundedPageBody, cheapRefusals } from "#worker/steps/refusals.ts";
import { renderPage } from "#worker/steps/render-page.ts";
import { requestErrors } from "#worker/steps/request-errors.ts";
import { resolvedRequest } from "#worker/steps/resolve-request.ts";
import { securityHeaders } from "#worker/steps/security-headers.ts";
import { campaignData, servicesProxy } from "#worker/steps/services.ts";
import { session } from "#worker/steps/session.ts";
import { visitorVoucher } from "#worker/steps/visitor-voucher.ts";
import { embeddedOrigin } from "./embedded-origin";
import type { WorkerEnv } from "./pipeline";
import { siteFiles } from "./site-files";

/**
 * The worker: every request goes down this list of steps (worker/steps/, one file each, their
 * tests in tests/worker/pipeline-steps.test.ts), each one answering or passing on to the next; what a step
 * learns for the later ones is set on the context (worker/pipeline.ts `WorkerEnv`) and read with
 * `c.get`: hono's `c.var` copies every variable into a new object at each read (decision 048).
 */
const app = new Hono<WorkerEnv>()
  // Every request: a request over a size limit, or a path Remix cannot route, is refused before
  // anything else; then the one cross-site rule, pages and services alike.
  .use(cheapRefusals, isolateStep, crossSite)
  // The services calls.
  .all("/services/*", servicesProxy)
  .all("/campaign/data/*", campaignData)
  // robots.txt, sitemaps, web app manifests, security.txt: one answer per URL, not pages.
  .route("/", siteFiles)
  // Pages, React and AMP.
  .use(boundedPageBody, resolvedRequest, canonicalPrefix, securityHeaders, remixLoadContext, ampPages)
  // React pages: an anonymous visitor's from the document cache, any other rendered for the request.
  .use(edgeHeaders, visitorVoucher, crossSitePage, requestErrors, documentCache, session)
  .all("*", renderPage);

/** The worker's three entry points: requests; queue batches and Cron Triggers, the embedded origin's (origin/queue.ts, origin/scheduled.ts). */
export default {
  fetch: app.fetch,
  queue: (batch, env) => embeddedOrigin.queue(batch, env),
  scheduled: (controller, env) => embeddedOrigin.scheduled(controller, env),
} satisfies ExportedHandler<WorkerEnv["Bindings"]>;
