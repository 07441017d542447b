import type { Handler } from "hono";
import { withNosniff } from "../../edge/security-headers";
import { edgeLocationOf, withCallerLocation } from "../../rules/events";
import type { WorkerEnv } from "../pipeline";

/** `/services/*`: the services proxy (edge/services), with where the edge located the caller. */
export const servicesProxy: Handler<WorkerEnv> = async (c) => {
  const answer = await c.var.isolate.proxy.handle(c.req.raw, c.executionCtx);
  const cf = c.req.raw.cf as { latitude?: unknown; longitude?: unknown } | undefined;
  return withNosniff(withCallerLocation(new URL(c.req.url).pathname, answer, edgeLocationOf(cf)));
};

/** Spec 001 §7 "/campaign/data/{name}.json": a services call outside /services (decision 022). */
export const campaignData: Handler<WorkerEnv> = async (c) =>
  withNosniff(await c.var.isolate.proxy.handle(c.req.raw, c.executionCtx));
