import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { SiteError } from "#rules/errors.ts";
import {
  answer,
  browserRequest,
  fakeUpstream,
  hang,
  network,
  okSchema,
  proxyWith,
  type Reply,
  uniquePath,
  upstreamAbort,
} from "./services-fakes";

// What the proxy makes of each kind of upstream failure: a browser's status and body, a loader's SiteError.

describe("error mapping", () => {
  const browser: { name: string; reply: Reply; status: number; error?: string; body?: string }[] = [
    { name: "timeout", reply: hang, status: 504, error: "timeout" },
    { name: "network", reply: network, status: 502, error: "network" },
    { name: "abort", reply: upstreamAbort, status: 502, error: "abort" },
    {
      name: "401 passes through",
      reply: answer('{"redirectUrl":"/x"}', {}, 401),
      status: 401,
      body: '{"redirectUrl":"/x"}',
    },
    { name: "500 passes through", reply: answer("boom", {}, 500), status: 500, body: "boom" },
    { name: "302 passes through", reply: answer("", { location: "/services/health" }, 302), status: 302 },
  ];

  for (const rule of browser) {
    test(`handle: ${rule.name} → ${rule.status}`, async () => {
      const { upstream } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream, { timeoutMs: 50 });
      const response = await proxy.handle(browserRequest(uniquePath()));
      expect(response.status).toBe(rule.status);
      expect(response.headers.get("x-cache")).toBe("miss");
      if (rule.error) {
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(await response.json()).toMatchObject({ error: rule.error, message: expect.any(String) });
      }
      if (rule.body !== undefined) expect(await response.text()).toBe(rule.body);
    });
  }

  const loader: { name: string; reply: Reply; error: Partial<SiteError> }[] = [
    { name: "timeout", reply: hang, error: { type: "timeout" } },
    { name: "network", reply: network, error: { type: "network" } },
    { name: "abort", reply: upstreamAbort, error: { type: "abort" } },
    { name: "401", reply: answer("{}", {}, 401), error: { type: "unauthorized", status: 401 } },
    {
      name: "500",
      reply: answer("boom", {}, 500),
      error: { type: "serviceerror", status: 500, body: "boom" },
    },
    {
      name: "404",
      reply: answer("gone", {}, 404),
      error: { type: "serviceerror", status: 404, body: "gone" },
    },
    { name: "invalid JSON", reply: answer("<html>", {}), error: { type: "serviceerror", status: 200 } },
    { name: "JSON off the schema", reply: answer('{"ok":"yes"}', {}), error: { type: "baddata" } },
    {
      name: "302",
      reply: answer("", { location: "/elsewhere" }, 302),
      error: { type: "redirect", status: 302, args: { location: "/elsewhere" } },
    },
  ];

  for (const rule of loader) {
    test(`getJson: ${rule.name} → ${rule.error.type}`, async () => {
      const { upstream } = fakeUpstream(rule.reply);
      const proxy = proxyWith(upstream, { timeoutMs: 50 });
      const failure = await proxy.getJson(uniquePath(), okSchema).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SiteError);
      expect(failure).toMatchObject(rule.error);
    });
  }

  test("getJson: the caller's abort → abort; the upstream call goes on and is kept", async () => {
    const { upstream, calls } = fakeUpstream({ ...answer(), delayMs: 50 });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const controller = new AbortController();
    const pending = proxy.getJson(path, okSchema, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ type: "abort" });
    expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
    expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
    expect(calls).toHaveLength(1);
  });

  test("a POST the caller aborts is aborted upstream too", async () => {
    const { upstream, calls, called } = fakeUpstream(hang);
    const proxy = proxyWith(upstream);
    const controller = new AbortController();
    const pending = proxy.handle(
      browserRequest("/services/log/debug", { method: "POST", body: "x", signal: controller.signal }),
    );
    // Aborted once the POST is upstream, not after a guess at how long that takes.
    await called;
    controller.abort();
    const response = await pending;
    expect(response.status).toBe(502);
    expect(calls).toHaveLength(1);
  });

  test("a cached copy that no longer fits the caller's schema is baddata and is dropped", async () => {
    const { upstream, calls } = fakeUpstream(answer('{"ok":true}', { "cache-control": "max-age=60" }));
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
    await expect(proxy.getJson(path, v.object({ ok: v.string() }))).rejects.toMatchObject({
      type: "baddata",
    });
    expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });
});
