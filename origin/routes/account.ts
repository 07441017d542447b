import { createEmailLogin, endSession, randomToken, sha256, useEmailLogin } from "#origin/accounts.ts";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import {
  clientAddressOf,
  errorResponse,
  invalidParam,
  jsonBody,
  noStoreJson,
  parseParams,
} from "#origin/http.ts";
import { mailerOf, outboxMails, signInMail } from "#origin/mail.ts";
import { signedInAccount } from "#origin/signed-in.ts";
import {
  deviceCookie,
  emailLoginRequestSchema,
  emailValidationSchema,
  expiredSessionCookie,
  type LinkRefusal,
  rateWindowMs,
  readAccountCookies,
  safeRedirectPath,
  sessionCookie,
} from "#rules/account.ts";
import { secureCookiesOf, siteOriginOf, siteUrl } from "#rules/env.ts";
import { SiteError } from "#rules/errors.ts";

// The account service (spec 002 §7 "Web sign-in provider", decision 017): e-mail sign-in links,
// sessions, the login status, sign-out, and the local outbox. Every answer is `no-store`: each
// belongs to one browser.

/** The landing the link may point to: this site's /validate-email/{web|web_mobile}, any language. */
const landingPath = /^(\/[a-z]{2}(-[a-z]{2,4})?)?\/validate-email\/(web|web_mobile)$/;

/** Spec 000 §8 login 404 text: the one thing an answer says about an account. */
const closedAccountMessage = "We could not find an account with that email, it is either invalid or closed";

const refusalStatus: Record<LinkRefusal, 403 | 404 | 409 | 410> = {
  expired: 410,
  used: 409,
  wrongdevice: 403,
  unknown: 404,
};

/**
 * The link the mail carries: the caller's callback read for its path and query only, rebuilt on
 * the site's own origin (SITE_ORIGIN), never the request's Host (decision 030, finding 1). The path must
 * be this site's landing, its origin this site's, and its `redirect` a path of this site.
 */
function checkedCallback(c: OriginContext, callback: string): URL {
  const given = URL.canParse(callback) ? new URL(callback) : undefined;
  const site = siteOriginOf(c.env);
  if (given?.origin !== site || !landingPath.test(given.pathname)) {
    throw invalidParam("callback must be this site's /validate-email page");
  }
  const url = siteUrl(c.env, given.pathname + given.search);
  const redirect = url.searchParams.get("redirect");
  if (redirect !== null && safeRedirectPath(redirect) === undefined) {
    throw invalidParam("redirect must be a path of this site");
  }
  url.searchParams.delete("key");
  url.searchParams.delete("customtoken");
  return url;
}

export function registerAccount(origin: OriginApp) {
  /** Spec 002 §7 "POST e-mail login request": stores a single-use link and mails it. */
  origin.post("/account/login/email", async (c) => {
    const request = parseParams(emailLoginRequestSchema, await jsonBody(c));
    const callback = checkedCallback(c, request.callback);
    const cookies = readAccountCookies(c.req.header("cookie"));
    const device = cookies.device ?? randomToken();
    const newDevice = cookies.device ? [] : [deviceCookie(device, secureCookiesOf(c.env))];
    const client = clientAddressOf(c);
    const now = Date.now();
    const stored = await createEmailLogin(
      c.var.db,
      request,
      { deviceHash: await sha256(device), clientHash: await sha256(`client:${client}`) },
      now,
    );
    if (stored.outcome === "closed") {
      return noStoreJson({ error: "notfound", message: closedAccountMessage }, 404, newDevice);
    }
    if (stored.outcome === "limited") {
      const response = noStoreJson(
        { error: "limitexceeded", message: `Too many sign-in links for this ${stored.limit}` },
        429,
        newDevice,
      );
      response.headers.set("Retry-After", String(rateWindowMs / 1000));
      return response;
    }
    callback.searchParams.set("key", stored.key);
    callback.searchParams.set("customtoken", stored.customToken);
    try {
      await mailerOf(c.env).send(await signInMail(request.email, request.locale, callback.href));
    } catch (error) {
      console.error("account: the sign-in mail was not sent:", error);
      return noStoreJson({ error: "serviceerror", message: "The email could not be sent" }, 502, newDevice);
    }
    return noStoreJson({ sent: true }, 202, newDevice);
  });

  /** The link's landing: `key` + `customtoken` from the browser that asked gives a session. */
  origin.post("/account/login/email/validate", async (c) => {
    const link = parseParams(emailValidationSchema, await jsonBody(c));
    const { device } = readAccountCookies(c.req.header("cookie"));
    const used = await useEmailLogin(
      c.var.db,
      { key: link.key, customToken: link.customtoken, deviceHash: device ? await sha256(device) : undefined },
      Date.now(),
    );
    if (used.outcome === "signedin") {
      return noStoreJson(used.state, 200, [sessionCookie(used.session, secureCookiesOf(c.env), !link.temp)]);
    }
    return noStoreJson({ error: "unauthorized", reason: used.outcome }, refusalStatus[used.outcome]);
  });

  /** Spec 002 §3 login state; 401 without a session, 456 when the session has ended. */
  origin.get("/account/status", async (c) => {
    const signedIn = await signedInAccount(c);
    return "refused" in signedIn ? signedIn.refused : noStoreJson(signedIn.state, 200);
  });

  /** Spec 002 §4 "Logout clears the provider session": the session row and the cookie. */
  origin.post("/account/logout", async (c) => {
    const { session } = readAccountCookies(c.req.header("cookie"));
    if (session) await endSession(c.var.db, session);
    return noStoreJson(null, 204, [expiredSessionCookie(secureCookiesOf(c.env))]);
  });

  /** The local outbox: what was "sent" while no mail transport is configured; else no such service. */
  origin.get("/account/outbox", async (c) => {
    if (mailerOf(c.env).transport !== "outbox") {
      return errorResponse(new SiteError("notfound", "No outbox: mail is sent for real"));
    }
    const mails = await outboxMails(c.var.db);
    return noStoreJson({ mails }, 200);
  });
}
