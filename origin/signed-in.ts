import {
  expiredSessionCookie,
  type LoginState,
  readAccountCookies,
  sessionEndedStatus,
} from "#rules/account.ts";
import { secureCookiesOf } from "#rules/env.ts";
import type { TagLocation } from "#rules/library.ts";
import { findSession } from "./accounts";
import type { OriginContext } from "./env";
import { noStoreJson } from "./http";
import { addTag } from "./library";

// The person behind a request, for every route about a person's own data: the account of its
// session, and the web recognitions tagged into their library.

/**
 * The account of the request's session, or the answer that refuses it: 401 without a session
 * (with where to sign in), 456 when it has ended (spec 002 §8 "Status 456 … Logout"), which also
 * clears the cookie. Every call about a person's own data starts here.
 */
export async function signedInAccount(
  c: OriginContext,
): Promise<{ userId: string; state: LoginState } | { refused: Response }> {
  const { session } = readAccountCookies(c.req.header("cookie"));
  if (!session) {
    return {
      refused: noStoreJson({ error: "unauthorized", redirectUrl: "/login?redirect={redirectPath}" }, 401),
    };
  }
  // Reads may take this isolate's recent lookup of the session; writes always ask D1 (decision 048).
  const reading = c.req.method === "GET" || c.req.method === "HEAD";
  const found = await findSession(c.var.db, session, Date.now(), reading ? "recent" : "none");
  if (found.outcome === "ended") {
    return {
      refused: noStoreJson({ error: "unauthorized", message: "The session has ended" }, sessionEndedStatus, [
        expiredSessionCookie(secureCookiesOf(c.env)),
      ]),
    };
  }
  return { userId: found.userId, state: found.state };
}

/**
 * Spec 002 §3 "Location is also sent in headers x-shz-lat and x-shz-lng": kept only as a pair,
 * and only roughly (addTag rounds every position it stores).
 */
export function sharedPosition(c: OriginContext): Pick<TagLocation, "lat" | "lng"> {
  const lat = Number(c.req.header("x-shz-lat") ?? Number.NaN);
  const lng = Number(c.req.header("x-shz-lng") ?? Number.NaN);
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return { lat: null, lng: null };
  return { lat, lng };
}

/**
 * Tags a web recognition's match for the signed-in person, once per recognition session. A
 * request without a session tags nothing; an ended one neither (the answer is the match either way).
 */
export async function tagRecognition(
  c: OriginContext,
  match: { sessionId: string; trackKey: number; country: string },
): Promise<void> {
  if (!c.req.header("cookie")) return;
  const account = await signedInAccount(c);
  if ("refused" in account) return;
  await addTag(
    c.var.db,
    account.userId,
    {
      recognitionId: `web:${match.sessionId}`,
      trackKey: match.trackKey,
      tagTime: Date.now(),
      location: { country: match.country, ...sharedPosition(c) },
    },
    Date.now(),
  );
}
