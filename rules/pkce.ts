import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from "oauth4webapi";
import * as v from "valibot";

/**
 * PKCE (RFC 7636) and the random values of an OAuth 2.0 flow, through oauth4webapi: the web
 * sign-in provider's client (origin/oidc.ts), the streaming connection in the browser
 * (app/client/connect.ts) and the embedded authorization server (origin/streaming-oauth.ts) share them.
 */

/** 32 random bytes, base64url (43 characters): a PKCE verifier (RFC 7636 §4.1), a state, a nonce, a code. */
export function randomUrlToken(): string {
  return generateRandomCodeVerifier();
}

/** RFC 7636 §4.2 `S256`: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): Promise<string> {
  return calculatePKCECodeChallenge(verifier);
}

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const codeVerifierSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9._~-]{43,128}$/, "Invalid code_verifier"),
);
