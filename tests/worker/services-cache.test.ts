import { describe, expect, test } from "vitest";
import {
  answer,
  browserRequest,
  cacheApi,
  fakeUpstream,
  hang,
  network,
  okSchema,
  proxyWith,
  type Reply,
  testClock,
  uniquePath,
} from "./services-fakes";

// The proxy's cache (edge/services/cache.ts): what the upstream's Cache-Control lets it store and for how long, stale-if-error, the memory tier and the Cache API tier.

describe("storage by the upstream's Cache-Control", () => {
  const rules: {
    name: string;
    headers: Record<string, string>;
    request?: Record<string, string>;
    stored: boolean;
  }[] = [
    { name: "no Cache-Control (default lifetime)", headers: {}, stored: true },
    { name: "max-age=60", headers: { "cache-control": "max-age=60" }, stored: true },
    {
      name: "s-maxage=60 over max-age=0",
      headers: { "cache-control": "max-age=0, s-maxage=60" },
      stored: true,
    },
    { name: "max-age=0", headers: { "cache-control": "max-age=0" }, stored: false },
    { name: "no-store", headers: { "cache-control": "no-store" }, stored: false },
    { name: "no-cache", headers: { "cache-control": "no-cache, max-age=60" }, stored: false },
    { name: "private", headers: { "cache-control": "private, max-age=60" }, stored: false },
    { name: "Set-Cookie", headers: { "cache-control": "max-age=60", "set-cookie": "a=1" }, stored: false },
    {
      name: "Vary on a request header",
      headers: { "cache-control": "max-age=60", vary: "x-shz-lat" },
      stored: false,
    },
    {
      name: "Vary: Accept-Encoding",
      headers: { "cache-control": "max-age=60", vary: "Accept-Encoding" },
      stored: true,
    },
    {
      name: "Age uses up the lifetime",
      headers: { "cache-control": "max-age=60", age: "60" },
      stored: false,
    },
  ];

  for (const rule of rules) {
    test(`${rule.name}: ${rule.stored ? "stored" : "never stored"}`, async () => {
      const { upstream, calls } = fakeUpstream(answer('{"ok":true}', rule.headers));
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      const first = await proxy.handle(browserRequest(path, { headers: rule.request ?? {} }));
      const second = await proxy.handle(browserRequest(path, { headers: rule.request ?? {} }));
      expect(first.headers.get("x-cache")).toBe("miss");
      expect(second.headers.get("x-cache")).toBe(rule.stored ? "hit" : "miss");
      expect(calls).toHaveLength(rule.stored ? 1 : 2);
      expect(await second.json()).toEqual({ ok: true });
    });
  }

  const lifetimes: { headers: Record<string, string>; afterMs: number; stored: boolean }[] = [
    { headers: { "cache-control": "max-age=10" }, afterMs: 9_999, stored: true },
    { headers: { "cache-control": "max-age=10" }, afterMs: 10_000, stored: false },
    { headers: { "cache-control": "max-age=100, s-maxage=5" }, afterMs: 5_000, stored: false },
    { headers: { "cache-control": "max-age=10", age: "8" }, afterMs: 2_000, stored: false },
    { headers: {}, afterMs: 59_999, stored: true },
    { headers: {}, afterMs: 60_000, stored: false },
  ];

  for (const rule of lifetimes) {
    test(`${JSON.stringify(rule.headers)} after ${rule.afterMs} ms: ${rule.stored ? "hit" : "miss"}`, async () => {
      const clock = testClock();
      const { upstream, calls } = fakeUpstream(answer('{"ok":true}', rule.headers));
      const proxy = proxyWith(upstream, { now: clock.now });
      const path = uniquePath();
      await proxy.handle(browserRequest(path));
      clock.advance(rule.afterMs);
      const again = await proxy.handle(browserRequest(path));
      expect(again.headers.get("x-cache")).toBe(rule.stored ? "hit" : "miss");
      expect(calls).toHaveLength(rule.stored ? 1 : 2);
    });
  }

  test("a hit says its age and where it came from", async () => {
    const clock = testClock();
    const { upstream } = fakeUpstream(answer('{"ok":true}', { "cache-control": "max-age=60" }));
    const proxy = proxyWith(upstream, { now: clock.now });
    const path = uniquePath();
    const miss = await proxy.handle(browserRequest(path));
    expect(miss.headers.get("server-timing")).toMatch(/proxy;desc="miss";dur=[\d.]+, upstream;dur=[\d.]+/);
    clock.advance(7_000);
    const hit = await proxy.handle(browserRequest(path));
    expect(hit.headers.get("age")).toBe("7");
    expect(hit.headers.get("server-timing")).toMatch(/^proxy;desc="hit memory";dur=[\d.]+$/);
    expect(hit.headers.get("cache-control")).toBe("max-age=60");
  });
});

describe("stale-if-error", () => {
  const rules: {
    name: string;
    headers: Record<string, string>;
    failure: Reply;
    afterMs: number;
    stale: boolean;
  }[] = [
    {
      name: "5xx",
      headers: { "cache-control": "max-age=10" },
      failure: answer("", {}, 503),
      afterMs: 11_000,
      stale: true,
    },
    {
      name: "network",
      headers: { "cache-control": "max-age=10" },
      failure: network,
      afterMs: 11_000,
      stale: true,
    },
    {
      name: "timeout",
      headers: { "cache-control": "max-age=10" },
      failure: hang,
      afterMs: 11_000,
      stale: true,
    },
    {
      name: "404 is an answer",
      headers: { "cache-control": "max-age=10" },
      failure: answer("", {}, 404),
      afterMs: 11_000,
      stale: false,
    },
    {
      name: "must-revalidate",
      headers: { "cache-control": "max-age=10, must-revalidate" },
      failure: answer("", {}, 503),
      afterMs: 11_000,
      stale: false,
    },
    {
      name: "within stale-if-error=5",
      headers: { "cache-control": "max-age=10, stale-if-error=5" },
      failure: answer("", {}, 503),
      afterMs: 14_999,
      stale: true,
    },
    {
      name: "past stale-if-error=5",
      headers: { "cache-control": "max-age=10, stale-if-error=5" },
      failure: answer("", {}, 503),
      afterMs: 15_000,
      stale: false,
    },
    {
      name: "past the default window of a day",
      headers: { "cache-control": "max-age=10" },
      failure: answer("", {}, 503),
      afterMs: 10_000 + 86_400_000,
      stale: false,
    },
  ];

  for (const rule of rules) {
    test(`${rule.name}: ${rule.stale ? "the last good copy answers" : "the failure answers"}`, async () => {
      const clock = testClock();
      const { upstream, calls } = fakeUpstream(answer('{"ok":true}', rule.headers), rule.failure);
      const proxy = proxyWith(upstream, { now: clock.now, timeoutMs: 50 });
      const path = uniquePath();
      await proxy.handle(browserRequest(path));
      clock.advance(rule.afterMs);
      const response = await proxy.handle(browserRequest(path));
      expect(calls).toHaveLength(2);
      expect(response.headers.get("x-cache")).toBe(rule.stale ? "stale" : "miss");
      if (rule.stale) {
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ok: true });
        expect(response.headers.get("age")).toBe(String(Math.floor(rule.afterMs / 1000)));
      } else {
        expect(response.status).not.toBe(200);
      }
    });
  }

  const remembered: { name: string; failure: Reply; sources: string[]; statuses: number[] }[] = [
    {
      name: "a remembered 500: the copy answers every try, past the 101st, with 2 calls",
      failure: answer("", {}, 500),
      sources: ["stale", "stale", "stale", "stale"],
      statuses: [200, 200, 200, 200],
    },
    {
      name: "a remembered 404: the upstream said no, so the copy never answers; limitexceeded on the 101st",
      failure: answer("", {}, 404),
      sources: ["miss", "miss", "failure", "failure"],
      statuses: [404, 404, 404, 429],
    },
  ];

  for (const rule of remembered) {
    test(rule.name, async () => {
      const clock = testClock();
      const { upstream, calls } = fakeUpstream(
        answer('{"ok":true}', { "cache-control": "max-age=10" }),
        rule.failure,
      );
      const proxy = proxyWith(upstream, { now: clock.now });
      const path = uniquePath();
      await proxy.handle(browserRequest(path));
      clock.advance(11_000);
      const answers: Response[] = [];
      for (let attempt = 1; attempt <= 101; attempt++) answers.push(await proxy.handle(browserRequest(path)));
      const watched = [answers[0], answers[1], answers[2], answers[100]];
      expect(watched.map((response) => response?.headers.get("x-cache"))).toEqual(rule.sources);
      expect(watched.map((response) => response?.status)).toEqual(rule.statuses);
      expect(calls).toHaveLength(3);
    });
  }
});

describe("memory tier and Cache API tier", () => {
  test("the memory tier keeps at most maxEntries (least recently used goes first)", async () => {
    const { upstream, calls } = fakeUpstream(answer());
    const proxy = proxyWith(upstream, { cache: null, memory: { maxEntries: 2 } });
    const [a, b, c] = [uniquePath(), uniquePath(), uniquePath()];
    for (const path of [a, b, a, c, a, b]) await proxy.handle(browserRequest(path));
    expect(calls.map((call) => call.url.pathname)).toEqual([a, b, c, b]);
  });

  test("the memory tier keeps at most maxBytes, and no entry over maxEntryBytes", async () => {
    const { upstream, calls } = fakeUpstream(answer(JSON.stringify({ ok: true, pad: "x".repeat(1000) })));
    const proxy = proxyWith(upstream, { cache: null, memory: { maxBytes: 2_600, maxEntryBytes: 1_300 } });
    const [a, b, c] = [uniquePath(), uniquePath(), uniquePath()];
    for (const path of [a, b, c, a]) await proxy.handle(browserRequest(path));
    expect(calls).toHaveLength(4);

    const big = fakeUpstream(answer(JSON.stringify({ ok: true, pad: "x".repeat(2000) })));
    const small = proxyWith(big.upstream, { cache: null, memory: { maxEntryBytes: 1_300 } });
    const path = uniquePath();
    for (let attempt = 1; attempt <= 2; attempt++) await small.handle(browserRequest(path));
    expect(big.calls).toHaveLength(2);
  });

  test("after eviction from memory, the Cache API answers", async () => {
    const { upstream, calls } = fakeUpstream(answer('{"ok":true}', { "cache-control": "max-age=60" }));
    const proxy = proxyWith(upstream, { memory: { maxEntries: 1 } });
    const [a, b] = [uniquePath(), uniquePath()];
    await proxy.handle(browserRequest(a));
    await proxy.handle(browserRequest(b));
    const again = await proxy.handle(browserRequest(a));
    expect(calls).toHaveLength(2);
    expect(again.headers.get("x-cache")).toBe("hit");
    expect(again.headers.get("server-timing")).toMatch(/proxy;desc="hit cacheapi"/);
    expect(await again.json()).toEqual({ ok: true });
    const promoted = await proxy.handle(browserRequest(a));
    expect(promoted.headers.get("server-timing")).toMatch(/proxy;desc="hit memory"/);
  });

  test("another isolate's proxy finds the copy in the Cache API; its lifetime is the stored one", async () => {
    const clock = testClock();
    const first = fakeUpstream(answer('{"ok":true}', { "cache-control": "max-age=10", "x-kept": "1" }));
    const second = fakeUpstream(answer('{"ok":false}'));
    const path = uniquePath();
    await proxyWith(first.upstream, { now: clock.now }).handle(browserRequest(path));
    const other = proxyWith(second.upstream, { now: clock.now });
    const hit = await other.handle(browserRequest(path));
    expect(hit.headers.get("x-cache")).toBe("hit");
    expect(hit.headers.get("x-kept")).toBe("1");
    expect(hit.headers.get("cache-control")).toBe("max-age=10");
    clock.advance(10_000);
    const expired = proxyWith(second.upstream, { now: clock.now });
    expect(await (await expired.handle(browserRequest(path))).json()).toEqual({ ok: false });
    expect(second.calls).toHaveLength(1);
  });

  const unreadable: { name: string; meta: string | undefined }[] = [
    { name: "no meta header", meta: undefined },
    { name: "meta that is not JSON", meta: "%7Bnot" },
    {
      name: "meta of the wrong shape",
      meta: encodeURIComponent(
        JSON.stringify({ status: 500, headers: [], storedAt: 1, freshUntil: 2, staleUntil: 3 }),
      ),
    },
  ];

  for (const rule of unreadable) {
    test(`a Cache API copy with ${rule.name} is validated, dropped and counts as a miss`, async () => {
      const path = uniquePath();
      const headers: Record<string, string> = { "cache-control": "public, max-age=600" };
      if (rule.meta) headers["x-services-cache-meta"] = rule.meta;
      await cacheApi.put(`https://services.internal${path}`, new Response('{"ok":"forged"}', { headers }));
      const { upstream, calls } = fakeUpstream(answer('{"ok":true}', { "cache-control": "max-age=60" }));
      const proxy = proxyWith(upstream, { memory: { maxEntries: 0 } });
      expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
      expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
      expect(calls).toHaveLength(1);
    });
  }
});
