import { describe, expect, test } from "vitest";
import { deferred } from "#tests/deferred.ts";
import { answer, browserRequest, fakeUpstream, okSchema, proxyWith, uniquePath } from "./services-fakes";

// Coalescing (edge/services/coalescing.ts): identical GETs in flight share one upstream call.

describe("coalescing of concurrent identical GETs", () => {
  test("100 concurrent identical misses make 1 upstream call, each caller gets its own Response", async () => {
    const { upstream, calls } = fakeUpstream({ ...answer('{"ok":true}'), delayMs: 20 });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => proxy.handle(browserRequest(path))),
    );
    expect(calls).toHaveLength(1);
    expect(new Set(responses).size).toBe(100);
    const sources = responses.map((response) => response.headers.get("x-cache"));
    expect(sources.filter((source) => source === "miss")).toHaveLength(1);
    expect(sources.filter((source) => source === "coalesced")).toHaveLength(99);
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(new Set(bodies)).toEqual(new Set(['{"ok":true}']));
  });

  // One value, frozen: no caller can change what another reads (decision 056).
  test("100 concurrent getJson calls make 1 upstream call and share one frozen value", async () => {
    const { upstream, calls } = fakeUpstream({ ...answer('{"ok":true}'), delayMs: 20 });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const values = await Promise.all(Array.from({ length: 100 }, () => proxy.getJson(path, okSchema)));
    expect(calls).toHaveLength(1);
    expect(new Set(values).size).toBe(1);
    expect(Object.isFrozen(values[0])).toBe(true);
    expect(values.every((value) => value.ok)).toBe(true);
  });

  const sharing: { name: string; headers: Record<string, string>; cookies: string[]; calls: number }[] = [
    {
      name: "same headers, no-store answer",
      headers: { "cache-control": "no-store" },
      cookies: ["a", "a", "a"],
      calls: 1,
    },
    {
      name: "other cookies (dropped on a shared call), stored answer",
      headers: { "cache-control": "max-age=60" },
      cookies: ["a", "b", "c"],
      calls: 1,
    },
  ];

  for (const rule of sharing) {
    test(`${rule.name}: ${rule.calls} upstream call(s)`, async () => {
      const status = rule.name.endsWith("401") ? 401 : 200;
      const { upstream, calls } = fakeUpstream({ ...answer("{}", rule.headers, status), delayMs: 20 });
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      const responses = await Promise.all(
        rule.cookies.map((cookie) =>
          proxy.handle(browserRequest(path, { headers: { cookie: `session=${cookie}` } })),
        ),
      );
      expect(calls).toHaveLength(rule.calls);
      expect(responses.every((response) => response.status === status)).toBe(true);
    });
  }

  test("a caller that aborts stops waiting; the shared call still answers the others", async () => {
    // No race with a clock: the upstream holds its answer until the test lets it go, after the
    // caller that left has had its answer. The shared call is in flight from the upstream's first
    // call until then, so the other caller joins it whenever it gets there.
    const release = deferred();
    const { upstream, calls, called } = fakeUpstream({ ...answer('{"ok":true}'), gate: release.promise });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const controller = new AbortController();
    const leaving = proxy.handle(browserRequest(path, { signal: controller.signal }));
    const staying = proxy.handle(browserRequest(path));
    await called;
    controller.abort();
    const left = await leaving;
    expect(left.status).toBe(502);
    expect(await left.json()).toMatchObject({ error: "abort" });
    release.resolve();
    const stayed = await staying;
    expect(stayed.status).toBe(200);
    expect(stayed.headers.get("x-cache")).toBe("coalesced");
    expect(calls).toHaveLength(1);
  });
});
