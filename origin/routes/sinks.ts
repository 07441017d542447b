import type { Context } from "hono";
import * as v from "valibot";
import type { receivedBeaconsSchema } from "../../edge/schemas/metrics";
import * as db from "../db";
import type { OriginApp, OriginEnv } from "../env";
import { cachePolicy, intParam, invalidParam, json, notFound, parseParams } from "../http";

/** The largest log body the sink stores; beyond it the request is refused. */
export const logBodyMaxBytes = 16_384;

/** A 1×1 transparent GIF: what an image beacon loads. */
const pixel = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (ch) =>
  ch.charCodeAt(0),
);

const routeSchema = v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/, "Invalid metric route"));

async function store(
  d1: D1Database,
  kind: "metrics" | "log",
  route: string,
  query: string,
  body: string | null,
) {
  await d1
    .prepare("INSERT INTO beacons (kind, route, query, body, received_at) VALUES (?, ?, ?, ?, ?)")
    .bind(kind, route, query, body, Date.now())
    .run();
}

export function registerSinks(origin: OriginApp) {
  /** What the sinks received since `since` (ms since the epoch, default 0). */
  origin.get("/metrics/received", async (c) => {
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
    await store(
      c.env.DB,
      "metrics",
      route,
      `time=${time}${url.search ? `&${url.search.slice(1)}` : ""}`,
      null,
    );
    return new Response(pixel, {
      headers: { "Content-Type": "image/gif", "Cache-Control": cachePolicy.never },
    });
  });

  /** Spec 000 §7 `POST /services/log[/{tag}]` with a text body (netlog=1 debug logging). */
  async function log(c: Context<{ Bindings: OriginEnv }>, tag: string) {
    const body = await c.req.text();
    if (new TextEncoder().encode(body).length > logBodyMaxBytes)
      throw invalidParam(`Log body over ${logBodyMaxBytes} bytes`);
    await store(c.env.DB, "log", tag, new URL(c.req.url).search.slice(1), body);
    return new Response(null, { status: 204, headers: { "Cache-Control": cachePolicy.never } });
  }
  origin.post("/log", (c) => log(c, "default"));
  origin.post("/log/:tag", (c) => log(c, parseParams(routeSchema, c.req.param("tag"))));

  /** Spec 000 §7 `GET /services/config/features{app}.json`. */
  origin.get("/config/:file", async (c) => {
    const match = /^features([\w-]*)\.json$/.exec(c.req.param("file"));
    if (!match) throw notFound(`No config ${c.req.param("file")}`);
    const config = await db.featureConfig(c.env.DB, match[1] ?? "");
    if (config === undefined) throw notFound(`No feature config for app "${match[1]}"`);
    return json(c, config, cachePolicy.features);
  });
}
