import { createMiddleware } from "hono/factory";
import { buildBeacon, metricsUrl, requestErrorStatistics } from "#rules/beacon-params.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/**
 * Spec 000 §8: a page answered to a bot, to an agent naming no system, or to a visitor of no known
 * country is an error statistic (decision 026). Once per page document (a client navigation's
 * `.data` request is the same visit), after the answer, through the services proxy like any beacon.
 */
export const requestErrors = createMiddleware<WorkerEnv>(async (c, next) => {
  await next();
  const request = c.req.raw;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.pathname.endsWith(".data")) return;
  // A browser says what it fetches: an icon or a script that reached the pages is no page view.
  const destination = request.headers.get("sec-fetch-dest");
  if (destination !== null && destination !== "document" && destination !== "iframe") return;
  const edge = c.get("edge");
  const { proxy } = c.get("isolate");
  const statistics = requestErrorStatistics({
    isBot: edge.isBot,
    countryUnknown: edge.countrySource === "default",
    userAgent: request.headers.get("user-agent") ?? "",
    screenname: edge.path.pageType === "unknown" ? "error" : edge.path.pageType,
    path: edge.path.canonicalPath,
  });
  const time = Date.now();
  for (const params of statistics) {
    const address = new URL(metricsUrl(buildBeacon(params), time, { isBot: edge.isBot }), url.origin);
    c.executionCtx.waitUntil(proxy.handle(new Request(address), c.executionCtx).catch(() => undefined));
  }
});
