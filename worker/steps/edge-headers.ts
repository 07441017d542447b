import { createMiddleware } from "hono/factory";
import type { RequestContext } from "#edge/request-context.ts";
import { anonymous, type SessionResolution } from "#edge/session.ts";
import { replaceAnswer, type WorkerEnv } from "#worker/pipeline.ts";

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("=")).trim();

/** Headers every page answer carries: its language, and what an unprefixed URL's language depends on. */
export function withEdgeHeaders(
  response: Response,
  edge: RequestContext,
  session: SessionResolution,
): Response {
  const headers = new Headers(response.headers);
  headers.set("Content-Language", edge.locale);
  if (!edge.path.langKey) headers.append("Vary", "Cookie, Accept-Language");
  // A signed-in visitor's page is theirs alone: no shared cache may keep it.
  if (session.hasSession) {
    if (!/\bno-store\b/.test(headers.get("Cache-Control") ?? ""))
      headers.set("Cache-Control", "private, no-store");
    if (edge.path.langKey) headers.append("Vary", "Cookie");
  }
  // A cookie the page set itself wins over the edge's: a sign-in link that sets a new session is
  // not undone by the expiry of the stale session the browser came with (decision 030, finding 8).
  const ownCookies = new Set(response.headers.getSetCookie().map(cookieName));
  for (const cookie of [...edge.setCookies, ...session.setCookies]) {
    if (!ownCookies.has(cookieName(cookie))) headers.append("Set-Cookie", cookie);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A React page's answer gets the edge's headers and cookies and the session's (worker/steps/session.ts;
 * anonymous when no session was looked up). A form another site posted is answered for nobody: no
 * cookie set or cleared.
 */
export const edgeHeaders = createMiddleware<WorkerEnv>(async (c, next) => {
  c.set("session", anonymous);
  await next();
  const edge = c.get("crossSite") ? { ...c.get("edge"), setCookies: [] } : c.get("edge");
  replaceAnswer(c, withEdgeHeaders(c.res, edge, c.get("session")));
});
