import type { Context } from "hono";
import * as v from "valibot";
import { SiteError } from "../../rules/errors";
import type { receivedBeaconsSchema } from "../../rules/schemas/metrics";
import { sha256 } from "../accounts";
import type { OriginApp, OriginEnv } from "../env";
import {
  cachePolicy,
  clientAddressOf,
  errorResponse,
  intParam,
  invalidParam,
  json,
  notFound,
  parseParams,
} from "../http";
import { mailerOf } from "../mail";

/** The largest log body the sink stores; beyond it the request is refused. */
export const logBodyMaxBytes = 8_192;

/**
 * Writes one client may make per minute, beacons and logs together: a page sends a handful,
 * a netlog session a few dozen (issue 28: 1 500 × 16 KB bodies grew D1 by 25 MB).
 */
export const beaconsPerClientPerMinute = 120;

/** The per-minute limit in force: the environment's SINK_WRITES_PER_CLIENT_MINUTE, else the default. */
function writesPerClientMinute(env: OriginEnv): number {
  const configured = Number(env.SINK_WRITES_PER_CLIENT_MINUTE);
  return Number.isInteger(configured) && configured > 0 ? configured : beaconsPerClientPerMinute;
}

/** Rows the sinks keep: the newest; older ones are dropped as new ones arrive (≤ 80 MB of bodies). */
export const beaconsKept = 10_000;

/** A 1×1 transparent GIF: what an image beacon loads. */
const pixel = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (ch) =>
  ch.charCodeAt(0),
);

const routeSchema = v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/, "Invalid metric route"));

/**
 * Stores a beacon unless its client is over the limit of the last minute, and drops the rows past
 * the newest `beaconsKept` (ids only grow). False: the client is over its limit.
 */
async function store(
  c: Context<{ Bindings: OriginEnv }>,
  kind: "metrics" | "log",
  route: string,
  query: string,
  body: string | null,
): Promise<boolean> {
  const clientHash = await sha256(`beacon-client:${clientAddressOf(c)}`);
  const now = Date.now();
  const [inserted] = await c.env.DB.batch([
    c.env.DB.prepare(
      `INSERT INTO beacons (kind, route, query, body, received_at, client_hash)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE (SELECT COUNT(*) FROM beacons WHERE client_hash = ?6 AND received_at > ?7) < ?8`,
    ).bind(kind, route, query, body, now, clientHash, now - 60_000, writesPerClientMinute(c.env)),
    c.env.DB.prepare("DELETE FROM beacons WHERE id <= (SELECT MAX(id) FROM beacons) - ?").bind(beaconsKept),
  ]);
  return inserted?.meta.changes === 1;
}

function limited(): Response {
  const response = errorResponse(new SiteError("limitexceeded", "Too many writes a minute from this client"));
  response.headers.set("Retry-After", "60");
  return response;
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
    const { results } = await c.env.DB.prepare(
      "SELECT kind, route, COUNT(*) AS n FROM beacons WHERE received_at >= ? GROUP BY kind, route",
    )
      .bind(since)
      .all<{ kind: string; route: string; n: number }>();
    const body: v.InferInput<typeof receivedBeaconsSchema> = {
      since,
      total: 0,
      metrics: 0,
      log: 0,
      routes: {},
    };
    for (const row of results) {
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
    const route = parseParams(routeSchema, c.req.param("route"));
    const time = parseParams(
      v.pipe(v.string(), v.regex(/^\d{1,16}$/, "Invalid metric time")),
      c.req.param("time"),
    );
    const url = new URL(c.req.url);
    const query = `time=${time}${url.search ? `&${url.search.slice(1)}` : ""}`;
    if (!(await store(c, "metrics", route, query, null))) return limited();
    return new Response(pixel, {
      headers: { "Content-Type": "image/gif", "Cache-Control": cachePolicy.never },
    });
  });

  /** Spec 000 §7 `POST /services/log[/{tag}]` with a text body (netlog=1 debug logging). */
  async function log(c: Context<{ Bindings: OriginEnv }>, tag: string) {
    const tooLarge = invalidParam(`Log body over ${logBodyMaxBytes} bytes`);
    // Refused before reading when the declared length is over; counted again once read.
    if (Number(c.req.header("content-length")) > logBodyMaxBytes) throw tooLarge;
    const body = await c.req.text();
    if (new TextEncoder().encode(body).length > logBodyMaxBytes) throw tooLarge;
    if (!(await store(c, "log", tag, new URL(c.req.url).search.slice(1), body))) return limited();
    return new Response(null, { status: 204, headers: { "Cache-Control": cachePolicy.never } });
  }
  origin.post("/log", (c) => log(c, "default"));
  origin.post("/log/:tag", (c) => log(c, parseParams(routeSchema, c.req.param("tag"))));
}
