import { describe, expect, test } from "vitest";
import { answer, browserRequest, fakeUpstream, okSchema, proxyWith, uniquePath } from "./services-fakes";

// What the proxy forwards: the allowed paths, hop-by-hop headers, request bodies.

describe("what is forwarded", () => {
  const paths: { path: string; forwarded: boolean }[] = [
    { path: "/services/charts/locations", forwarded: true },
    { path: "/services/amapi/v1/catalog/GB/songs?ids=1", forwarded: true },
    { path: "/services/log", forwarded: true },
    { path: "/services/log/debug", forwarded: true },
    { path: "/services/health", forwarded: true },
    { path: "/services/logout", forwarded: false },
    { path: "/services/healthz", forwarded: false },
    { path: "/services/admin/users", forwarded: false },
    { path: "/services/amapi", forwarded: false },
    { path: "/services/amapi/%2F..%2Fadmin", forwarded: false },
    { path: "/services/amapi/../admin/users", forwarded: false },
    { path: "/services/", forwarded: false },
  ];

  for (const rule of paths) {
    test(`${rule.path}: ${rule.forwarded ? "forwarded" : "404 notfound"}`, async () => {
      const { upstream, calls } = fakeUpstream(answer("{}", { "cache-control": "no-store" }));
      const proxy = proxyWith(upstream);
      const response = await proxy.handle(browserRequest(rule.path));
      expect(calls).toHaveLength(rule.forwarded ? 1 : 0);
      if (!rule.forwarded) {
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "notfound", message: expect.any(String) });
        await expect(proxy.getJson(rule.path, okSchema)).rejects.toMatchObject({ type: "notfound" });
        expect(calls).toHaveLength(0);
      }
    });
  }

  test("allowedPrefixes replaces the default list", async () => {
    const { upstream, calls } = fakeUpstream(answer());
    const proxy = proxyWith(upstream, { allowedPrefixes: ["/services/only/"] });
    expect((await proxy.handle(browserRequest("/services/charts/x"))).status).toBe(404);
    expect((await proxy.handle(browserRequest("/services/only/x"))).status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  test("hop-by-hop headers are stripped both ways; a visitor call's allowed headers pass", async () => {
    const { upstream, calls } = fakeUpstream(
      answer("{}", {
        connection: "x-upstream-private",
        "x-upstream-private": "1",
        "keep-alive": "timeout=5",
        "proxy-authenticate": "Basic",
        "x-upstream": "kept",
        "set-cookie": "s=1",
      }),
    );
    const proxy = proxyWith(upstream);
    const response = await proxy.handle(
      browserRequest(uniquePath("/services/account/"), {
        headers: {
          connection: "x-private",
          "x-private": "1",
          "keep-alive": "timeout=5",
          te: "trailers",
          "proxy-authorization": "Basic x",
          cookie: "webId=1",
          accept: "application/json",
        },
      }),
    );
    const sent = calls[0]?.headers;
    for (const name of ["connection", "x-private", "keep-alive", "te", "proxy-authorization"]) {
      expect(sent?.has(name), name).toBe(false);
    }
    expect(sent?.get("cookie")).toBe("webId=1");
    expect(sent?.get("accept")).toBe("application/json");
    for (const name of ["connection", "x-upstream-private", "keep-alive", "proxy-authenticate"]) {
      expect(response.headers.has(name), name).toBe(false);
    }
    expect(response.headers.get("x-upstream")).toBe("kept");
    expect(response.headers.get("set-cookie")).toBe("s=1");
  });

  const bodies: { name: string; body: () => BodyInit; status: number; calls: number }[] = [
    { name: "256 KiB", body: () => "x".repeat(256 * 1024), status: 200, calls: 1 },
    { name: "256 KiB + 1", body: () => "x".repeat(256 * 1024 + 1), status: 413, calls: 0 },
    { name: "a stream of 300 KiB without a length", body: () => streamOf(300 * 1024), status: 413, calls: 0 },
    { name: "a stream of 1 KiB without a length", body: () => streamOf(1024), status: 200, calls: 1 },
  ];

  for (const rule of bodies) {
    test(`request body of ${rule.name}: ${rule.status}`, async () => {
      const { upstream, calls } = fakeUpstream(answer());
      const proxy = proxyWith(upstream);
      const response = await proxy.handle(
        browserRequest("/services/webrec/match", { method: "POST", body: rule.body() }),
      );
      expect(response.status).toBe(rule.status);
      expect(calls).toHaveLength(rule.calls);
      if (rule.status === 413) expect(await response.json()).toMatchObject({ error: "invalidparam" });
    });
  }
});

function streamOf(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(left, 16 * 1024);
      if (size === 0) return controller.close();
      left -= size;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
  });
}
