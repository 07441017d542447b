import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { registerAccount } from "#origin/routes/account.ts";
import { registerCatalogResources } from "#origin/routes/amapi-catalog.ts";
import { registerCustomCalls } from "#origin/routes/amapi-custom.ts";
import { registerCatalogSearch } from "#origin/routes/amapi-search.ts";
import { registerCatalogue } from "#origin/routes/catalogue.ts";
import { registerCharts, registerRadioCharts } from "#origin/routes/charts.ts";
import { registerContent } from "#origin/routes/content.ts";
import { registerEvents } from "#origin/routes/events.ts";
import { registerFeatures } from "#origin/routes/features.ts";
import { registerLibrary } from "#origin/routes/library.ts";
import { registerCampaignData, registerOffers } from "#origin/routes/offers.ts";
import { registerPrivacy } from "#origin/routes/privacy.ts";
import { registerSearch } from "#origin/routes/search.ts";
import { registerSinks } from "#origin/routes/sinks.ts";
import { registerSitePages } from "#origin/routes/site-pages.ts";
import { registerStreaming } from "#origin/routes/streaming.ts";
import { registerVideo } from "#origin/routes/video.ts";
import { registerWebProvider } from "#origin/routes/web-provider.ts";
import { registerWebrec } from "#origin/routes/webrec.ts";
import { SiteError } from "#rules/errors.ts";
import { d1Session } from "./d1-session";
import type { OriginEnv, OriginHonoEnv } from "./env";
import { cachePolicy, errorResponse } from "./http";
import { queue } from "./queue";
import { scheduled } from "./scheduled";

export type { OriginEnv } from "./env";

/** What the origin may keep running after its answer: the calling request's `waitUntil`. */
export type OriginWaitUntil = { waitUntil(promise: Promise<unknown>): void };

/**
 * The embedded origin as a Worker is seen from outside, its one face: requests (`/services/*` and
 * the campaign data), queue batches and Cron Triggers. The site's Worker hands it each of the
 * three and knows nothing else of it; `routes` is its route table, read by the cross-site test.
 */
export type EmbeddedOrigin = {
  /** A request, with the caller's `waitUntil` when there is one (without, its routes await their after-work). */
  fetch(request: Request, env: OriginEnv, context?: OriginWaitUntil): Promise<Response>;
  queue(batch: MessageBatch, env: Pick<OriginEnv, "DB">): Promise<void>;
  scheduled(controller: ScheduledController, env: Pick<OriginEnv, "DB">): Promise<void>;
  routes: readonly { method: string; path: string }[];
};

/**
 * The embedded upstream: serves the `/services` API from the local catalogue in D1 when no
 * remote origin is configured. The edge reaches it only through the Upstream interface.
 */
export function createOrigin(): EmbeddedOrigin {
  const app = originRoutes();
  return {
    fetch: async (request, env, context) =>
      app.fetch(
        request,
        env,
        // Hono's context wants the whole ExecutionContext; the routes use only waitUntil.
        context && {
          waitUntil: (promise) => context.waitUntil(promise),
          passThroughOnException() {},
          props: {},
        },
      ),
    queue,
    scheduled,
    routes: app.routes.map(({ method, path }) => ({ method, path })),
  };
}

function originRoutes() {
  const root = new Hono<OriginHonoEnv>();
  // One D1 session a request, before every route (decision 062).
  root.use("*", d1Session);
  // Spec 001 §7 names the campaign data call outside /services; the base-path app shares the
  // root's routes, so one `fetch` answers both.
  registerCampaignData(root);
  const origin = root.basePath("/services");

  origin.get("/health", (c) => c.json({ ok: true }, 200, { "Cache-Control": cachePolicy.never }));
  registerCharts(origin);
  registerRadioCharts(origin);
  registerContent(origin);
  registerEvents(origin);
  // The catalogue API the pages read (spec 001 §7, 000 §7).
  registerCatalogResources(origin);
  registerCatalogSearch(origin);
  registerCustomCalls(origin);
  registerCatalogue(origin);
  registerSearch(origin);
  registerSinks(origin);
  registerFeatures(origin);
  registerWebrec(origin);
  registerAccount(origin);
  registerWebProvider(origin);
  registerLibrary(origin);
  registerPrivacy(origin);
  registerStreaming(origin);
  registerOffers(origin);
  registerSitePages(origin);
  registerVideo(origin);

  origin.notFound(() => errorResponse(new SiteError("notfound", "No such service")));
  origin.onError((error) => {
    if (error instanceof SiteError) return errorResponse(error);
    if (error instanceof HTTPException) return error.getResponse();
    console.error("origin:", error);
    return errorResponse(new SiteError("serviceerror", "The catalogue could not answer"), 500);
  });
  return origin;
}
