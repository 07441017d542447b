import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { accountRequestHeaders } from "#edge/session.ts";
import { parseCookieHeader, serializeCookie } from "#rules/cookies.ts";
import { secureCookiesOf, siteUrl } from "#rules/env.ts";
import {
  type AuthorizationQuery,
  authorizationCheckSchema,
  authorizationDecisionSchema,
  authorizationQuerySchema,
  authorizationRefusalSchema,
  authorizePath,
  consentCookieName,
  consentLifetimeMs,
} from "#rules/streaming.ts";

// The consent page's calls to the authorization server (origin/routes/streaming.ts) through the
// services proxy: is this request acceptable, and the person's Allow or Deny. The server's answer
// to a request it accepts carries a consent ticket; the page keeps it in this browser (`tw_consent`,
// HttpOnly, SameSite Strict, on the page's own path) and its Allow presents it: without it the
// server issues no code (decision 030, finding 11; docs/decisions/021-streaming-connection.md).

type Context = Pick<AppLoadContext, "config" | "services">;

const queryNames = Object.keys(authorizationQuerySchema.entries) as (keyof AuthorizationQuery)[];

/** The authorization request's own parameters, from the page's address or its form. */
export function authorizationQueryOf(read: (name: string) => string | null): AuthorizationQuery | undefined {
  const raw: Record<string, string> = {};
  for (const name of queryNames) {
    const value = read(name);
    if (value !== null) raw[name] = value;
  }
  const parsed = v.safeParse(authorizationQuerySchema, raw);
  return parsed.success ? parsed.output : undefined;
}

export type AuthorizationAnswer =
  | { outcome: "ask"; clientName: string; query: AuthorizationQuery; consent: string }
  /** RFC 6749 §4.1.2.1: the error goes back to the client. */
  | { outcome: "redirect"; location: string }
  /** A wrong client or redirect URI: shown here, never sent anywhere. */
  | { outcome: "invalid"; error: string }
  | { outcome: "failed" };

async function answerOf(response: Response, query: AuthorizationQuery): Promise<AuthorizationAnswer> {
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 200) {
    const decided = v.safeParse(authorizationDecisionSchema, body);
    if (decided.success) return { outcome: "redirect", location: decided.output.redirect };
    const checked = v.safeParse(authorizationCheckSchema, body);
    if (checked.success) {
      return {
        outcome: "ask",
        clientName: checked.output.client_name,
        query,
        consent: checked.output.consent,
      };
    }
    return { outcome: "failed" };
  }
  if (response.status === 400) {
    const refusal = v.safeParse(authorizationRefusalSchema, body);
    if (!refusal.success) return { outcome: "failed" };
    return refusal.output.redirect
      ? { outcome: "redirect", location: refusal.output.redirect }
      : { outcome: "invalid", error: refusal.output.error };
  }
  return { outcome: "failed" };
}

/** The consent ticket's cookie for the consent page at `pagePath`; null clears it. */
export function consentCookie({ config }: Pick<Context, "config">, ticket: string | null, pagePath: string) {
  return serializeCookie(consentCookieName, ticket ?? "", {
    maxAge: ticket ? consentLifetimeMs / 1000 : 0,
    path: pagePath,
    sameSite: "Strict",
    httpOnly: true,
    secure: secureCookiesOf(config),
  });
}

export function readConsentCookie(request: Request): string | undefined {
  return parseCookieHeader(request.headers.get("cookie")).get(consentCookieName);
}

export async function checkAuthorizationRequest(
  { config, services }: Context,
  query: AuthorizationQuery,
): Promise<AuthorizationAnswer> {
  const url = siteUrl(config, authorizePath);
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value);
  const response = await services.handle(new Request(url, { headers: { accept: "application/json" } }));
  return answerOf(response, query);
}

export async function decideAuthorization(
  { config, services }: Context,
  request: Request,
  query: AuthorizationQuery,
  decision: "allow" | "deny",
): Promise<AuthorizationAnswer> {
  const consent = readConsentCookie(request);
  // With the session, so that a connection allowed while signed in is the account's (deleted with it).
  const headers = accountRequestHeaders(request);
  headers.set("content-type", "application/json");
  const response = await services.handle(
    new Request(siteUrl(config, authorizePath), {
      method: "POST",
      headers,
      body: JSON.stringify({ ...query, decision, ...(consent ? { consent } : {}) }),
    }),
  );
  return answerOf(response, query);
}
