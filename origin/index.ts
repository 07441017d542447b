import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { SiteError } from "../rules/errors";
import type { OriginEnv } from "./env";
import { cachePolicy, errorResponse } from "./http";
import { registerAccount } from "./routes/account";
import { registerCatalogResources } from "./routes/amapi-catalog";
import { registerCustomCalls } from "./routes/amapi-custom";
import { registerCatalogSearch } from "./routes/amapi-search";
import { registerCatalogue } from "./routes/catalogue";
import { registerCharts, registerRadioCharts } from "./routes/charts";
import { registerContent } from "./routes/content";
import { registerEvents } from "./routes/events";
import { registerFeatures } from "./routes/features";
import { registerLibrary } from "./routes/library";
import { registerCampaignData, registerOffers } from "./routes/offers";
import { registerPrivacy } from "./routes/privacy";
import { registerSearch } from "./routes/search";
import { registerSinks } from "./routes/sinks";
import { registerSitePages } from "./routes/site-pages";
import { registerStreaming } from "./routes/streaming";
import { registerVideo } from "./routes/video";
import { registerWebProvider } from "./routes/web-provider";
import { registerWebrec } from "./routes/webrec";

export type { OriginEnv } from "./env";

/**
 * The embedded upstream: serves the `/services` API from the local catalogue in D1 when no
 * remote origin is configured. The edge reaches it only through the Upstream interface.
 */
export function createOrigin() {
  const root = new Hono<{ Bindings: OriginEnv }>();
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
