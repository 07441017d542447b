import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, expect, test, vi } from "vitest";
import { requestMatch } from "#app/recognition/browser/match-service.ts";
import { createOrigin } from "#origin/index.ts";
import { SiteError } from "#rules/errors.ts";
import worker from "./built-worker";

// The departures from the spec that decision 026 fixes, each where it shows: a page's answer when the
// upstream redirects (spec 000 §4, §8), and the one request rule the recognition call now follows.

afterEach(() => {
  vi.restoreAllMocks();
});

const remoteHost = "remote-origin.example";

/** Fetches a page from the worker whose upstream is a remote origin answering `answer`, else the catalogue. */
async function pageWithRemote(path: string, answer: (url: URL) => Response | undefined): Promise<Response> {
  const remote = createOrigin();
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.host !== remoteHost) return realFetch(input, init);
    return answer(url) ?? remote.fetch(request, env);
  });
  const ctx = createExecutionContext();
  // A fresh env object is a fresh services proxy (worker/steps/isolate.ts): no cache between tests.
  const response = await worker.fetch(
    new Request(`https://example.com${path}`, { redirect: "manual" }),
    { ...env, SERVICES_ORIGIN: `https://${remoteHost}` },
    ctx,
  );
  await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return response;
}

async function trackKeys(count: number): Promise<number[]> {
  const { results } = await env.DB.prepare("SELECT key FROM tracks ORDER BY key LIMIT ?")
    .bind(count)
    .all<{ key: number }>();
  return results.map((row) => row.key);
}

const redirectRules: {
  name: string;
  status: number;
  location: ((key: number) => string) | undefined;
  page: string;
  expected: { status: number; location?: (key: number) => string };
}[] = [
  {
    name: "a 301 to a page path moves the page there with 301",
    status: 301,
    location: (key) => `/track/${key}/moved-here`,
    page: "",
    expected: { status: 301, location: (key) => `/track/${key}/moved-here` },
  },
  {
    name: "an absolute Location on the upstream's host keeps its path and query",
    status: 302,
    location: (key) => `https://${remoteHost}/track/${key}/elsewhere?co=DE`,
    page: "",
    expected: { status: 302, location: (key) => `/track/${key}/elsewhere?co=DE` },
  },
  {
    name: "the AMP page moves to the AMP form of the target",
    status: 308,
    location: (key) => `/track/${key}/moved-here`,
    page: "/amp",
    expected: { status: 308, location: (key) => `/amp/track/${key}/moved-here` },
  },
  {
    name: "a 3xx without Location is the upstream's failure (502), not a 3xx without a place",
    status: 302,
    location: undefined,
    page: "",
    expected: { status: 502 },
  },
  {
    name: "a Location under /services/ names data, not a page: 502",
    status: 307,
    location: (key) => `/services/track/v1/en/GB/web/${key}`,
    page: "",
    expected: { status: 502 },
  },
];

for (const [index, rule] of redirectRules.entries()) {
  test(`redirect error: ${rule.name}`, async () => {
    const keys = await trackKeys(redirectRules.length + 1);
    const key = keys[index] ?? 0;
    const target = keys.at(-1) ?? 0;
    const response = await pageWithRemote(`${rule.page}/track/${key}/old-alias`, (url) => {
      if (!url.pathname.endsWith(`/web/${key}`)) return undefined;
      const headers = rule.location ? { location: rule.location(target) } : undefined;
      return new Response(null, { status: rule.status, headers });
    });
    expect(response.status).toBe(rule.expected.status);
    const location = response.headers.get("location");
    if (rule.expected.location) {
      const moved = new URL(location ?? "", "https://example.com");
      expect(moved.pathname + moved.search).toBe(rule.expected.location(target));
    } else expect(location).toBeNull();
  });
}

test("/error/redirect has no place to go: the error page with 502, no Location", async () => {
  const response = await SELF.fetch("https://example.com/error/redirect", { redirect: "manual" });
  expect(response.status).toBe(502);
  expect(response.headers.get("location")).toBeNull();
  expect(await response.text()).toContain('class="error-page"');
});

/** The browser's fetch of the site, as the client helpers make it (same-origin paths). */
const siteFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  SELF.fetch(new URL(String(input), "https://example.com"), init)) as typeof fetch;

test("the recognition match call goes through the one request helper's POST to the real service", async () => {
  const body = { data: "", sessionId: "not-a-session", lang: "en", country: "GB" };
  const failure = await requestMatch(body, { fetch: siteFetch }).catch((error: unknown) => error);
  // The service refuses the body (400) and the helper maps it as it maps every call.
  expect(failure).toBeInstanceOf(SiteError);
  expect((failure as SiteError).type).toBe("serviceerror");
  expect((failure as SiteError).status).toBe(400);
});
