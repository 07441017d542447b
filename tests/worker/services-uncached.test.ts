import { describe, expect, test } from "vitest";
import {
  answer,
  browserRequest,
  fakeUpstream,
  okSchema,
  proxyWith,
  testClock,
  uniquePath,
} from "./services-fakes";

// POST, PUT and no-cache calls: the timestamp parameter, never stored, never counted.

describe("POST, PUT and no-cache", () => {
  const uncached: {
    name: string;
    send: (proxy: ReturnType<typeof proxyWith>, path: string) => Promise<unknown>;
  }[] = [
    {
      name: "POST",
      send: (proxy, path) => proxy.handle(browserRequest(`${path}?tag=a`, { method: "POST", body: "hello" })),
    },
    {
      name: "PUT",
      send: (proxy, path) => proxy.handle(browserRequest(`${path}?tag=a`, { method: "PUT", body: "hello" })),
    },
    {
      name: "getJson noCache",
      send: (proxy, path) => proxy.getJson(`${path}?tag=a`, okSchema, { noCache: true }),
    },
  ];

  for (const rule of uncached) {
    test(`${rule.name}: carries the timestamp, keeps its query, is never stored`, async () => {
      const clock = testClock();
      const { upstream, calls } = fakeUpstream(
        answer('{"ok":true}', { "cache-control": "public, max-age=600" }),
      );
      const proxy = proxyWith(upstream, { now: clock.now });
      const path = uniquePath();
      await rule.send(proxy, path);
      clock.advance(1);
      await rule.send(proxy, path);
      expect(calls).toHaveLength(2);
      expect(calls.map((call) => call.url.searchParams.get("_"))).toEqual([
        String(clock.now() - 1),
        String(clock.now()),
      ]);
      expect(calls.every((call) => call.url.searchParams.get("tag") === "a")).toBe(true);
      if (rule.name === "POST" || rule.name === "PUT") {
        expect(calls.map((call) => [call.method, call.body])).toEqual([
          [rule.name, "hello"],
          [rule.name, "hello"],
        ]);
      }
      const plain = await proxy.handle(browserRequest(`${path}?tag=a`));
      expect(plain.headers.get("x-cache")).toBe("miss");
      expect(calls).toHaveLength(3);
      expect(calls[2]?.url.searchParams.has("_")).toBe(false);
    });
  }

  test("POST failures are not counted", async () => {
    const { upstream, calls } = fakeUpstream(answer("boom", {}, 500));
    const proxy = proxyWith(upstream);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await proxy.handle(
        browserRequest("/services/webrec/match", { method: "POST", body: "{}" }),
      );
      expect(response.headers.get("x-cache")).toBe("miss");
    }
    expect(calls).toHaveLength(5);
  });

  // Found by npm run fuzz: workerd closes a connection whose request body was left unread, and the
  // visitor's next request on that kept-alive connection is reset.
  test("a refused path's body is read to the end, not left unread", async () => {
    const { upstream, calls } = fakeUpstream(answer());
    const proxy = proxyWith(upstream);
    let pulled = 0;
    let ended = false;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === 8) {
          ended = true;
          return controller.close();
        }
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await proxy.handle(
      browserRequest("/services/amapi/%2F..%2F", { method: "PUT", body, duplex: "half" } as RequestInit),
    );
    expect(response.status).toBe(404);
    expect(calls).toHaveLength(0);
    expect({ ended, cancelled }).toEqual({ ended: true, cancelled: false });
  });
});
