import { describe, expect, test } from "vitest";
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

// The failure memory (spec 001 §4 and §9) in workerd, against the fake upstream.

describe("failure memory", () => {
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

  test("getJson throws the remembered failure on the 3rd try and limitexceeded on the 101st", async () => {
    const { upstream, calls } = fakeUpstream(answer("down", {}, 502));
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    for (let attempt = 1; attempt <= 100; attempt++) {
      await expect(proxy.getJson(path, okSchema)).rejects.toMatchObject({
        type: "serviceerror",
        status: 502,
        body: "down",
      });
    }
    expect(calls).toHaveLength(2);
    await expect(proxy.getJson(path, okSchema)).rejects.toMatchObject({ type: "limitexceeded" });
    expect(calls).toHaveLength(2);
  });

  const notRemembered: { name: string; reply: Reply }[] = [
    { name: "401 (the caller's credentials)", reply: answer("{}", {}, 401) },
    { name: "a private failure", reply: answer("{}", { "cache-control": "private" }, 500) },
    { name: "an upstream abort", reply: upstreamAbort },
  ];

  for (const rule of notRemembered) {
    test(`${rule.name} is not remembered: 3 tries, 3 calls`, async () => {
      const { upstream, calls } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      for (let attempt = 1; attempt <= 3; attempt++) await proxy.handle(browserRequest(path));
      expect(calls).toHaveLength(3);
    });
  }

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

  test("cool-down also ends limitexceeded, and a success forgets the failures", async () => {
    const clock = testClock();
    const { upstream, calls } = fakeUpstream(answer("boom", {}, 500), answer("boom", {}, 500), answer());
    const proxy = proxyWith(upstream, { now: clock.now, failureCooldownMs: 1_000 });
    const path = uniquePath();
    for (let attempt = 1; attempt <= 101; attempt++) await proxy.handle(browserRequest(path));
    expect((await proxy.handle(browserRequest(path))).status).toBe(429);
    clock.advance(1_000);
    const recovered = await proxy.handle(browserRequest(path));
    expect(recovered.status).toBe(200);
    expect(calls).toHaveLength(3);
  });
});
