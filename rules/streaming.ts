import * as v from "valibot";

/**
 * The streaming-service connection (spec 000 §3–§4, 001 §4, 002 §3–§9): an OAuth 2.0 authorization
 * code grant with PKCE (RFC 6749 §4.1, RFC 7636) for a public client, the site in the browser.
 * The rules the browser, the site's pages and the embedded origin's authorization server share.
 * docs/decisions/021-streaming-connection.md says why.
 */

/** What the browser needs to start a connection (public values; rules/env.ts reads them). */
export type StreamingConfig = { clientId: string; authorizeUrl: string };

/** The site's client id at the authorization server; `STREAMING_CLIENT_ID` names another (both ends read it). */
export const defaultClientId = "tunewave-web";
/** Spec 002 §9 "Connect popup 500x600" (width × height). */
export const connectPopup = { width: 500, height: 600 } as const;
/** Spec 002 §9 "popup auto-close 2 s after callback". */
export const popupAutoCloseMs = 2000;
/** Spec 002 §9 "Scope music". */
export const connectScope = "music";
/** Spec 002 §9 "challenge method S256"; RFC 7636 `plain` is refused. */
export const challengeMethod = "S256";
/** Spec 002 §2: the callback the authorization server sends the popup back to. */
export const callbackPath = "/applemusic/signin/complete";
/** Spec 002 §2: the test-mode stand-in for the authorization page (the embedded origin's consent page). */
export const mockActivatePath = "/applemusic/signin/mockactivate";
/** Spec 002 §7: the token call. */
export const tokenPath = "/services/partner/oauth/commerce/oauth2/token";
/** The embedded authorization server's authorization call, behind the consent page. */
export const authorizePath = "/services/partner/oauth/commerce/oauth2/authorize";
/** RFC 7009 token revocation: a disconnect tells the provider too. */
export const revokePath = "/services/partner/oauth/commerce/oauth2/revoke";
/**
 * How long an authorization code works: RFC 6749 §4.1.2 "a maximum authorization code lifetime of
 * 10 minutes is RECOMMENDED"; the popup exchanges it within a second of the redirect.
 */
export const codeLifetimeMs = 60 * 1000;
/**
 * How long the consent page's showing of a request (its consent ticket, `tw_consent`) lets Allow
 * issue a code: the popup's own connect attempt lives as long (`_checkstate`, below).
 */
export const consentLifetimeMs = 10 * 60 * 1000;
/** The consent ticket's cookie: HttpOnly, SameSite Strict, on the consent page's own path. */
export const consentCookieName = "tw_consent";
/** How long an access token lasts; past it the site shows "Your sign in has expired". */
export const accessTokenLifetimeSeconds = 30 * 24 * 60 * 60;
/** How long the pending connect attempt (`_checkstate`) waits for its callback. */
export const checkStateLifetimeMs = 10 * 60 * 1000;
/** How long an expired connection is remembered, so the site can say it expired rather than forget it. */
export const expiredConnectionMemoryMs = 90 * 24 * 60 * 60 * 1000;

/** RFC 6749 §4.1.2.1 and §5.2 error codes (with RFC 7636 §4.4.1 for a missing challenge). */
export const oauthErrors = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "invalid_scope",
  "access_denied",
  "server_error",
] as const;
export type OAuthError = (typeof oauthErrors)[number];

/** Spec 002 §5 "state must equal the one issued, else error invalid_state". */
export const invalidState = "invalid_state";

/** The authorization request's parameters (spec 002 §3 "Connect flow parameters", RFC 6749 §4.1.1). */
export type AuthorizationParams = {
  client_id: string;
  response_type: "code";
  scope: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: typeof challengeMethod;
  state: string;
};

/** Spec 002 §3 "state (screen name + '_' + beacon id)". */
export function connectState(screenname: string, beaconId: string): string {
  return `${screenname}_${beaconId}`;
}

/** The authorization page's address with the request's parameters (RFC 6749 §4.1.1). */
export function authorizationUrl(authorizeUrl: string, params: AuthorizationParams, base: string): string {
  const url = new URL(authorizeUrl, base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

const bounded = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

/**
 * What the consent page passes to the authorization server: the request as the client made it.
 * Checked there, not here (RFC 6749 §4.1.2.1 decides which failures may go back to the client).
 */
export const authorizationQuerySchema = v.object({
  client_id: v.optional(bounded(200)),
  response_type: v.optional(bounded(40)),
  scope: v.optional(bounded(200)),
  redirect_uri: v.optional(bounded(2048)),
  code_challenge: v.optional(bounded(200)),
  code_challenge_method: v.optional(bounded(20)),
  state: v.optional(v.pipe(v.string(), v.maxLength(500))),
});
export type AuthorizationQuery = v.InferOutput<typeof authorizationQuerySchema>;

const consentTicket = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, "Invalid consent ticket"));

/**
 * The authorization server's answer to a checked request: who asks, for what, and the consent
 * ticket that the page's Allow for this request must present (consentLifetimeMs).
 */
export const authorizationCheckSchema = v.object({
  client_id: bounded(200),
  client_name: bounded(200),
  scope: bounded(200),
  consent: consentTicket,
});

/** The consent page's decision, as the authorization server takes it: the request, Allow or Deny, the ticket. */
export const authorizationDecisionRequestSchema = v.object({
  ...authorizationQuerySchema.entries,
  decision: v.picklist(["allow", "deny"]),
  consent: v.optional(consentTicket),
});

/**
 * A failed authorization request. `redirect` is where the error goes when the client may be told
 * (RFC 6749 §4.1.2.1); absent when the client or its redirect URI is wrong, and the page says so.
 */
export const authorizationRefusalSchema = v.object({
  error: v.picklist(oauthErrors),
  error_description: v.optional(v.pipe(v.string(), v.maxLength(500))),
  redirect: v.optional(v.pipe(v.string(), v.url())),
});

/** The authorization server's answer to Allow or Deny: where the popup goes next. */
export const authorizationDecisionSchema = v.object({ redirect: v.pipe(v.string(), v.url()) });

/** RFC 6749 §5.1 (spec 002 §3 "response has access_token"). */
export const tokenAnswerSchema = v.object({
  access_token: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  token_type: v.string(),
  expires_in: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  scope: v.optional(v.string()),
});

/** RFC 6749 §5.2 (spec 002 §3 "… or error"): any error string, so a provider's own codes are kept. */
export const tokenErrorSchema = v.object({
  error: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  error_description: v.optional(v.string()),
});

/**
 * RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". Here rather
 * than in pkce.ts: every page's storage reads the connect attempt's record, and pkce.ts brings
 * oauth4webapi, which only the connect flow runs (decision 027, part 4).
 */
export const codeVerifierSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9._~-]{43,128}$/, "Invalid code_verifier"),
);

/** The token request the site sends (RFC 6749 §4.1.3 with RFC 7636 §4.5's code_verifier). */
export const tokenRequestSchema = v.object({
  grant_type: v.string(),
  code: bounded(200),
  code_verifier: codeVerifierSchema,
  redirect_uri: bounded(2048),
  client_id: bounded(200),
});

/** Spec 000 §3 "a streaming-service connection record holding access_token", with its end. */
export const connectionRecordSchema = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  /** When the token ends (ms since the epoch): past it, the connection has expired. */
  expiresAt: v.pipe(v.number(), v.integer()),
});
export type ConnectionRecord = v.InferOutput<typeof connectionRecordSchema>;

/** Spec 001 §4 "Streaming-service connection (offer context)": connected, unconnected, expired sign-in. */
export type ConnectionState = "connected" | "unconnected" | "expired";

export function connectionStateOf(record: ConnectionRecord | undefined, now: number): ConnectionState {
  if (!record) return "unconnected";
  return now < record.expiresAt ? "connected" : "expired";
}

/** The pending connect attempt (spec 000 §3 local storage key `_checkstate`), for the callback. */
export const checkStateSchema = v.object({
  state: bounded(500),
  verifier: codeVerifierSchema,
  clientId: bounded(200),
  redirectUri: bounded(2048),
  screenname: bounded(100),
  beaconId: bounded(100),
});
export type CheckState = v.InferOutput<typeof checkStateSchema>;
