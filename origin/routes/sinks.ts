import * as v from "valibot";
import {
  type BeaconMessage,
  beaconMessage,
  beaconRouteSchema,
  logBodyMaxBytes,
  receivedBeaconCounts,
} from "#origin/beacons.ts";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import {
  cachePolicy,
  clientAddressOf,
  errorResponse,
  intParam,
  invalidParam,
  json,
  limitExceeded,
  notFound,
  parseParams,
} from "#origin/http.ts";
import { mailerOf } from "#origin/mail.ts";
import { clientAddressKey } from "#rules/client-address.ts";
import { SiteError } from "#rules/errors.ts";
import type { receivedBeaconsSchema } from "#rules/schemas/metrics.ts";

/**
 * Beacons and logs one client address may send a minute (wrangler.toml `[[ratelimits]]` SINK_LIMIT,
 * which holds the number): only against abuse. A page view sends about ten beacons, so an office of
 * fifty people browsing behind one address sends ~500 a minute and a mobile carrier's NAT puts
 * hundreds of people behind one address; 6 000 leaves them all through, and refuses a script that
 * sends a hundred a second for a minute.
 */
export const beaconsPerClientPerMinute = 6_000;

/** The limiter's key for one client address: its count is kept by Cloudflare, not in D1. */
export function sinkLimitKey(address: string): string {
  return `sinks:${clientAddressKey(address)}`;
}

/**
 * Sends a beacon to the beacons queue (origin/beacons.ts stores it in a batch) unless its client is
 * over the limit of the minute. Null: queued; else the refusal to answer with.
 */
async function store(
  c: OriginContext,
  beacon: Omit<BeaconMessage, "id" | "receivedAt">,
): Promise<Response | null> {
  const { success } = await c.env.SINK_LIMIT.limit({ key: sinkLimitKey(clientAddressOf(c)) });
  if (!success) return limited();
  try {
    await c.env.BEACONS.send(beaconMessage(beacon, Date.now()));
    return null;
  } catch (error) {
    // The queue refused it (over its throughput in a burst, or down): not stored, and the answer
    // says so and when to try again, rather than a 500 (seen in `npm run bench:live`).
    console.error("sinks: the beacon was not queued:", error);
    const response = errorResponse(new SiteError("serviceerror", "The beacon could not be queued"), 503);
    response.headers.set("Retry-After", "5");
    return response;
  }
}

/** A 1×1 transparent GIF: what an image beacon loads. */
const pixel = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (ch) =>
  ch.charCodeAt(0),
);

function limited(): Response {
  return limitExceeded(`Over ${beaconsPerClientPerMinute} beacons a minute from this client address`, 60);
}

export function registerSinks(origin: OriginApp) {
  /**
   * What the sinks received since `since` (ms since the epoch, default 0): for development only
   * (no mail transport, as the outbox), else not found: the counts are nobody else's business.
   */
  origin.get("/metrics/received", async (c) => {
    if (mailerOf(c.env).transport !== "outbox") throw notFound("No such service");
    const { since = 0 } = parseParams(
      v.object({ since: intParam("since", 0, Number.MAX_SAFE_INTEGER) }),
      c.req.query(),
    );
    const counts = await receivedBeaconCounts(c.var.db, since);
    const body: v.InferInput<typeof receivedBeaconsSchema> = {
      since,
      total: 0,
      metrics: 0,
      log: 0,
      routes: {},
    };
    for (const row of counts) {
      body.total += row.n;
      if (row.kind === "metrics") body.metrics += row.n;
      else body.log += row.n;
      const key = `${row.kind}:${row.route}`;
      body.routes[key] = (body.routes[key] ?? 0) + row.n;
    }
    return json(c, body, cachePolicy.never);
  });

  /** Spec 000 §7 image beacon `/services/metrics/{route}/{time}`: stored, answered with a pixel. */
  origin.get("/metrics/:route/:time", async (c) => {
    const route = parseParams(beaconRouteSchema, c.req.param("route"));
    const time = parseParams(
      v.pipe(v.string(), v.regex(/^\d{1,16}$/, "Invalid metric time")),
      c.req.param("time"),
    );
    const url = new URL(c.req.url);
    const query = `time=${time}${url.search ? `&${url.search.slice(1)}` : ""}`;
    const refused = await store(c, { kind: "metrics", route, query, body: null });
    if (refused) return refused;
    return new Response(pixel, {
      headers: { "Content-Type": "image/gif", "Cache-Control": cachePolicy.never },
    });
  });

  /** Spec 000 §7 `POST /services/log[/{tag}]` with a text body (netlog=1 debug logging). */
  async function log(c: OriginContext, tag: string) {
    const tooLarge = invalidParam(`Log body over ${logBodyMaxBytes} bytes`);
    // Refused before reading when the declared length is over; counted again once read.
    if (Number(c.req.header("content-length")) > logBodyMaxBytes) throw tooLarge;
    const body = await c.req.text();
    if (new TextEncoder().encode(body).length > logBodyMaxBytes) throw tooLarge;
    const refused = await store(c, {
      kind: "log",
      route: tag,
      query: new URL(c.req.url).search.slice(1),
      body,
    });
    if (refused) return refused;
    return new Response(null, { status: 204, headers: { "Cache-Control": cachePolicy.never } });
  }
  origin.post("/log", (c) => log(c, "default"));
  origin.post("/log/:tag", (c) => log(c, parseParams(beaconRouteSchema, c.req.param("tag"))));
}
