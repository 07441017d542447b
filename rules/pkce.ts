import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from "oauth4webapi";

/**
 * PKCE (RFC 7636) and the random values of an OAuth 2.0 flow, through oauth4webapi: the web
 * sign-in provider's client (origin/oidc.ts), the streaming connection in the browser
 * (app/streaming/browser/connect.ts) and the embedded authorization server (origin/streaming-oauth.ts) share them.
 */

/** 32 random bytes, base64url (43 characters): a PKCE verifier (RFC 7636 §4.1), a state, a nonce, a code. */
export function randomUrlToken(): string {
  return generateRandomCodeVerifier();
}

/** RFC 7636 §4.2 `S256`: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): Promise<string> {
  return calculatePKCECodeChallenge(verifier);
}
