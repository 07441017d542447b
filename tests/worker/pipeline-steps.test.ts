import { type Handler, Hono, type MiddlewareHandler } from "hono";
import { describe, expect, test } from "vitest";
import { resolveRequest } from "#edge/request-context.ts";
import type { SessionResolution } from "#edge/session.ts";
import type { Isolate, WorkerEnv } from "#worker/pipeline.ts";
import { canonicalPrefix } from "#worker/steps/canonical-prefix.ts";
import { crossSite } from "#worker/steps/cross-site.ts";
import { edgeHeaders } from "#worker/steps/edge-headers.ts";
import { boundedPageBody, cheapRefusals } from "#worker/steps/refusals.ts";
import { resolvedRequest } from "#worker/steps/resolve-request.ts";
import { securityHeaders } from "#worker/steps/security-headers.ts";

// The worker's steps (worker/steps/, in the order worker/index.ts lists them), each alone: a small
// Hono app runs the step with what the earlier steps would have set, and a last handler that
// answers "next" shows whether the step passed the request on. The whole pipeline, as built, is
// what the other files in tests/worker/ call.

const site = "https://tunewave.test";
const isolate = { config: { SITE_ORIGIN: site } } as Isolate;
const html = { "Content-Type": "text/html; charset=utf-8" };

/** A Hono app of the worker's shape: the earlier steps' variables, `steps`, then `last`. */
function pipeline(
  steps: MiddlewareHandler<WorkerEnv>[],
  last: Handler<WorkerEnv> = () => new Response("next", { headers: html }),
) {
  return new Hono<WorkerEnv>()
    .use(async (c, next) => {
      c.set("isolate", isolate);
      c.set("crossSite", false);
      await next();
    })
    .use(...steps)
    .all("*", last);
}

describe("cheap refusals", () => {
  test("a path deeper than any page is refused 414 with a page's security headers, before the next step", async () => {
    const answer = await pipeline([cheapRefusals]).request(`${site}/${"a/".repeat(40)}`);
    expect(answer.status).toBe(414);
    expect(answer.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(await answer.text()).not.toBe("next");
  });

  test("a request within every limit goes on", async () => {
    const answer = await pipeline([cheapRefusals]).request(`${site}/charts`);
    expect(await answer.text()).toBe("next");
  });
});

describe("bounded page body", () => {
  test("a page body over 64 KiB is refused 413", async () => {
    const answer = await pipeline([boundedPageBody]).request(`${site}/login`, {
      method: "POST",
      body: "x".repeat(65 * 1024),
    });
    expect(answer.status).toBe(413);
  });

  test("a small form goes on with its body read whole", async () => {
    const answer = await pipeline([boundedPageBody], async (c) => new Response(await c.req.text())).request(
      `${site}/login`,
      { method: "POST", body: "email=a%40b.test" },
    );
    expect(await answer.text()).toBe("email=a%40b.test");
  });
});

describe("cross-site", () => {
  const write = { method: "POST", headers: { origin: "https://evil.example" }, body: "x=1" };

  test("another site's services write is refused 403 as JSON, and goes no further", async () => {
    const answer = await pipeline([crossSite]).request(`${site}/services/account/logout`, write);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error: "unauthorized" });
  });

  test.each([
    ["another site's page form", write, true],
    ["this site's page form", { ...write, headers: { origin: site } }, false],
    ["a GET from anywhere", { headers: { origin: "https://evil.example" } }, false],
  ])("%s goes on, told crossSite = %s", async (_name, init, expected) => {
    const answer = await pipeline([crossSite], (c) => new Response(String(c.var.crossSite))).request(
      `${site}/login`,
      init,
    );
    expect(await answer.text()).toBe(String(expected));
  });
});

describe("canonical prefix", () => {
  test("a non-canonical language prefix moves (301) to the page's one address, with its language", async () => {
    const answer = await pipeline([resolvedRequest, canonicalPrefix]).request(`${site}/DE/charts?x=1`);
    expect(answer.status).toBe(301);
    expect(answer.headers.get("Location")).toBe("/de/charts?x=1");
    expect(answer.headers.get("Content-Language")).toBe("de-DE");
  });

  test("an AMP address's moves are the AMP step's", async () => {
    const answer = await pipeline([resolvedRequest, canonicalPrefix]).request(`${site}/amp/DE/charts`);
    expect(await answer.text()).toBe("next");
  });
});

describe("security headers", () => {
  test("a page's policy allows the scripts that carry this answer's nonce, the one later steps read", async () => {
    const answer = await pipeline(
      [resolvedRequest, securityHeaders],
      (c) => new Response(c.var.nonce, { headers: html }),
    ).request(`${site}/charts`);
    const nonce = await answer.text();
    expect(nonce).not.toBe("");
    expect(answer.headers.get("Content-Security-Policy")).toContain(`'nonce-${nonce}'`);
  });

  test("an AMP page gets the AMP policy", async () => {
    const answer = await pipeline([resolvedRequest, securityHeaders]).request(`${site}/amp/charts`);
    expect(answer.headers.get("Content-Security-Policy")).toContain("https://cdn.ampproject.org/");
  });
});

describe("edge headers", () => {
  const signedIn: SessionResolution = {
    hasSession: true,
    account: null,
    setCookies: ["session=renewed; Path=/; HttpOnly"],
  };
  const cachedPage = () =>
    new Response("page", { headers: { ...html, "Cache-Control": "public, max-age=60" } });

  test("a signed-in visitor's page gets the session's cookie and is kept by no shared cache", async () => {
    const session: MiddlewareHandler<WorkerEnv> = async (c, next) => {
      c.set("session", signedIn);
      await next();
    };
    const answer = await pipeline([resolvedRequest, edgeHeaders, session], cachedPage).request(
      `${site}/de/charts`,
    );
    expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
    expect(answer.headers.getSetCookie()).toContain(signedIn.setCookies[0]);
    expect(answer.headers.get("Content-Language")).toBe("de-DE");
  });

  test("an anonymous visitor's page gets the edge's cookies; another site's form gets none", async () => {
    const visitor = { headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64)" } };
    const own = await pipeline([resolvedRequest, edgeHeaders], cachedPage).request(`${site}/charts`, visitor);
    expect(own.headers.getSetCookie().join()).toMatch(/webid=/i);
    expect(own.headers.get("Vary")).toBe("Cookie, Accept-Language");
    const told: MiddlewareHandler<WorkerEnv> = async (c, next) => {
      c.set("crossSite", true);
      await next();
    };
    const other = await pipeline([told, resolvedRequest, edgeHeaders], cachedPage).request(
      `${site}/charts`,
      visitor,
    );
    expect(other.headers.getSetCookie()).toEqual([]);
  });
});

test("resolve request: the one resolution, AMP's included, is what the later steps read", async () => {
  const answer = await pipeline([resolvedRequest], (c) => Response.json(c.var.edge)).request(
    `${site}/amp/de/charts`,
    {
      headers: { cookie: "lang=ja", "accept-language": "fr" },
    },
  );
  const expected = resolveRequest(new Request(`${site}/amp/de/charts`), undefined);
  expect(await answer.json()).toEqual(JSON.parse(JSON.stringify(expected)));
});
