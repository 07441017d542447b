import { describe, expect, test } from "vitest";
import type { Upstream } from "#edge/services/upstream.ts";
import { answer, browserRequest, fakeUpstream, okSchema, proxyWith, uniquePath } from "./services-fakes";

// What one client sends cannot change what other visitors get (decision 028, finding 1; decision 059).

describe("hostile clients cannot change what other visitors get (decisions 028 and 059)", () => {
  test("a client's headers never reach a shared GET: an upstream 400 to an oversized header stays that client's", async () => {
    // As nginx does: 400 to a request whose headers are too large.
    const upstream: Upstream = async (request) =>
      [...request.headers].some(([, value]) => value.length > 8000)
        ? new Response("Request Header Or Cookie Too Large", { status: 400 })
        : new Response('{"ok":true}', { headers: { "cache-control": "no-store" } });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const hostile = { headers: { "x-padding": "a".repeat(9000), cookie: `c=${"b".repeat(9000)}` } };
    for (let attempt = 1; attempt <= 3; attempt++) await proxy.handle(browserRequest(path, hostile));
    const visitor = await proxy.handle(browserRequest(path));
    expect(visitor.status).toBe(200);
    expect(await proxy.getJson(path, okSchema)).toEqual({ ok: true });
  });

  const sentHeaders: { path: string; method?: string; sent: string[]; dropped: string[] }[] = [
    {
      path: "/services/charts/locations",
      sent: [],
      dropped: [
        "cookie",
        "authorization",
        "x-forwarded-host",
        "accept-language",
        "user-agent",
        "accept",
        "sec-gpc",
        "cf-ipcity",
      ],
    },
    {
      path: "/services/account/status",
      sent: ["cookie", "authorization", "user-agent", "cf-connecting-ip", "accept"],
      dropped: ["x-forwarded-host", "x-anything"],
    },
    {
      path: "/services/event/v1/GB/shazam-events?countryCode=GB",
      sent: ["x-shz-lat", "x-shz-lng"],
      dropped: ["cookie", "authorization", "x-anything"],
    },
    {
      path: "/services/webrec/match",
      method: "POST",
      // Decision 032: what its identification event needs (the edge's place, Global Privacy Control).
      sent: ["cookie", "content-type", "accept", "sec-gpc", "cf-ipcity", "cf-ipcountry"],
      dropped: ["x-forwarded-host", "x-anything"],
    },
  ];

  for (const rule of sentHeaders) {
    test(`${rule.method ?? "GET"} ${rule.path} forwards ${rule.sent.join(", ") || "no client header"}`, async () => {
      const { upstream, calls } = fakeUpstream(answer("{}", { "cache-control": "no-store" }));
      const proxy = proxyWith(upstream);
      const headers = {
        cookie: "session=s",
        authorization: "Bearer t",
        "user-agent": "agent",
        "cf-connecting-ip": "192.0.2.1",
        accept: "application/json",
        "accept-language": "de",
        "content-type": "application/json",
        "x-forwarded-host": "evil.example",
        "x-anything": "1",
        "x-shz-lat": "51.5",
        "x-shz-lng": "-0.1",
        "sec-gpc": "1",
        "cf-ipcity": "London",
        "cf-ipcountry": "GB",
      };
      const method = rule.method ?? "GET";
      await proxy.handle(
        browserRequest(rule.path, { method, headers, body: method === "GET" ? null : "{}" }),
      );
      const sent = calls[0]?.headers ?? new Headers();
      for (const name of rule.sent) expect(sent.has(name), name).toBe(true);
      for (const name of rule.dropped) expect(sent.has(name), name).toBe(false);
    });
  }

  const credentialed: { name: string; headers: Record<string, string> }[] = [
    { name: "Cookie", headers: { cookie: "session=s" } },
    { name: "Authorization", headers: { authorization: "Bearer t" } },
  ];

  for (const rule of credentialed) {
    test(`a public answer to a request with ${rule.name} is never stored for the next visitor`, async () => {
      const { upstream, calls } = fakeUpstream(
        answer('{"ok":true}', { "cache-control": "public, max-age=600, s-maxage=600" }),
      );
      const proxy = proxyWith(upstream);
      const path = uniquePath("/services/account/");
      await proxy.handle(browserRequest(path, { headers: rule.headers }));
      const next = await proxy.handle(browserRequest(path));
      expect(next.headers.get("x-cache")).toBe("miss");
      expect(calls).toHaveLength(2);
    });
  }

  test("an answer that depends on a header the key cannot cover is not served to another visitor", async () => {
    // The upstream reads a header and says no Vary: only possible if the header reached it.
    const upstream: Upstream = async (request) =>
      new Response(JSON.stringify({ who: request.headers.get("cookie") ?? "nobody" }), {
        headers: { "cache-control": "public, max-age=600" },
      });
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    await proxy.handle(browserRequest(path, { headers: { cookie: "session=alice" } }));
    const bob = await proxy.handle(browserRequest(path));
    expect(await bob.json()).toEqual({ who: "nobody" });
  });

  const varies = ["*", "Cookie", "Accept-Language", "Accept-Encoding, User-Agent"];
  for (const vary of varies) {
    test(`Vary: ${vary} is not stored`, async () => {
      const { upstream, calls } = fakeUpstream(answer("{}", { "cache-control": "max-age=60", vary }));
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      await proxy.handle(browserRequest(path));
      await proxy.handle(browserRequest(path));
      expect(calls).toHaveLength(2);
    });
  }

  // Decision 059: a 4xx of a shared GET is remembered for everyone, so what the client sends
  // besides the URL must neither reach the upstream nor pick the key.
  test("a client's headers do not pick the key: failures asked with any headers count as the URL's", async () => {
    const { upstream, calls } = fakeUpstream(answer('{"error":"notfound"}', {}, 404));
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    const clients: Record<string, string>[] = [
      { cookie: "session=a", "accept-language": "de" },
      { "x-forwarded-host": "evil.example", "cache-control": "no-cache" },
      { authorization: "Bearer t", "x-shz-lat": "51.5" },
    ];
    const sources = [];
    for (const headers of clients) {
      sources.push((await proxy.handle(browserRequest(path, { headers }))).headers.get("x-cache"));
    }
    expect(sources).toEqual(["miss", "miss", "failure"]);
    expect(calls).toHaveLength(2);
    for (const call of calls) expect([...call.headers]).toEqual([]);
  });

  test("a client's GET with a body cannot make a shared URL fail for everyone", async () => {
    // No browser sends one, and a Request made here refuses it, but a raw client can: the proxy
    // is handed what workerd made of it, a GET whose body is readable.
    const { upstream, calls } = fakeUpstream(answer('{"ok":true}', { "cache-control": "no-store" }));
    const proxy = proxyWith(upstream);
    const path = uniquePath();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const withBody = {
        url: `https://tunewave.test${path}`,
        method: "GET",
        headers: new Headers({ "content-type": "text/plain" }),
        body: new Response("x").body,
        signal: new AbortController().signal,
      } as unknown as Request;
      const response = await proxy.handle(withBody);
      expect(response.status).toBe(200);
    }
    expect(calls.map((call) => call.body)).toEqual(["", "", ""]);
    expect((await proxy.handle(browserRequest(path))).status).toBe(200);
  });

  test("a client's x-services-retry does not multiply upstream calls", async () => {
    const { upstream, calls } = fakeUpstream(answer("", {}, 500));
    const proxy = proxyWith(upstream);
    await proxy.handle(browserRequest(uniquePath(), { headers: { "x-services-retry": "1" } }));
    expect(calls).toHaveLength(1);
  });

  const bypasses: Record<string, string>[] = [
    { "cache-control": "no-cache" },
    { "cache-control": "no-store" },
    { pragma: "no-cache" },
  ];
  for (const headers of bypasses) {
    test(`a client's ${JSON.stringify(headers)} does not bypass the shared cache`, async () => {
      const { upstream, calls } = fakeUpstream(answer("{}", { "cache-control": "max-age=60" }));
      const proxy = proxyWith(upstream);
      const path = uniquePath();
      await proxy.handle(browserRequest(path));
      const again = await proxy.handle(browserRequest(path, { headers }));
      expect(again.headers.get("x-cache")).toBe("hit");
      expect(calls).toHaveLength(1);
    });
  }
});
