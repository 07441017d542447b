import type { Handler } from "hono";
import { withNosniff } from "../../edge/security-headers";
import { edgeLocationOf, withCallerLocation } from "../../rules/events";
import { edgePlaceHeaders } from "../../rules/schemas/identification";
import type { WorkerEnv } from "../pipeline";

/**
 * The request with where the edge placed its caller (`request.cf` country and city) in
 * `edgePlaceHeaders`, and nothing a client sent under those names: only the edge may say where a
 * visitor is (the proxy forwards them to the calls that make identifications only).
 */
function withEdgePlace(request: Request): Request {
  const cf = request.cf as { country?: unknown; city?: unknown } | undefined;
  const country = typeof cf?.country === "string" ? cf.country : undefined;
  const city = typeof cf?.city === "string" ? encodeURIComponent(cf.city) : undefined;
  const sent = request.headers.has(edgePlaceHeaders.country) || request.headers.has(edgePlaceHeaders.city);
  if (!sent && country === undefined && city === undefined) return request;
  const headers = new Headers(request.headers);
  headers.delete(edgePlaceHeaders.country);
  headers.delete(edgePlaceHeaders.city);
  if (country !== undefined) headers.set(edgePlaceHeaders.country, country);
  if (city !== undefined) headers.set(edgePlaceHeaders.city, city);
  return new Request(request, { headers });
}

/** `/services/*`: the services proxy (edge/services), with where the edge located the caller. */
export const servicesProxy: Handler<WorkerEnv> = async (c) => {
  const answer = await c.get("isolate").proxy.handle(withEdgePlace(c.req.raw), c.executionCtx);
  const cf = c.req.raw.cf as { latitude?: unknown; longitude?: unknown } | undefined;
  return withNosniff(withCallerLocation(new URL(c.req.url).pathname, answer, edgeLocationOf(cf)));
};

/** Spec 001 §7 "/campaign/data/{name}.json": a services call outside /services (decision 022). */
export const campaignData: Handler<WorkerEnv> = async (c) =>
  withNosniff(await c.get("isolate").proxy.handle(c.req.raw, c.executionCtx));
