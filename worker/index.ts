import { Hono } from "hono";
import type { WorkerEnv } from "./pipeline";
import { queue } from "./queue";
import { scheduled } from "./schedule";
import { siteFiles } from "./site-files";
import { ampPages } from "./steps/amp";
import { canonicalPrefix } from "./steps/canonical-prefix";
import { crossSite } from "./steps/cross-site";
import { crossSitePage } from "./steps/cross-site-page";
import { documentCache } from "./steps/document-cache";
import { edgeHeaders } from "./steps/edge-headers";
import { isolateStep } from "./steps/isolate";
import { remixLoadContext } from "./steps/load-context";
import { boundedPageBody, cheapRefusals } from "./steps/refusals";
import { renderPage } from "./steps/render-page";
import { requestErrors } from "./steps/request-errors";
import { resolvedRequest } from "./steps/resolve-request";
import { securityHeaders } from "./steps/security-headers";
import { campaignData, servicesProxy } from "./steps/services";
import { session } from "./steps/session";
import { visitorVoucher } from "./steps/visitor-voucher";

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

/** The worker's three entry points: requests, queue batches (worker/queue.ts), Cron Triggers (worker/schedule.ts). */
export default {
  fetch: app.fetch,
  queue,
  scheduled,
} satisfies ExportedHandler<WorkerEnv["Bindings"]>;
