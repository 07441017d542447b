import { SELF } from "cloudflare:test";
import { expect } from "vitest";

// A browser for worker tests: its own cookie jar and client IP address, talking to the worker
// through SELF.fetch without following redirects.

export const site = "https://tunewave.test";
export const agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36";
let clients = 0;

/** A browser: its own cookie jar and IP address. */
export function browser() {
  clients += 1;
  const ip = `198.51.100.${clients}`;
  const jar = new Map<string, string>();
  async function fetchAs(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("user-agent", agent);
    // What every browser sends; Remix compares an action's Origin with it.
    headers.set("host", new URL(site).host);
    headers.set("cf-connecting-ip", ip);
    // What a browser sends with a write from one of the site's own pages (decision 030's cross-site rule).
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin") && !headers.has("sec-fetch-site")) {
      headers.set("origin", site);
      headers.set("sec-fetch-site", "same-origin");
    }
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await SELF.fetch(`${site}${path}`, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/Max-Age=0/.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    // Read whole before the test sees it: a body left unread keeps the worker (and its D1) busy past
    // the test, which fails the pool's isolated storage (workers-sdk #5629, #11031).
    const body = await response.arrayBuffer();
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
  return { fetch: fetchAs, jar, ip };
}

export type Browser = ReturnType<typeof browser>;

/** The newest sign-in link the outbox holds for `email`, as a path of the site. */
export async function linkFor(email: string): Promise<string> {
  const answer = await SELF.fetch(`${site}/services/account/outbox`);
  const { mails } = (await answer.json()) as { mails: { to: string; text: string }[] };
  const mail = mails.find((m) => m.to === email);
  const link = /https?:\/\/\S+/.exec(mail?.text ?? "")?.[0];
  if (!link) throw new Error(`no mail for ${email}`);
  const url = new URL(link);
  return url.pathname + url.search;
}

/** Signs `who` in as `email` the way a person does: the login form, then the mailed link. */
export async function signIn(who: Browser, email: string, redirect?: string): Promise<Response> {
  const form = new URLSearchParams({ email, ...(redirect ? { redirect } : {}) });
  const asked = await who.fetch("/login?index", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  expect(asked.status).toBe(200);
  return who.fetch(await linkFor(email));
}
