import { type AppLoadContext, type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import * as v from "valibot";
import { accountCall } from "#edge/session.ts";
import {
  emailRequestRetries,
  type LinkRefusal,
  linkRefusalSchema,
  type Providers,
  providersSchema,
  readWebProviderCookie,
  safeRedirectPath,
  type ValidationPlatform,
  type WebProviderRefusal,
  webProviderCookie,
  webProviderRefusalSchema,
} from "#rules/account.ts";
import { secureCookiesOf, siteUrl } from "#rules/env.ts";
import { localizedPath } from "#rules/path.ts";
import { randomUrlToken, s256Challenge } from "#rules/pkce.ts";
import { platformOf } from "#rules/user-agent.ts";

// The sign-in steps a page takes on the visitor's behalf, through the services proxy to the
// account service (origin/routes/account.ts); each passes on the cookies the service sets.

type Context = Pick<AppLoadContext, "edge" | "services" | "config">;

export type LinkRequestOutcome = "sent" | "invalid" | "noaccount" | "limited" | "failed";

/**
 * Spec 002 §7 "POST e-mail login request", with spec 002 §8: a 404 fails at once, other failures
 * are retried, and after more than 3 retries it fails (statistic emailsentfailure). A refusal of
 * the request itself (400, 429) is not retried either: asking again cannot change it.
 */
export async function requestEmailLink(
  { edge, services, config }: Context,
  request: Request,
  input: { email: string; redirect: string | undefined; inid: string },
): Promise<{ outcome: LinkRequestOutcome; setCookies: string[] }> {
  const platform: ValidationPlatform =
    platformOf(request.headers.get("user-agent")) === "web" ? "web" : "web_mobile";
  const callback = siteUrl(config, localizedPath(edge.lang, `/validate-email/${platform}`));
  if (input.redirect) callback.searchParams.set("redirect", input.redirect);
  const body = {
    email: input.email,
    callback: callback.href,
    locale: edge.locale,
    userAgent: (request.headers.get("user-agent") ?? "").slice(0, 512),
    inid: input.inid,
  };
  const setCookies: string[] = [];
  for (let attempt = 0; attempt <= emailRequestRetries; attempt += 1) {
    const response = await accountCall(services, request, ["login", "email"], { method: "POST", body });
    await response.body?.cancel();
    setCookies.push(...response.headers.getSetCookie());
    if (response.status === 202) return { outcome: "sent", setCookies };
    if (response.status === 404) return { outcome: "noaccount", setCookies };
    if (response.status === 400) return { outcome: "invalid", setCookies };
    if (response.status === 429) return { outcome: "limited", setCookies };
  }
  return { outcome: "failed", setCookies };
}

export type LinkValidation =
  | { outcome: "signedin"; setCookies: string[] }
  | { outcome: LinkRefusal; status: number }
  | { outcome: "failed"; status: number };

/** The e-mail link's `key` and `customtoken`, used from this browser. */
export async function validateEmailLink(
  { services }: Context,
  request: Request,
  link: { key: string; customtoken: string; temp: boolean },
): Promise<LinkValidation> {
  const response = await accountCall(services, request, ["login", "email", "validate"], {
    method: "POST",
    body: link,
  });
  if (response.status === 200) {
    await response.body?.cancel();
    return { outcome: "signedin", setCookies: response.headers.getSetCookie() };
  }
  const refusal = v.safeParse(linkRefusalSchema, await response.json().catch(() => undefined));
  if (refusal.success) return { outcome: refusal.output.reason, status: response.status };
  // A malformed key or token is refused by the service's schema (400): a link that is not ours.
  if (response.status === 400) return { outcome: "unknown", status: 400 };
  return { outcome: "failed", status: response.status >= 500 ? response.status : 502 };
}

/** Spec 002 §4 "Logout clears the provider session": the service ends it and clears the cookie. */
export async function signOut(
  { services }: Context,
  request: Request,
): Promise<{ ok: boolean; setCookies: string[] }> {
  const response = await accountCall(services, request, ["logout"], { method: "POST" });
  await response.body?.cancel();
  return { ok: response.status === 204, setCookies: response.headers.getSetCookie() };
}

/** Spec 002 §2 "/secure/status": the account service's answer on this browser's session, as it came. */
export function sessionStatus({ services }: Context, request: Request): Promise<Response> {
  return accountCall(services, request, ["status"]);
}

/** The local outbox (`MAIL_TRANSPORT` "outbox"): the mail the account service kept instead of sending. */
export function outboxMail({ services }: Context, request: Request): Promise<Response> {
  return accountCall(services, request, ["outbox"]);
}

/** One step of an offer's redemption, with the store-front country the edge resolved for the visitor. */
export function offerRedemptionStep(
  { services, edge }: Context,
  request: Request,
  offer: { name: string; step: string; input: Record<string, unknown> },
): Promise<Response> {
  return accountCall(services, request, ["offers", offer.name, offer.step], {
    method: "POST",
    body: { ...offer.input, country: edge.country },
  });
}

/** Which providers can sign in (the account service knows its credentials); e-mail only if it cannot say. */
export async function signInProviders({ services }: Context, request: Request): Promise<Providers> {
  const response = await accountCall(services, request, ["providers"]);
  const parsed = v.safeParse(providersSchema, await response.json().catch(() => undefined));
  return parsed.success ? parsed.output : { email: true, google: false };
}

type WebProviderContext = Pick<AppLoadContext, "config" | "edge" | "services">;

/** The redirect URI registered with the provider: this site's callback, on SITE_ORIGIN (decision 030). */
const callbackUri = ({ config, edge }: WebProviderContext) =>
  siteUrl(config, localizedPath(edge.lang, "/login/google/callback")).href;

/**
 * Starts a web-provider sign-in: a fresh state, nonce and PKCE verifier for this browser (kept in
 * its `tw_oidc` cookie), and the provider's authorization address with their S256 challenge.
 */
export async function startWebProviderSignIn(
  context: WebProviderContext,
  request: Request,
  input: { redirect: string | undefined; popup: boolean },
): Promise<
  { outcome: "redirect"; location: string; setCookie: string } | { outcome: "unavailable" | "failed" }
> {
  const transaction = {
    state: randomUrlToken(),
    nonce: randomUrlToken(),
    verifier: randomUrlToken(),
    ...input,
  };
  const response = await accountCall(context.services, request, ["login", "google", "authorize"], {
    method: "POST",
    body: {
      redirectUri: callbackUri(context),
      state: transaction.state,
      nonce: transaction.nonce,
      codeChallenge: await s256Challenge(transaction.verifier),
    },
  });
  const body = (await response.json().catch(() => undefined)) as { authorizationUrl?: unknown } | undefined;
  if (response.status === 404) return { outcome: "unavailable" };
  if (response.status !== 200 || typeof body?.authorizationUrl !== "string") return { outcome: "failed" };
  return {
    outcome: "redirect",
    location: body.authorizationUrl,
    setCookie: webProviderCookie(transaction, secureCookiesOf(context.config)),
  };
}

export type WebProviderCallback =
  | { outcome: "signedin"; redirect: string | undefined; popup: boolean; setCookies: string[] }
  | {
      outcome: WebProviderRefusal | "invalidstate" | "declined" | "failed";
      redirect: string | undefined;
      popup: boolean;
      setCookies: string[];
    };

/**
 * The provider sent the browser back (RFC 6749 §4.1.2): `state` must be the one this browser
 * started with (else `invalidstate`, spec 002 §8), `access_denied` is the person's own refusal,
 * any other error or a refused code fails. The transaction cookie is spent either way.
 */
export async function finishWebProviderSignIn(
  context: WebProviderContext,
  request: Request,
): Promise<WebProviderCallback> {
  const url = new URL(request.url);
  const transaction = readWebProviderCookie(request.headers.get("cookie"));
  const spent = [webProviderCookie(null, secureCookiesOf(context.config))];
  // The cookie is the browser's to change: the return path in it is checked again before use
  // (decision 030, finding 13), as it was when the sign-in started.
  const where = { redirect: safeRedirectPath(transaction?.redirect), popup: transaction?.popup ?? false };
  if (!transaction || url.searchParams.get("state") !== transaction.state) {
    return { outcome: "invalidstate", ...where, setCookies: spent };
  }
  const error = url.searchParams.get("error");
  if (error !== null) {
    return { outcome: error === "access_denied" ? "declined" : "failed", ...where, setCookies: spent };
  }
  const iss = url.searchParams.get("iss");
  const response = await accountCall(context.services, request, ["login", "google"], {
    method: "POST",
    body: {
      redirectUri: callbackUri(context),
      code: (url.searchParams.get("code") ?? "").slice(0, 2048),
      ...(iss === null ? {} : { iss: iss.slice(0, 512) }),
      codeVerifier: transaction.verifier,
      nonce: transaction.nonce,
    },
  });
  const setCookies = [...spent, ...response.headers.getSetCookie()];
  if (response.status === 200) {
    await response.body?.cancel();
    return { outcome: "signedin", ...where, setCookies };
  }
  const refusal = v.safeParse(webProviderRefusalSchema, await response.json().catch(() => undefined));
  return { outcome: refusal.success ? refusal.output.reason : "failed", ...where, setCookies };
}

/** The Set-Cookie headers of a loader's or action's answer. */
export function cookieHeaders(setCookies: readonly string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * Spec 000 §6 "Library, data download and account deletion need the account": a secure page's
 * loader starts here. Signed out (or the session ended), the person is sent to sign in and back.
 */
export function requireAccount(
  { edge, account }: Pick<AppLoadContext, "edge" | "account">,
  request: Request,
): NonNullable<AppLoadContext["account"]> {
  if (account) return account;
  const url = new URL(request.url);
  const back = new URLSearchParams({ redirect: url.pathname + url.search });
  throw redirect(`${localizedPath(edge.lang, "/login")}?${back}`);
}

/**
 * Spec 000 §2 "/secure/... : secure page types are loaded from a secure path after a single-sign-on
 * login check": a signed-in page's loader at its /secure address, behind `requireAccount`. The page
 * is the same route module; its canonical address is the one without /secure (rules/path.ts). A
 * function the route's own `loader` calls: a module-level call would run in the browser too, where
 * this module is empty.
 */
export function loadSecurePage<Args extends Pick<LoaderFunctionArgs, "context" | "request">, Data>(
  args: Args,
  loader: (args: Args) => Data,
): Data {
  requireAccount(args.context, args.request);
  return loader(args);
}
