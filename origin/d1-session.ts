import { createMiddleware } from "hono/factory";
import { accountCookieNames, bookmarkCookie, readAccountCookies } from "#rules/account.ts";
import { secureCookiesOf } from "#rules/env.ts";
import type { OriginHonoEnv } from "./env";

// Every request's D1 session, made here once (decision 062): what its routes query, through D1's
// own Sessions API. Queue batches and Cron Triggers (origin/queue.ts, origin/scheduled.ts) are no
// request and keep the binding itself, the primary.

const isRead = (method: string) => method === "GET" || method === "HEAD";

/**
 * Where a request's session starts: a write on the primary, so that what it checks before it
 * writes is current; a read after the bookmark of the person's last write when the request brings
 * a valid one (a bad one is ignored, as every cookie that fails its schema is), else at the
 * nearest replica. The catalogue's reads are shared calls, which carry no cookie at all
 * (edge/services/http.ts), so they are always unconstrained.
 */
export function sessionStartOf(
  method: string,
  cookieHeader: string | null | undefined,
): D1SessionConstraint | D1SessionBookmark {
  if (!isRead(method)) return "first-primary";
  return readAccountCookies(cookieHeader).bookmark ?? "first-unconstrained";
}

/**
 * Whether an answer hands the person the bookmark of what the request wrote: a write by a
 * signed-in browser, or one that signs a browser in (its next page reads the new session). A read
 * never does, nor does anything anonymous, so pages, AMP documents and bots' answers get none.
 */
function keepsBookmark(method: string, cookieHeader: string | null | undefined, answer: Response): boolean {
  if (isRead(method)) return false;
  if (readAccountCookies(cookieHeader).session) return true;
  return answer.headers.getSetCookie().some((cookie) => cookie.startsWith(`${accountCookieNames.session}=`));
}

export const d1Session = createMiddleware<OriginHonoEnv>(async (c, next) => {
  const { method } = c.req;
  const cookieHeader = c.req.header("cookie");
  const db = c.env.DB.withSession(sessionStartOf(method, cookieHeader));
  c.set("db", db);
  await next();
  const bookmark = db.getBookmark();
  if (bookmark === null || !keepsBookmark(method, cookieHeader, c.res)) return;
  const headers = new Headers(c.res.headers);
  headers.append("Set-Cookie", bookmarkCookie(bookmark, secureCookiesOf(c.env)));
  const answer = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
  // Hono's `c.res = answer` would copy the old answer's headers onto the new one; it is dropped first.
  c.res = undefined;
  c.res = answer;
});
