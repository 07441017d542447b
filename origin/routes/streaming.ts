import * as v from "valibot";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import { jsonBody, noStoreJson } from "#origin/http.ts";
import { signedInAccount } from "#origin/signed-in.ts";
import {
  type AuthorizationRefusal,
  checkAuthorization,
  exchangeCode,
  issueCode,
  openConsent,
  redirectWith,
  registeredClient,
  revokeToken,
  spendConsent,
} from "#origin/streaming-oauth.ts";
import { siteOriginOf } from "#rules/env.ts";
import { authorizationDecisionRequestSchema, authorizationQuerySchema } from "#rules/streaming.ts";

// The streaming service's OAuth endpoints as the embedded origin serves them (spec 002 §7
// "Streaming-service connection", decision 021). The authorization endpoint is split in two: the
// site's consent page (spec 002 §2 "mockactivate") asks whether a request is acceptable, then
// sends the person's Allow or Deny; the token and revocation endpoints are the RFCs' own.

const base = "/partner/oauth/commerce/oauth2";

/** The one registered client, whose redirect URI is on SITE_ORIGIN, never on the host a request names. */
const clientOf = (c: OriginContext) => registeredClient(c.env.STREAMING_CLIENT_ID, siteOriginOf(c.env));

/** RFC 6749 §5.1–§5.2: token answers are never stored by anyone. */
function tokenResponse(body: unknown, status: number): Response {
  const response = noStoreJson(body, status);
  response.headers.set("Pragma", "no-cache");
  return response;
}

function refusalAnswer(
  refusal: AuthorizationRefusal,
  redirectUri: string | undefined,
  state: string | undefined,
) {
  const body = { error: refusal.error, error_description: refusal.description };
  return noStoreJson(
    refusal.redirect && redirectUri ? { ...body, redirect: redirectWith(redirectUri, body, state) } : body,
    400,
  );
}

/** RFC 6749 §4.1.3 / RFC 7009 §2.1: "application/x-www-form-urlencoded" bodies only. */
async function formBody(c: OriginContext): Promise<Record<string, string> | undefined> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) return undefined;
  const params = new URLSearchParams(await c.req.text());
  const form: Record<string, string> = {};
  for (const [name, value] of params) {
    // RFC 6749 §3.2 "Request and response parameters MUST NOT be included more than once."
    if (name in form) return undefined;
    form[name] = value;
  }
  return form;
}

/** The Tunewave account signed in where the person pressed Allow (the site passes the session on), if any. */
async function allowingAccount(c: OriginContext): Promise<string | null> {
  if (!c.req.header("cookie")) return null;
  const account = await signedInAccount(c);
  return "refused" in account ? null : account.userId;
}

export function registerStreaming(origin: OriginApp) {
  origin.get(`${base}/authorize`, async (c) => {
    const query = v.safeParse(authorizationQuerySchema, c.req.query());
    if (!query.success) {
      return refusalAnswer(
        { error: "invalid_request", description: "Malformed authorization request", redirect: false },
        undefined,
        undefined,
      );
    }
    const checked = checkAuthorization(query.output, clientOf(c));
    if (!checked.ok) return refusalAnswer(checked.refusal, query.output.redirect_uri, query.output.state);
    const { client, scope } = checked.request;
    const consent = await openConsent(c.var.db, checked.request, Date.now());
    return noStoreJson({ client_id: client.id, client_name: client.name, scope, consent }, 200);
  });

  origin.post(`${base}/authorize`, async (c) => {
    const input = v.safeParse(authorizationDecisionRequestSchema, await jsonBody(c));
    if (!input.success) {
      return refusalAnswer(
        { error: "invalid_request", description: "Malformed authorization decision", redirect: false },
        undefined,
        undefined,
      );
    }
    const checked = checkAuthorization(input.output, clientOf(c));
    if (!checked.ok) return refusalAnswer(checked.refusal, input.output.redirect_uri, input.output.state);
    const { redirectUri, state } = checked.request;
    if (input.output.decision === "deny") {
      // RFC 6749 §4.1.2.1 "access_denied: The resource owner … denied the request."
      return noStoreJson({ redirect: redirectWith(redirectUri, { error: "access_denied" }, state) }, 200);
    }
    const now = Date.now();
    // A code only for the consent page's own Allow (decision 030, finding 11): a post of "allow" that
    // brings no ticket of a page that showed this very request is not the person's consent. It is
    // shown on the page, and nothing goes to the client.
    if (!(await spendConsent(c.var.db, input.output.consent, checked.request, now))) {
      return refusalAnswer(
        {
          error: "access_denied",
          description: "Allow is accepted only from the consent page that asked",
          redirect: false,
        },
        undefined,
        undefined,
      );
    }
    const code = await issueCode(c.var.db, checked.request, await allowingAccount(c), now);
    return noStoreJson({ redirect: redirectWith(redirectUri, { code }, state) }, 200);
  });

  origin.post(`${base}/token`, async (c) => {
    const form = await formBody(c);
    if (!form) {
      return tokenResponse(
        { error: "invalid_request", error_description: "The body must be form-encoded, each parameter once" },
        400,
      );
    }
    const outcome = await exchangeCode(c.var.db, form, clientOf(c), Date.now());
    return outcome.ok ? tokenResponse(outcome.answer, 200) : tokenResponse(outcome.refusal, 400);
  });

  origin.post(`${base}/revoke`, async (c) => {
    const form = await formBody(c);
    if (!form?.token || !form.client_id) {
      return tokenResponse(
        { error: "invalid_request", error_description: "token and client_id are required" },
        400,
      );
    }
    const client = clientOf(c);
    if (form.client_id !== client.id) {
      return tokenResponse({ error: "invalid_client", error_description: "Unknown client_id" }, 400);
    }
    await revokeToken(c.var.db, form.token, client.id, Date.now());
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  });
}
