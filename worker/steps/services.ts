import type { Handler } from "hono";
import { withNosniff } from "#edge/security-headers.ts";
import { makesIdentifications } from "#edge/services/index.ts";
import { readCookies } from "#rules/cookies.ts";
import { visitorVoucherKeysOf } from "#rules/env.ts";
import { edgeLocationOf, withCallerLocation } from "#rules/events.ts";
import { asksNotToBeTracked } from "#rules/global-privacy-control.ts";
import { edgePlaceHeaders, vouchedVisitorHeader } from "#rules/schemas/identification.ts";
import { isVouched, type VoucherKey } from "#rules/visitor-voucher.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/**
 * The request with what only the edge may say about its caller, and nothing a client sent under
 * those names: where it placed them (`request.cf` country and city, in `edgePlaceHeaders`), and the
 * webId it vouched for (`vouchedVisitorHeader`: the request's voucher is the site's for its webId,
 * and the visitor did not ask not to be tracked). The proxy forwards them to the calls that make
 * identifications only.
 */
async function withEdgeWord(request: Request, keys: readonly VoucherKey[] | null): Promise<Request> {
  const cf = request.cf as { country?: unknown; city?: unknown } | undefined;
  const country = typeof cf?.country === "string" ? cf.country : undefined;
  const city = typeof cf?.city === "string" ? encodeURIComponent(cf.city) : undefined;
  const pathname = new URL(request.url).pathname;
  let vouched: string | undefined;
  if (keys && makesIdentifications(pathname)) {
    const cookies = readCookies(request.headers.get("cookie"));
    const untracked = asksNotToBeTracked({ header: request.headers.get("sec-gpc") });
    if (cookies.webId && !untracked && (await isVouched(keys, cookies.webId, cookies.webIdVoucher)))
      vouched = cookies.webId;
  }
  const names = [edgePlaceHeaders.country, edgePlaceHeaders.city, vouchedVisitorHeader];
  const sent = names.some((name) => request.headers.has(name));
  if (!sent && country === undefined && city === undefined && vouched === undefined) return request;
  const headers = new Headers(request.headers);
  for (const name of names) headers.delete(name);
  if (country !== undefined) headers.set(edgePlaceHeaders.country, country);
  if (city !== undefined) headers.set(edgePlaceHeaders.city, city);
  if (vouched !== undefined) headers.set(vouchedVisitorHeader, vouched);
  return new Request(request, { headers });
}

/** `/services/*`: the services proxy (edge/services), with where the edge located the caller. */
export const servicesProxy: Handler<WorkerEnv> = async (c) => {
  const { proxy, config } = c.get("isolate");
  const request = await withEdgeWord(c.req.raw, visitorVoucherKeysOf(config));
  const answer = await proxy.handle(request, c.executionCtx);
  const cf = c.req.raw.cf as { latitude?: unknown; longitude?: unknown } | undefined;
  return withNosniff(withCallerLocation(new URL(c.req.url).pathname, answer, edgeLocationOf(cf)));
};

/** Spec 001 §7 "/campaign/data/{name}.json": a services call outside /services (decision 022). */
export const campaignData: Handler<WorkerEnv> = async (c) =>
  withNosniff(await c.get("isolate").proxy.handle(c.req.raw, c.executionCtx));
