import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import * as v from "valibot";
import { expect, test, vi } from "vitest";
import { beaconRetentionDays, logBodyMaxBytes, storeBeaconBatch } from "#origin/beacons.ts";
import { createOrigin } from "#origin/index.ts";
import { beaconsPerClientPerMinute, sinkLimitKey } from "#origin/routes/sinks.ts";
import { evaluateFeatures, featureNodeSchema, parseFeatureConfig } from "#rules/feature-flags.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";
import { receivedBeaconsSchema } from "#rules/schemas/metrics.ts";
import worker from "./built-worker";

// Strict per node, so every node the origin serves is one rules/feature-flags.ts understands (the
// edge parses node by node with `parseFeatureConfig`, so one bad node does not take the others down).
const featureConfigSchema = v.object({ featureflags: v.record(v.string(), featureNodeSchema) });

const origin = createOrigin();

function call(path: string, init?: RequestInit): Promise<Response> {
  return Promise.resolve(origin.fetch(new Request(`https://example.com/services${path}`, init), env));
}

/**
 * How long a beacon may take to be stored: the sink sends it to the queue, whose consumer gets a
 * batch when it is full or 5 s after its first message (wrangler.toml); the poll ends when it is.
 */
const delivery = { timeout: 20_000, interval: 100 };

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
  await vi.waitFor(async () => {
    const after = await received();
    expect(after.metrics).toBe(before.metrics + 1);
    expect(after.routes["metrics:web.error"]).toBe((before.routes["metrics:web.error"] ?? 0) + 1);
  }, delivery);
});

test("a log post is stored, with or without a tag", async () => {
  const before = await received();
  expect((await call("/log", { method: "POST", body: "netlog line" })).status).toBe(204);
  expect((await call("/log/startup", { method: "POST", body: "ready false" })).status).toBe(204);
  await vi.waitFor(async () => {
    const after = await received();
    expect(after.log).toBe(before.log + 2);
    expect(after.routes["log:startup"]).toBe((before.routes["log:startup"] ?? 0) + 1);
  }, delivery);
  const stored = await env.DB.prepare("SELECT body FROM beacons WHERE route = 'startup'").first<{
    body: string;
  }>();
  expect(stored?.body).toBe("ready false");
});

test("received counts only what arrived since the given time", async () => {
  const since = Date.now();
  await call("/metrics/web.pageview/1", {});
  await vi.waitFor(async () => expect((await received(since)).total).toBe(1), delivery);
  expect((await received(Date.now() + 60_000)).total).toBe(0);
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
  // No served flag is limited by country (the offers carry their own countries, decisions 022 and
  // 041) or by platform (web recognition is on phones too, spec 002 §4); the conditions themselves
  // are tested in rules/feature-flags.test.ts.
  for (const kind of ["environments", "loggedin", "rollout"]) expect(controls).toContain(kind);
  const context = {
    environment: "www",
    country: "GB",
    inid: undefined,
    platform: "web",
    loggedin: false,
    userId: "u1",
  } as const;
  for (const platform of ["web", "ios", "android"] as const)
    expect(Object.keys(evaluateFeatures(config, { ...context, platform }))).toContain("webrec");
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

// Decision 028, finding 4, and decision 032: the sinks cannot be used to grow the database, yet an office
// or a carrier behind one address is never refused.

const from = (ip: string, init: RequestInit = {}) => ({ ...init, headers: { "cf-connecting-ip": ip } });

test("an office of fifty behind one address: 500 beacons in a minute, none refused, all stored", async () => {
  const before = await received();
  const statuses = await Promise.all(
    Array.from({ length: 500 }, (_, i) =>
      call(`/metrics/web.office/${i}`, from("203.0.113.50")).then((response) => response.status),
    ),
  );
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  await vi.waitFor(
    async () =>
      expect((await received()).routes["metrics:web.office"]).toBe(
        (before.routes["metrics:web.office"] ?? 0) + 500,
      ),
    delivery,
  );
});

test("an address past the abuse limit of the minute is refused with 429 and Retry-After; another is not", async () => {
  const abuser = "203.0.113.7";
  // The limit's count is Cloudflare's (the SINK_LIMIT binding): used up here as a script would.
  for (let write = 1; write <= beaconsPerClientPerMinute; write++)
    expect((await env.SINK_LIMIT.limit({ key: sinkLimitKey(abuser) })).success).toBe(true);
  for (const response of [
    await call("/log/limit", from(abuser, { method: "POST", body: "line" })),
    await call("/metrics/web.pageview/1", from(abuser)),
  ]) {
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("60");
    expect(v.parse(serviceErrorSchema, await response.json()).error).toBe("limitexceeded");
  }
  const before = await received();
  expect((await call("/log/limit", from("203.0.113.8", { method: "POST", body: "line" }))).status).toBe(204);
  await vi.waitFor(async () => expect((await received()).log).toBe(before.log + 1), delivery);
});

// The consumer (origin/beacons.ts), as the worker's queue handler is given a batch.

const queueName = "tunewave-beacons";

type QueueMessage = Parameters<typeof createMessageBatch>[1][number];

/** The built worker's queue handler given one batch (as the queue delivers it), and what it decided. */
async function deliver(messages: QueueMessage[]) {
  const batch = createMessageBatch(queueName, messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

function message(body: unknown, id = crypto.randomUUID()): QueueMessage {
  return { id, timestamp: new Date(), attempts: 1, body };
}

function beacon(route: string, receivedAt = Date.now()) {
  return { id: crypto.randomUUID(), kind: "log", route, query: "", body: "line", receivedAt };
}

async function rowsOf(route: string) {
  const raw = await env.DB.prepare("SELECT COUNT(*) AS n FROM beacons WHERE route = ?")
    .bind(route)
    .first<{ n: number }>();
  const daily = await env.DB.prepare("SELECT SUM(count) AS n FROM daily_beacons WHERE route = ?")
    .bind(route)
    .first<{ n: number | null }>();
  return { raw: raw?.n, daily: daily?.n ?? 0 };
}

test("a batch is stored in one D1 batch of three statements, whatever its size", async () => {
  const batches: number[] = [];
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === "batch")
        return (statements: D1PreparedStatement[]) => {
          batches.push(statements.length);
          return target.batch(statements);
        };
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const batch = createMessageBatch(
    queueName,
    Array.from({ length: 100 }, () => message(beacon("batched"))),
  );
  const ctx = createExecutionContext();
  await storeBeaconBatch(batch, db);
  expect((await getQueueResult(batch, ctx)).ackAll).toBe(true);
  expect(batches).toEqual([3]);
  expect(await rowsOf("batched")).toEqual({ raw: 100, daily: 100 });
});

test("a redelivered batch is stored once", async () => {
  const messages = [message(beacon("redelivered")), message(beacon("redelivered"))];
  for (let delivery = 1; delivery <= 3; delivery++) {
    expect((await deliver(messages)).ackAll).toBe(true);
  }
  expect(await rowsOf("redelivered")).toEqual({ raw: 2, daily: 2 });
});

test("a malformed message is acknowledged and dropped; the rest of its batch is stored", async () => {
  const result = await deliver([
    message({ kind: "metrics", route: "no id" }),
    message("not an object"),
    message(beacon("beside-malformed")),
  ]);
  expect(result.ackAll).toBe(true);
  expect(result.retryBatch.retry).toBe(false);
  expect(await rowsOf("beside-malformed")).toEqual({ raw: 1, daily: 1 });
});

test("a D1 failure retries the whole batch", async () => {
  const failing = {
    prepare: (sql: string) => env.DB.prepare(sql),
    batch: () => Promise.reject(new Error("D1_ERROR: storage unavailable")),
  } as unknown as D1Database;
  const batch = createMessageBatch(queueName, [message(beacon("d1-down"))]);
  const ctx = createExecutionContext();
  await storeBeaconBatch(batch, failing);
  const result = await getQueueResult(batch, ctx);
  expect(result.retryBatch.retry).toBe(true);
  expect(result.ackAll).toBe(false);
  expect(await rowsOf("d1-down")).toEqual({ raw: 0, daily: 0 });
});

test(`raw rows are kept ${beaconRetentionDays} days by their day; the daily counts stay`, async () => {
  const day = 86_400_000;
  const now = Date.UTC(2026, 10, 28, 12);
  const old = now - (beaconRetentionDays + 1) * day;
  const kept = now - (beaconRetentionDays - 1) * day;
  const batch = createMessageBatch(queueName, [
    message(beacon("retention", old)),
    message(beacon("retention", kept)),
  ]);
  await storeBeaconBatch(batch, env.DB, old);
  expect(await rowsOf("retention")).toEqual({ raw: 2, daily: 2 });
  await storeBeaconBatch(createMessageBatch(queueName, [message(beacon("retention", now))]), env.DB, now);
  const { results } = await env.DB.prepare(
    "SELECT day FROM beacons WHERE route = 'retention' ORDER BY day",
  ).all<{ day: string }>();
  expect(results.map((row) => row.day)).toEqual(["2026-11-22", "2026-11-28"]);
  const daily = await env.DB.prepare(
    "SELECT day, count FROM daily_beacons WHERE route = 'retention' ORDER BY day",
  ).all<{ day: string; count: number }>();
  expect(daily.results).toEqual([
    { day: "2026-11-20", count: 1 },
    { day: "2026-11-22", count: 1 },
    { day: "2026-11-28", count: 1 },
  ]);
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
