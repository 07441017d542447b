import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { visitorHeaders } from "./pages";
import { median, quantile, round } from "./stats";

/**
 * Render cost of a page: sequential requests to the worker in workerd, one connection kept alive,
 * each page request followed by one for the static asset; a render is a page request's time minus
 * the static asset's median time (the part both share: loopback HTTP, workerd's entry and the
 * assets router). What remains is the worker's own work for the page — routing, request
 * resolution, loaders on warm proxy caches, the React render — in the runtime that serves it.
 * Every page request is a miss of the edge's document cache (decision 055): its own `miss` parameter
 * makes its own key (the key holds the whole query, edge/document-cache.ts), as a first visitor of
 * a page's address meets it.
 */
export const renderWarmups = 20;
export const renderSamples = 300;
/** A page slower than this per request gets fewer samples, never under `minRenderSamples`. */
export const renderBudgetMsPerPage = 6000;
export const minRenderSamples = 30;

export type RenderCost = {
  path: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  /** The page request's own times, before the static asset's median is taken off. */
  requestP50Ms: number;
  staticP50Ms: number;
};

function timedGet(agent: Agent, url: URL, headers: Record<string, string> = visitorHeaders): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers }, (response) => {
      response.on("data", () => {});
      response.on("end", () => {
        if ((response.statusCode ?? 0) >= 400) reject(new Error(`${url.pathname}: ${response.statusCode}`));
        else resolve(performance.now() - started);
      });
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The page's address with a query parameter no request before it had: a document cache miss. */
export function missOf(page: URL, count: number): URL {
  const url = new URL(page);
  url.search = `${url.search === "" ? "?" : `${url.search}&`}miss=${count}`;
  return url;
}

export async function renderCost(
  base: string,
  path: string,
  staticPath: string,
  headers: Record<string, string> = visitorHeaders,
): Promise<RenderCost> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const page = new URL(path, base);
    const asset = new URL(staticPath, base);
    let requests = 0;
    for (let i = 0; i < renderWarmups; i++) {
      await timedGet(agent, missOf(page, ++requests), headers);
      await timedGet(agent, asset);
    }
    const pageTimes: number[] = [];
    const staticTimes: number[] = [];
    const started = performance.now();
    while (
      pageTimes.length < renderSamples &&
      (pageTimes.length < minRenderSamples || performance.now() - started < renderBudgetMsPerPage)
    ) {
      pageTimes.push(await timedGet(agent, missOf(page, ++requests), headers));
      staticTimes.push(await timedGet(agent, asset));
    }
    const shared = median(staticTimes);
    const renders = pageTimes.map((time) => Math.max(0, time - shared));
    return {
      path,
      samples: renders.length,
      p50Ms: round(quantile(renders, 0.5), 3),
      p99Ms: round(quantile(renders, 0.99), 3),
      requestP50Ms: round(median(pageTimes), 3),
      staticP50Ms: round(shared, 3),
    };
  } finally {
    agent.destroy();
  }
}
