import { env } from "cloudflare:test";
import * as v from "valibot";
import { expect, test } from "vitest";
import { createOrigin } from "../../origin";
import { beaconsKept, beaconsPerClientPerMinute, logBodyMaxBytes } from "../../origin/routes/sinks";
import { evaluateFeatures, featureNodeSchema, parseFeatureConfig } from "../../rules/feature-flags";
import { serviceErrorSchema } from "../../rules/schemas/common";
import { receivedBeaconsSchema } from "../../rules/schemas/metrics";

// Strict per node, so every node the origin serves is one rules/feature-flags.ts understands (the
// edge parses node by node with `parseFeatureConfig`, so one bad node does not take the others down).
const featureConfigSchema = v.object({ featureflags: v.record(v.string(), featureNodeSchema) });

const origin = createOrigin();

function call(path: string, init?: RequestInit): Promise<Response> {
  return Promise.resolve(origin.fetch(new Request(`https://example.com/services${path}`, init), env));
}

async function received(since = 0) {
  const response = await call(`/metrics/received?since=${since}`);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  return v.parse(receivedBeaconsSchema, await response.json());
}

test("an image beacon is stored and answered with an uncached pixel", async () => {
  const before = await received();
  const response = await call("/metrics/web.error/1700000000000?errorcode=notfound&screenname=track");
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("image/gif");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  const after = await received();
  expect(after.metrics).toBe(before.metrics + 1);
  expect(after.routes["metrics:web.error"]).toBe((before.routes["metrics:web.error"] ?? 0) + 1);
});

test("a log post is stored, with or without a tag", async () => {
  const before = await received();
  expect((await call("/log", { method: "POST", body: "netlog line" })).status).toBe(204);
  expect((await call("/log/startup", { method: "POST", body: "ready false" })).status).toBe(204);
  const after = await received();
  expect(after.log).toBe(before.log + 2);
  expect(after.routes["log:startup"]).toBe((before.routes["log:startup"] ?? 0) + 1);
  const stored = await env.DB.prepare("SELECT body FROM beacons WHERE route = 'startup'").first<{
    body: string;
  }>();
  expect(stored?.body).toBe("ready false");
});

test("received counts only what arrived since the given time", async () => {
  await call("/metrics/web.pageview/1", {});
  const future = Date.now() + 60_000;
  expect((await received(future)).total).toBe(0);
  expect((await received(0)).total).toBeGreaterThan(0);
});

test.each([
  ["a metric time that is not a number", "/metrics/web.error/soon", "GET"],
  ["a metric route with a slash-free bad name", "/metrics/web%20error/1", "GET"],
  ["a bad since", "/metrics/received?since=yesterday", "GET"],
])("%s answers 400", async (_, path, method) => {
  const response = await call(path, { method });
  expect(response.status).toBe(400);
  expect(v.parse(serviceErrorSchema, await response.json()).error).toBe("invalidparam");
});

test("a log body over the limit is refused", async () => {
  const response = await call("/log", { method: "POST", body: "x".repeat(20_000) });
  expect(response.status).toBe(400);
});

test("the feature config is one the edge evaluates, with every condition kind in use", async () => {
  const response = await call("/config/features.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
  const json: unknown = await response.json();
  const config = v.parse(featureConfigSchema, json);
  expect(parseFeatureConfig(json).rejected).toEqual([]);
  const controls = Object.values(config.featureflags).flatMap((node) => Object.keys(node.control ?? {}));
  for (const kind of ["environments", "countries", "platforms", "loggedin", "rollout"])
    expect(controls).toContain(kind);
  const context = {
    environment: "www",
    country: "GB",
    inid: undefined,
    platform: "web",
    loggedin: false,
    userId: "u1",
  } as const;
  const web = evaluateFeatures(config, context);
  const ios = evaluateFeatures(config, { ...context, platform: "ios" });
  expect(Object.keys(web)).toContain("webrec");
  expect(Object.keys(ios)).not.toContain("webrec");
});

test("an unknown feature config is not found", async () => {
  expect((await call("/config/features-nothing.json")).status).toBe(404);
  expect((await call("/config/other.json")).status).toBe(404);
});

test("an unknown service is a JSON not-found", async () => {
  const response = await call("/nothing/here");
  expect(response.status).toBe(404);
  expect(v.parse(serviceErrorSchema, await response.json()).error).toBe("notfound");
});

// Issue 28 finding 4: the sinks cannot be used to grow the database or to read what others sent.

test("one client's writes are limited per minute; another client still gets through", async () => {
  const from = (ip: string) => ({ method: "POST", body: "line", headers: { "cf-connecting-ip": ip } });
  const statuses: number[] = [];
  for (let write = 1; write <= beaconsPerClientPerMinute + 1; write++)
    statuses.push((await call("/log/limit", from("203.0.113.7"))).status);
  expect(statuses.slice(0, -1).every((status) => status === 204)).toBe(true);
  expect(statuses.at(-1)).toBe(429);
  const pixel = await call("/metrics/web.pageview/1", { headers: { "cf-connecting-ip": "203.0.113.7" } });
  expect(pixel.status).toBe(429);
  expect((await call("/log/limit", from("203.0.113.8"))).status).toBe(204);
});

test.each([
  ["3", 3],
  ["0", beaconsPerClientPerMinute],
  ["many", beaconsPerClientPerMinute],
])("SINK_WRITES_PER_CLIENT_MINUTE=%s allows %i writes a minute", async (configured, allowed) => {
  const limitedEnv = { ...env, SINK_WRITES_PER_CLIENT_MINUTE: configured };
  const ip = `198.51.100.${allowed}${configured.length}`;
  const statuses: number[] = [];
  for (let write = 1; write <= allowed + 1; write++) {
    const request = new Request("https://example.com/services/log/configured", {
      method: "POST",
      body: "line",
      headers: { "cf-connecting-ip": ip },
    });
    statuses.push((await origin.fetch(request, limitedEnv)).status);
  }
  expect(statuses.filter((status) => status === 204)).toHaveLength(allowed);
  expect(statuses.at(-1)).toBe(429);
});

test("the table keeps at most the newest beaconsKept rows", async () => {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO beacons (kind, route, query, body, received_at) SELECT 'log', 'fill', '', 'x', 0 FROM n`,
  )
    .bind(beaconsKept + 50)
    .run();
  expect((await call("/log/newest", { method: "POST", body: "kept" })).status).toBe(204);
  const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM beacons").first<{ n: number }>();
  expect(count?.n).toBeLessThanOrEqual(beaconsKept);
  const newest = await env.DB.prepare("SELECT body FROM beacons WHERE route = 'newest'").first();
  expect(newest).toEqual({ body: "kept" });
});

test("a body declared over the limit is refused before it is read", async () => {
  const response = await call("/log", {
    method: "POST",
    body: "short",
    headers: { "content-length": String(logBodyMaxBytes + 1) },
  });
  expect(response.status).toBe(400);
});

test("the counts page exists only in development (the outbox transport), else not found", async () => {
  const production = {
    ...env,
    MAIL_TRANSPORT: "send_email",
    MAIL: { send: async () => undefined },
    MAIL_FROM: "site@tunewave.example",
  };
  const response = await origin.fetch(
    new Request("https://example.com/services/metrics/received"),
    production,
  );
  expect(response.status).toBe(404);
});
