import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { browser } from "./browser-jar";
import worker from "./built-worker";

// Decision 028: what a hostile request gets from the worker entry. Cheap refusals come before any
// routing or rendering, as a small localized page that echoes nothing of the request.

async function get(path: string, init: RequestInit = {}) {
  const response = await SELF.fetch(`https://tunewave.test${path}`, { redirect: "manual", ...init });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

/** A body of unknown length (sent chunked, without Content-Length), in 16 KiB pieces. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 16 * 1024));
      offset += 16 * 1024;
    },
  });
}

describe("malformed URLs get the site's own page, never a bare 500 (finding 5)", () => {
  for (const path of ["/%5c", "/%5C", "/%5c%5c", "/de/%5c", "/track/%5c", "/%E0%A4%A", "/a%00b"]) {
    test(path, async () => {
      const answer = await get(path);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.type).toMatch(/^text\/html/);
      expect(answer.text).toContain("<html");
      expect(answer.text).not.toContain("Unexpected Server Error");
    });
  }
});

describe("cheap refusals at the entry (finding 2)", () => {
  const marker = "zq<x>";
  const refusals: { name: string; path: string; init?: RequestInit; status: number }[] = [
    { name: "8 000 segments", path: `/${"a/".repeat(8000)}`, status: 414 },
    { name: "a 9 000-character path", path: `/${"a".repeat(9000)}`, status: 414 },
    { name: "a 9 000-character query", path: `/search?q=${"a".repeat(9000)}`, status: 414 },
    {
      name: "40 KiB of headers",
      path: "/",
      init: { headers: { "x-padding": "a".repeat(40 * 1024) } },
      status: 431,
    },
    {
      name: "a 1 MiB form body",
      path: "/survey",
      init: {
        method: "POST",
        body: `answer=${"a".repeat(1024 * 1024)}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
      status: 413,
    },
  ];

  for (const rule of refusals) {
    test(`${rule.name}: ${rule.status}, a small page that echoes nothing`, async () => {
      const path = rule.path.replace(/a/g, (a, index: number) =>
        index === 1 ? encodeURIComponent(marker) : a,
      );
      const answer = await get(path, rule.init);
      expect(answer.status).toBe(rule.status);
      expect(answer.type).toMatch(/^text\/html/);
      expect(answer.text.length).toBeLessThan(4096);
      expect(answer.text).not.toContain(marker);
      expect(answer.text).not.toContain("aaaaaaaa");
    });
  }

  // Remix would call an action for these, or throw and log a stack trace for a route without one.
  for (const [method, path] of [
    ["PUT", "/"],
    ["DELETE", "/logout"],
    ["PATCH", "/survey?index"],
    ["OPTIONS", "/de/charts"],
    ["PUT", "/amp/company"],
  ] as const) {
    test(`${method} ${path}: 405 at the entry, naming what a page answers`, async () => {
      const response = await SELF.fetch(`https://tunewave.test${path}`, {
        method,
        redirect: "manual",
        ...(method === "OPTIONS" ? {} : { body: "a=1" }),
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect((await response.text()).length).toBeLessThan(4096);
    });
  }

  test("a method a page does not answer still reaches /services, which decides for itself", async () => {
    const response = await SELF.fetch("https://tunewave.test/services/charts/nothing", { method: "OPTIONS" });
    await response.body?.cancel();
    expect(response.headers.get("allow")).not.toBe("GET, HEAD, POST");
  });

  test("a body without a Content-Length is counted as it streams: 413 past the limit", async () => {
    const answer = await get("/survey?index", {
      method: "POST",
      body: chunked(`answer=${"a".repeat(1024 * 1024)}`),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(413);
    expect(answer.text.length).toBeLessThan(4096);
    expect(answer.text).not.toContain("aaaaaaaa");
  });

  test("a streamed form under the limit reaches its page", async () => {
    const visitor = browser();
    const form = new URLSearchParams({ satisfaction: "4", found: "mostly", comment: "streamed" });
    const sent = await visitor.fetch("/survey?index", {
      method: "POST",
      body: chunked(form.toString()),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe("/survey/thanks");
  });

  test("the refusal speaks the visitor's language", async () => {
    const answer = await get(`/de/${"a/".repeat(8000)}`);
    expect(answer.status).toBe(414);
    expect(answer.text).toContain('lang="de"');
    expect(answer.text).toContain("414");
  });

  test("a 404 for a long path does not repeat it in every alternate link", async () => {
    const long = `/${"abcdefghij/".repeat(20)}`;
    const answer = await get(long);
    expect(answer.status).toBe(404);
    expect(answer.text.split(long).length - 1).toBeLessThanOrEqual(2);
  });
});

describe("absolute URLs come from SITE_ORIGIN, never from Host (finding 7)", () => {
  test("canonical, og:url and hreflang ignore a hostile Host", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("https://evil.example/company", { headers: { host: "evil.example" } }),
      { ...env, SITE_ORIGIN: "https://www.tunewave.example" },
      ctx,
    );
    const html = await response.text();
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    expect(html).not.toContain("evil.example");
    expect(html).toContain('<link rel="canonical" href="https://www.tunewave.example/company"/>');
    expect(html).toMatch(/<meta property="og:url" content="https:\/\/www\.tunewave\.example\/company"/);
    expect(html).toMatch(/hreflang="de" href="https:\/\/www\.tunewave\.example\/de\/company"/i);
  });

  test("robots.txt names the configured origin's sitemap", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("https://evil.example/robots.txt"),
      { ...env, SITE_ORIGIN: "https://www.tunewave.example" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(await response.text()).toContain("Sitemap: https://www.tunewave.example/sitemap.xml");
  });
});

describe("security headers on HTML (finding 6)", () => {
  test("a page: nonce-based CSP that every inline script carries, frame-ancestors, nosniff, referrer, microphone", async () => {
    const response = await SELF.fetch("https://tunewave.test/identify");
    const html = await response.text();
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("form-action 'self'");
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    const executable = scripts.filter((tag) => !/type="application\/(ld\+)?json"/.test(tag));
    expect(executable.length).toBeGreaterThan(0);
    for (const tag of executable) {
      if (/\bsrc=/.test(tag) && !/type="module"/.test(tag)) continue;
      expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("permissions-policy")).toContain("microphone=(self)");
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
  });

  test("every response has its own nonce; plain http gets no HSTS", async () => {
    const first = await SELF.fetch("http://tunewave.test/company");
    const second = await SELF.fetch("http://tunewave.test/company");
    await Promise.all([first.text(), second.text()]);
    const nonceOf = (response: Response) =>
      /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonceOf(first)).toBeDefined();
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  test("an AMP page: the AMP runtime only, no nonce, may be framed by AMP viewers", async () => {
    const response = await SELF.fetch("https://tunewave.test/amp/company");
    await response.text();
    expect(response.status).toBe(200);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("script-src https://cdn.ampproject.org/");
    expect(policy).not.toContain("nonce-");
    expect(policy).not.toContain("frame-ancestors");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("a refusal page has the headers too", async () => {
    const response = await SELF.fetch(`https://tunewave.test/${"a/".repeat(100)}`);
    await response.text();
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
  });
});

describe("a page body that is not a form (found by npm run fuzz)", () => {
  const bodies: { name: string; body: string; type: string }[] = [
    { name: "JSON", body: '{"decision":"allow"}', type: "application/json" },
    { name: "text", body: "decision=allow", type: "text/plain" },
    { name: "a multipart body without its boundary", body: "x", type: "multipart/form-data; boundary=x" },
  ];
  for (const rule of bodies) {
    test(`${rule.name} posted to a form's page: 400, not 500`, async () => {
      const response = await SELF.fetch("https://tunewave.test/applemusic/signin/mockactivate?client_id=x", {
        method: "POST",
        body: rule.body,
        headers: {
          "content-type": rule.type,
          host: "tunewave.test",
          origin: "https://tunewave.test",
          "sec-fetch-site": "same-origin",
        },
      });
      await response.text();
      expect(response.status).toBe(400);
    });
  }
});
