import { describe, expect, test } from "vitest";
import { deferred } from "#tests/deferred.ts";
import {
  answer,
  browserRequest,
  fakeUpstream,
  hang,
  network,
  okSchema,
  proxyWith,
  type Reply,
  testClock,
  uniquePath,
  upstreamAbort,
} from "./services-fakes";

// The failure memory (spec 001 §4 "Request caching and retry", §9; decision 059) in workerd,
// against the fake upstream: every failed shared GET, a 404 or other 4xx as well as an outage, is
// remembered by URL; tries 1–2 ask the upstream, 3–100 get the remembered failure, from 101
// `limitexceeded`; it lasts 30 s from the latest upstream failure, and a success forgets it.

describe("tries of a failing shared GET", () => {
  const failures: { name: string; reply: Reply; status: number; body?: string }[] = [
    {
      name: "upstream 500",
      reply: answer("boom", { "content-type": "text/plain" }, 500),
      status: 500,
      body: "boom",
    },
    { name: "upstream 503", reply: answer("busy", {}, 503), status: 503, body: "busy" },
    { name: "timeout", reply: hang, status: 504 },
    { name: "network", reply: network, status: 502 },
    {
      name: "upstream 404",
      reply: answer('{"error":"notfound"}', {}, 404),
      status: 404,
      body: '{"error":"notfound"}',
    },
    { name: "upstream 400", reply: answer("bad", {}, 400), status: 400, body: "bad" },
    { name: "upstream 403", reply: answer("no", {}, 403), status: 403, body: "no" },
    { name: "upstream 410", reply: answer("gone", {}, 410), status: 410, body: "gone" },
    {
      name: "upstream 429",
      reply: answer("slow down", { "retry-after": "5" }, 429),
      status: 429,
      body: "slow down",
    },
  ];

  for (const rule of failures) {
    test(`${rule.name}: tries 1-2 ask the upstream, tries 3-100 get the remembered failure, try 101 limitexceeded`, async () => {
      const { upstream, calls } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream, { timeoutMs: 50 });
      const path = uniquePath();
      const expected = [
        { calls: 1, source: "miss" },
        { calls: 2, source: "miss" },
        { calls: 2, source: "failure" },
      ];
      for (const step of expected) {
        const response = await proxy.handle(browserRequest(path));
        expect(calls).toHaveLength(step.calls);
        expect(response.headers.get("x-cache")).toBe(step.source);
        expect(response.status).toBe(rule.status);
        if (rule.body !== undefined) expect(await response.text()).toBe(rule.body);
      }
      for (let attempt = 4; attempt <= 100; attempt++) {
        const response = await proxy.handle(browserRequest(path));
        expect(response.headers.get("x-cache")).toBe("failure");
        expect(response.status).toBe(rule.status);
      }
      const limited = await proxy.handle(browserRequest(path));
      expect(calls).toHaveLength(2);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("x-cache")).toBe("failure");
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await limited.json()).toMatchObject({ error: "limitexceeded" });
    });
  }

  test("a remembered 404 is the upstream's answer, headers and all", async () => {
    const { upstream } = fakeUpstream(
      answer('{"error":"notfound"}', { "content-type": "application/json" }, 404),
    );
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    for (let attempt = 1; attempt <= 2; attempt++) await proxy.handle(browserRequest(path));
    const remembered = await proxy.handle(browserRequest(path));
    expect(remembered.headers.get("content-type")).toBe("application/json");
    expect(await remembered.json()).toEqual({ error: "notfound" });
  });

  const loaderFailures: { name: string; reply: Reply; status: number; body: string }[] = [
    { name: "502", reply: answer("down", {}, 502), status: 502, body: "down" },
    { name: "404", reply: answer("gone", {}, 404), status: 404, body: "gone" },
  ];

  for (const rule of loaderFailures) {
    test(`getJson: a ${rule.name} is thrown as it came on the 3rd to 100th try, limitexceeded on the 101st`, async () => {
      const { upstream, calls } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      for (let attempt = 1; attempt <= 100; attempt++) {
        await expect(proxy.getJson(path, okSchema)).rejects.toMatchObject({
          type: "serviceerror",
          status: rule.status,
          body: rule.body,
        });
      }
      expect(calls).toHaveLength(2);
      await expect(proxy.getJson(path, okSchema)).rejects.toMatchObject({ type: "limitexceeded" });
      expect(calls).toHaveLength(2);
    });
  }
});

describe("what is never remembered for everyone", () => {
  const notRemembered: { name: string; reply: Reply; path?: string; init?: RequestInit }[] = [
    { name: "401 (the caller's credentials)", reply: answer("{}", {}, 401) },
    { name: "a private failure", reply: answer("{}", { "cache-control": "private" }, 500) },
    { name: "a private 404", reply: answer("{}", { "cache-control": "private, max-age=60" }, 404) },
    { name: "a 404 that sets a cookie", reply: answer("{}", { "set-cookie": "s=1" }, 404) },
    { name: "an upstream abort", reply: upstreamAbort },
    {
      name: "a visitor call's 404 (it carries the visitor's cookie)",
      reply: answer("{}", {}, 404),
      path: uniquePath("/services/account/"),
      init: { headers: { cookie: "session=s" } },
    },
    {
      name: "a located call's 404 (it carries the visitor's place)",
      reply: answer("{}", {}, 404),
      path: `/services/event/v1/GB/shazam-events?countryCode=GB&r=${crypto.randomUUID()}`,
      init: { headers: { "x-shz-lat": "51.5", "x-shz-lng": "-0.1" } },
    },
    { name: "a HEAD's 404", reply: answer("", {}, 404), init: { method: "HEAD" } },
    {
      name: "a POST's 404",
      reply: answer("{}", {}, 404),
      path: "/services/log/debug",
      init: { method: "POST", body: "x" },
    },
  ];

  for (const rule of notRemembered) {
    test(`${rule.name} is not remembered: 3 tries, 3 calls`, async () => {
      const { upstream, calls } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream);
      const path = rule.path ?? uniquePath();
      for (let attempt = 1; attempt <= 3; attempt++) {
        const response = await proxy.handle(browserRequest(path, rule.init));
        expect(response.headers.get("x-cache")).toBe("miss");
      }
      expect(calls).toHaveLength(3);
    });
  }

  test("clients that abort leave nothing remembered: the next visitor gets the upstream's answer", async () => {
    const release = deferred();
    const { upstream, calls, called } = fakeUpstream({ ...answer('{"ok":true}'), gate: release.promise });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const leaving = controllers.map((controller) =>
      proxy.handle(browserRequest(path, { signal: controller.signal })),
    );
    await called;
    for (const controller of controllers) controller.abort();
    for (const left of await Promise.all(leaving)) expect(left.status).toBe(502);
    release.resolve();
    // The next visitor joins the flight still in progress, or finds its answer stored.
    const visitor = await proxy.handle(browserRequest(path));
    expect(visitor.status).toBe(200);
    expect(["coalesced", "hit"]).toContain(visitor.headers.get("x-cache"));
    expect(calls).toHaveLength(1);
  });
});

describe("lifetime: 30 s from the latest upstream failure", () => {
  const cooldowns: { afterMs: number; calls: number; source: string }[] = [
    { afterMs: 29_999, calls: 2, source: "failure" },
    { afterMs: 30_000, calls: 3, source: "miss" },
  ];

  for (const rule of cooldowns) {
    test(`cool-down: ${rule.afterMs} ms after the last failure, ${rule.calls} calls`, async () => {
      const clock = testClock();
      const { upstream, calls } = fakeUpstream(answer("boom", {}, 500));
      const proxy = proxyWith(upstream, { now: clock.now });
      const path = uniquePath();
      for (let attempt = 1; attempt <= 3; attempt++) await proxy.handle(browserRequest(path));
      clock.advance(rule.afterMs);
      const response = await proxy.handle(browserRequest(path));
      expect(calls).toHaveLength(rule.calls);
      expect(response.headers.get("x-cache")).toBe(rule.source);
    });
  }

  // Try 1 fails at 0 s, try 2 at 20 s: the memory lasts until 50 s, not 30 s.
  const fromLatest: { atMs: number; calls: number; source: string }[] = [
    { atMs: 40_000, calls: 2, source: "failure" },
    { atMs: 49_999, calls: 2, source: "failure" },
    { atMs: 50_000, calls: 3, source: "miss" },
  ];

  for (const rule of fromLatest) {
    test(`failures at 0 s and 20 s: at ${rule.atMs} ms, ${rule.source}`, async () => {
      const clock = testClock();
      const { upstream, calls } = fakeUpstream(answer("gone", {}, 404));
      const proxy = proxyWith(upstream, { now: clock.now });
      const path = uniquePath();
      await proxy.handle(browserRequest(path));
      clock.advance(20_000);
      await proxy.handle(browserRequest(path));
      clock.advance(rule.atMs - 20_000);
      const response = await proxy.handle(browserRequest(path));
      expect(calls).toHaveLength(rule.calls);
      expect(response.headers.get("x-cache")).toBe(rule.source);
    });
  }

  test("limitexceeded says in Retry-After when the memory ends", async () => {
    const clock = testClock();
    const { upstream } = fakeUpstream(answer("gone", {}, 404));
    const proxy = proxyWith(upstream, { now: clock.now });
    const path = uniquePath();
    for (let attempt = 1; attempt <= 100; attempt++) await proxy.handle(browserRequest(path));
    clock.advance(10_000);
    const limited = await proxy.handle(browserRequest(path));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("20");
  });

  const recoveries: { name: string; failure: Reply }[] = [
    { name: "a 500", failure: answer("boom", {}, 500) },
    { name: "a 404 (the page now exists)", failure: answer("gone", {}, 404) },
  ];

  for (const rule of recoveries) {
    test(`after ${rule.name}: the cool-down also ends limitexceeded, and a success forgets the failures`, async () => {
      const clock = testClock();
      const recovery = answer('{"ok":true}', { "cache-control": "no-store" });
      const { upstream, calls } = fakeUpstream(rule.failure, rule.failure, recovery, rule.failure);
      const proxy = proxyWith(upstream, { now: clock.now, failureCooldownMs: 1_000 });
      const path = uniquePath();
      for (let attempt = 1; attempt <= 101; attempt++) await proxy.handle(browserRequest(path));
      expect((await proxy.handle(browserRequest(path))).status).toBe(429);
      clock.advance(1_000);
      const recovered = await proxy.handle(browserRequest(path));
      expect(recovered.status).toBe(200);
      expect(calls).toHaveLength(3);
      // Forgotten: the next failures are tries 1 and 2 again, both asked of the upstream.
      for (const expected of [4, 5]) {
        const again = await proxy.handle(browserRequest(path));
        expect(again.headers.get("x-cache")).toBe("miss");
        expect(calls).toHaveLength(expected);
      }
    });
  }
});

describe("retries are one try of the memory", () => {
  const rules: { name: string; reply: Reply; callsPerTry: number }[] = [
    { name: "a 503 retried twice", reply: answer("busy", {}, 503), callsPerTry: 3 },
    { name: "a 404, never retried", reply: answer("gone", {}, 404), callsPerTry: 1 },
  ];

  for (const rule of rules) {
    test(`${rule.name}: ${rule.callsPerTry} call(s) a try, none from the 3rd try`, async () => {
      const { upstream, calls } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      for (let attempt = 1; attempt <= 3; attempt++) {
        await expect(proxy.getJson(path, okSchema, { retry: true })).rejects.toMatchObject({
          type: "serviceerror",
        });
        expect(calls).toHaveLength(rule.callsPerTry * Math.min(attempt, 2));
      }
    });
  }
});
