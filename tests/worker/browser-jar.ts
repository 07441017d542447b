import { SELF } from "cloudflare:test";

// A browser for worker tests: its own cookie jar and client IP address, talking to the worker
// through SELF.fetch without following redirects.

export const site = "http://tunewave.test";
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
    headers.set("cf-connecting-ip", ip);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await SELF.fetch(`${site}${path}`, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/Max-Age=0/.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
  return { fetch: fetchAs, jar, ip };
}

export type Browser = ReturnType<typeof browser>;
