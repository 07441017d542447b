import * as v from "valibot";
import type { Database } from "#origin/db/rows.ts";
import { randomUrlToken, s256Challenge } from "#rules/pkce.ts";
import {
  type AuthorizationQuery,
  accessTokenLifetimeSeconds,
  callbackPath,
  challengeMethod,
  codeLifetimeMs,
  codeVerifierSchema,
  connectScope,
  consentLifetimeMs,
  defaultClientId,
  type OAuthError,
} from "#rules/streaming.ts";
import { sha256 } from "./accounts";

/**
 * The authorization server the embedded origin runs for the streaming-service connection: an
 * OAuth 2.0 authorization code grant (RFC 6749 §4.1) with PKCE (RFC 7636), S256 only. It stands in
 * for the streaming service when no upstream is configured, so it follows the RFCs to the letter:
 * the site cannot tell it from the real provider.
 */

/** A registered client: the site, whose one redirect URI is its own callback page. */
export type OAuthClient = { id: string; name: string; redirectUri: string };

export function registeredClient(clientId: string | undefined, siteOrigin: string): OAuthClient {
  return {
    id: clientId || defaultClientId,
    name: "Tunewave",
    redirectUri: new URL(callbackPath, siteOrigin).href,
  };
}

/** A request RFC 6749 §4.1.2.1 refuses; `redirect` says whether the client may be told. */
export type AuthorizationRefusal = { error: OAuthError; description: string; redirect: boolean };

export type CheckedAuthorization = {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  state: string;
};

/** RFC 7636 §4.2: an S256 challenge is the base64url of a SHA-256 digest, 43 characters. */
const s256ChallengePattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * RFC 6749 §4.1.1 and §4.1.2.1, RFC 7636 §4.4.1: the checks of an authorization request, in the
 * order that decides where the error goes. A wrong client or redirect URI is shown to the person,
 * never sent to the redirect URI (it could be anyone's); every other error goes to the client.
 */
export function checkAuthorization(
  query: AuthorizationQuery,
  client: OAuthClient,
): { ok: true; request: CheckedAuthorization } | { ok: false; refusal: AuthorizationRefusal } {
  const refuse = (error: OAuthError, description: string, redirect = true) => ({
    ok: false as const,
    refusal: { error, description, redirect },
  });
  if (!query.client_id) return refuse("invalid_request", "client_id is required", false);
  if (query.client_id !== client.id) return refuse("invalid_client", "Unknown client_id", false);
  if (!query.redirect_uri) return refuse("invalid_request", "redirect_uri is required", false);
  if (query.redirect_uri !== client.redirectUri) {
    return refuse("invalid_request", "redirect_uri is not registered for this client", false);
  }
  if (query.response_type !== "code") {
    return refuse("unsupported_response_type", "Only response_type=code is supported");
  }
  // RFC 6749 §10.12 leaves `state` RECOMMENDED; this server requires it (decision 030, finding 11): the
  // client's only defence against a code it did not ask for, and the site always sends one.
  if (!query.state) return refuse("invalid_request", "state is required");
  // RFC 7636 §4.4.1: a server that requires PKCE answers a request without it with invalid_request.
  if (!query.code_challenge) return refuse("invalid_request", "code_challenge is required");
  // RFC 7636 §4.3: no method means "plain", which this server does not support (§4.4.1).
  if (query.code_challenge_method !== challengeMethod) {
    return refuse("invalid_request", "transform algorithm not supported");
  }
  if (!s256ChallengePattern.test(query.code_challenge)) {
    return refuse("invalid_request", "code_challenge is not an S256 challenge");
  }
  const scopes = (query.scope ?? connectScope).split(" ").filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => scope !== connectScope)) {
    return refuse("invalid_scope", `The only scope is ${connectScope}`);
  }
  return {
    ok: true,
    request: {
      client,
      redirectUri: client.redirectUri,
      codeChallenge: query.code_challenge,
      scope: connectScope,
      state: query.state,
    },
  };
}

/** RFC 6749 §4.1.2 and §4.1.2.1: the redirect URI with the answer's parameters and the state. */
export function redirectWith(
  redirectUri: string,
  params: Record<string, string>,
  state: string | undefined,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set("state", state);
  return url.href;
}

/**
 * The consent page's showing of one checked request: a ticket the page keeps in the browser (an
 * HttpOnly cookie of its own) and its Allow presents. It stands for the session a real
 * authorization server would ask for before issuing a code (decision 030, finding 11): an Allow that
 * did not come through the consent page that asked, in the browser it asked, has none.
 */
export async function openConsent(db: Database, request: CheckedAuthorization, now: number): Promise<string> {
  const ticket = randomUrlToken();
  await db.batch([
    db.prepare("DELETE FROM oauth_consents WHERE expires_at <= ?").bind(now),
    db
      .prepare(
        `INSERT INTO oauth_consents
           (ticket_hash, client_id, redirect_uri, code_challenge, state, scope, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        await sha256(ticket),
        request.client.id,
        request.redirectUri,
        request.codeChallenge,
        request.state,
        request.scope,
        now + consentLifetimeMs,
        now,
      ),
  ]);
  return ticket;
}

/** Spends the ticket of the consent page that showed exactly this request; false if there is none. */
export async function spendConsent(
  db: Database,
  ticket: string | undefined,
  request: CheckedAuthorization,
  now: number,
): Promise<boolean> {
  if (!ticket) return false;
  const spent = await db
    .prepare(
      `UPDATE oauth_consents SET used_at = ?
       WHERE ticket_hash = ? AND used_at IS NULL AND expires_at > ?
         AND client_id = ? AND redirect_uri = ? AND code_challenge = ? AND state = ? AND scope = ?
       RETURNING 1 AS spent`,
    )
    .bind(
      now,
      await sha256(ticket),
      now,
      request.client.id,
      request.redirectUri,
      request.codeChallenge,
      request.state,
      request.scope,
    )
    .first();
  return spent !== null;
}

/**
 * RFC 6749 §4.1.2: a code for the person's Allow, bound to the client, redirect URI and challenge,
 * and to the Tunewave account that allowed it when one was signed in (`userId`): the connection is
 * then that account's, in its data download and revoked by its deletion.
 */
export async function issueCode(
  db: Database,
  request: CheckedAuthorization,
  userId: string | null,
  now: number,
): Promise<string> {
  const code = randomUrlToken();
  await db
    .prepare(
      `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, code_challenge, scope, expires_at, created_at, user_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      await sha256(code),
      request.client.id,
      request.redirectUri,
      request.codeChallenge,
      request.scope,
      now + codeLifetimeMs,
      now,
      userId,
    )
    .run();
  return code;
}

/** RFC 6749 §5.1. */
export type TokenAnswer = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
};

/** RFC 6749 §5.2 (with RFC 7636 §4.6 for a verifier that does not match). */
export type TokenRefusal = { error: OAuthError; error_description: string };

const tokenFormSchema = v.object({
  grant_type: v.optional(v.string()),
  code: v.optional(v.string()),
  code_verifier: v.optional(v.string()),
  redirect_uri: v.optional(v.string()),
  client_id: v.optional(v.string()),
});

const codeRowSchema = v.object({
  client_id: v.string(),
  redirect_uri: v.string(),
  code_challenge: v.string(),
  scope: v.string(),
  expires_at: v.number(),
  user_id: v.nullable(v.string()),
});

/**
 * RFC 6749 §4.1.3–§4.1.4 with RFC 7636 §4.5–§4.6: the token request. The code is spent by the
 * first request that names it, whatever follows: a code tried with a wrong verifier is an attack
 * or a broken client, and it is not left for a second guess. A code used again is refused and the
 * tokens issued for it are revoked (RFC 6749 §4.1.2 "SHOULD revoke").
 */
export async function exchangeCode(
  db: Database,
  form: Record<string, unknown>,
  client: OAuthClient,
  now: number,
): Promise<{ ok: true; answer: TokenAnswer } | { ok: false; refusal: TokenRefusal }> {
  const refuse = (error: OAuthError, error_description: string) => ({
    ok: false as const,
    refusal: { error, error_description },
  });
  const parsed = v.safeParse(tokenFormSchema, form);
  if (!parsed.success) return refuse("invalid_request", "Malformed token request");
  const { grant_type, code, code_verifier, redirect_uri, client_id } = parsed.output;
  if (!grant_type) return refuse("invalid_request", "grant_type is required");
  if (grant_type !== "authorization_code") {
    return refuse("unsupported_grant_type", "Only authorization_code is supported");
  }
  if (!code) return refuse("invalid_request", "code is required");
  if (!redirect_uri) return refuse("invalid_request", "redirect_uri is required");
  if (!client_id) return refuse("invalid_request", "client_id is required");
  if (client_id !== client.id) return refuse("invalid_client", "Unknown client_id");
  if (!code_verifier) return refuse("invalid_request", "code_verifier is required");
  if (!v.is(codeVerifierSchema, code_verifier)) {
    return refuse("invalid_request", "code_verifier must be 43 to 128 unreserved characters");
  }

  const codeHash = await sha256(code);
  const spent = await db
    .prepare(
      `UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL
       RETURNING client_id, redirect_uri, code_challenge, scope, expires_at, user_id`,
    )
    .bind(now, codeHash)
    .first();
  if (!spent) {
    const known = await db.prepare("SELECT 1 FROM oauth_codes WHERE code_hash = ?").bind(codeHash).first();
    if (!known) return refuse("invalid_grant", "Unknown authorization code");
    await db
      .prepare("UPDATE oauth_tokens SET revoked_at = ? WHERE code_hash = ? AND revoked_at IS NULL")
      .bind(now, codeHash)
      .run();
    return refuse("invalid_grant", "The authorization code was already used");
  }
  const row = v.parse(codeRowSchema, spent);
  if (row.expires_at <= now) return refuse("invalid_grant", "The authorization code has expired");
  if (row.client_id !== client_id) return refuse("invalid_grant", "The code was issued to another client");
  if (row.redirect_uri !== redirect_uri) {
    return refuse("invalid_grant", "redirect_uri does not match the authorization request");
  }
  if ((await s256Challenge(code_verifier)) !== row.code_challenge) {
    return refuse("invalid_grant", "code_verifier does not match the code_challenge");
  }

  const token = randomUrlToken();
  await db
    .prepare(
      `INSERT INTO oauth_tokens (token_hash, code_hash, client_id, scope, expires_at, created_at, user_id)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      await sha256(token),
      codeHash,
      client_id,
      row.scope,
      now + accessTokenLifetimeSeconds * 1000,
      now,
      row.user_id,
    )
    .run();
  return {
    ok: true,
    answer: {
      access_token: token,
      token_type: "Bearer",
      expires_in: accessTokenLifetimeSeconds,
      scope: row.scope,
    },
  };
}

/** RFC 7009 §2.2: a token is revoked whether or not it was known; the answer is the same. */
export async function revokeToken(db: Database, token: string, clientId: string, now: number): Promise<void> {
  await db
    .prepare(
      "UPDATE oauth_tokens SET revoked_at = ? WHERE token_hash = ? AND client_id = ? AND revoked_at IS NULL",
    )
    .bind(now, await sha256(token), clientId)
    .run();
}
