import { SELF } from "cloudflare:test";
import { site } from "./browser-jar";

/**
 * Asks the built worker for `path` on the site, as `init` says; a redirect is answered, not
 * followed, so that the tests can read it.
 */
export function get(path: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(`${site}${path}`, { redirect: "manual", ...init });
}

/** `get` that sends `headers` with every request, under those the request gives itself. */
export function getAs(headers: Record<string, string>) {
  return (path: string, init: RequestInit = {}): Promise<Response> =>
    get(path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
}

/** Text as the page shows it: the entities React escapes in text and attributes, decoded. */
export function decode(html: string): string {
  return html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** The content of the page's `<meta name|property="key">`, decoded. */
export function metaContent(page: string, attribute: "name" | "property", key: string): string | undefined {
  const content = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(page)?.[1];
  return content === undefined ? undefined : decode(content);
}
