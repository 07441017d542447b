import * as oauth from "oauth4webapi";

/**
 * The web sign-in provider's protocol (spec 002 §7 "Web sign-in provider"): OpenID Connect's
 * authorization code flow with PKCE (RFC 6749, RFC 7636, OpenID Connect Core 1.0), run by
 * oauth4webapi, a certified relying-party library that runs on Workers: discovery, the
 * authorization response's checks (RFC 9207 `iss`), the code grant with client_secret_post and the
 * verifier, and the ID token's checks (OIDC Core §3.1.3.7: issuer, audience, azp, exp, iat, nonce),
 * its RS256 signature by a key of the issuer's JWKS included. What is ours: the parameters we send,
 * the verified e-mail address an account needs, and which issuers may be spoken to without TLS.
 * Google is the provider; any conforming issuer works, which is how the tests stand one in.
 * The account service runs it (origin/routes/web-provider.ts); the caller passes `fetch`.
 */

/** The fetch oauth4webapi calls (its `customFetch`: a URL and fetch options). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** Why a sign-in with the web provider failed: the provider refused, or its answer did not check out. */
export class OidcError extends Error {
  constructor(
    readonly reason: "discovery" | "callback" | "exchange" | "idtoken",
    message: string,
  ) {
    super(message);
  }
}

/** The provider's metadata, as discovery gave it (OpenID Connect Discovery 1.0 §3). */
export type ProviderMetadata = oauth.AuthorizationServer;

/** Our client at the provider. */
export type OidcClient = { clientId: string; clientSecret: string };

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * oauth4webapi speaks only HTTPS (`allowInsecureRequests` lifts that). We lift it for an issuer on
 * this machine's loopback address and nothing else: the browser tests' stand-in issuer listens on
 * http://127.0.0.1 and a loopback hop never leaves the machine, so TLS would protect nothing there;
 * any other http:// issuer (a misconfiguration) is refused, and so is an http:// endpoint that a
 * loopback issuer's metadata names elsewhere.
 */
export function insecureRequestsAllowed(url: URL): boolean {
  return url.protocol === "http:" && loopbackHosts.has(url.hostname);
}

function httpOptions(issuer: URL, fetch: Fetch) {
  const loopback = insecureRequestsAllowed(issuer);
  return {
    [oauth.allowInsecureRequests]: loopback,
    [oauth.customFetch]: (url: string, init: RequestInit) => {
      const target = new URL(url);
      if (target.protocol !== "https:" && !(loopback && insecureRequestsAllowed(target))) {
        return Promise.reject(new Error(`${target.origin} is neither https nor loopback`));
      }
      return fetch(url, init);
    },
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Discovery (`{issuer}/.well-known/openid-configuration`); the issuer it names must be the one asked. */
export async function discover(fetch: Fetch, issuer: string): Promise<ProviderMetadata> {
  const issuerUrl = new URL(issuer);
  try {
    const response = await oauth.discoveryRequest(issuerUrl, {
      algorithm: "oidc",
      ...httpOptions(issuerUrl, fetch),
    });
    return await oauth.processDiscoveryResponse(issuerUrl, response);
  } catch (error) {
    throw new OidcError("discovery", messageOf(error));
  }
}

export type AuthorizationRequest = {
  clientId: string;
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
};

/** RFC 6749 §4.1.1 + RFC 7636 §4.3 + OIDC Core §3.1.2.1: where the person's browser goes. */
export function authorizationUrl(metadata: ProviderMetadata, request: AuthorizationRequest): string {
  if (!metadata.authorization_endpoint) throw new OidcError("discovery", "no authorization_endpoint");
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", request.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("scope", "openid email");
  url.searchParams.set("state", request.state);
  url.searchParams.set("nonce", request.nonce);
  url.searchParams.set("code_challenge", request.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("prompt", "select_account");
  return url.href;
}

/** What came back to the redirect URI, after the site checked its `state` against the browser's. */
export type CodeCallback = {
  code: string;
  /** RFC 9207: the issuer the response says it came from, when the provider sends it. */
  iss?: string | undefined;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
};

/** Clock skew allowed between the provider and the edge. */
const clockToleranceSeconds = 60;

/** The ID token's claims once checked; `email` is the verified address the account is. */
export type VerifiedSignIn = { idToken: string; claims: oauth.IDToken & { email: string } };

/**
 * RFC 6749 §4.1.3 / RFC 7636 §4.5, then OIDC Core §3.1.3.7: the code for tokens, and the ID token
 * accepted only with a valid RS256 signature by a key of the issuer's JWKS, from that issuer, for
 * this client, unexpired, with the nonce this browser was given, and for a verified e-mail address
 * (the account is the address, as with e-mail links).
 */
export async function signInWithCode(
  fetch: Fetch,
  metadata: ProviderMetadata,
  ours: OidcClient,
  callback: CodeCallback,
): Promise<VerifiedSignIn> {
  const client: oauth.Client = {
    client_id: ours.clientId,
    id_token_signed_response_alg: "RS256",
    [oauth.clockTolerance]: clockToleranceSeconds,
  };
  const options = httpOptions(new URL(metadata.issuer), fetch);

  let parameters: URLSearchParams;
  try {
    const raw = new URLSearchParams({ code: callback.code });
    if (callback.iss !== undefined) raw.set("iss", callback.iss);
    // `state` was compared by the site with the one in this browser's transaction cookie, which
    // the account service never sees; the rest (RFC 9207 `iss`, an error answer) is checked here.
    parameters = oauth.validateAuthResponse(metadata, client, raw, oauth.skipStateCheck);
  } catch (error) {
    throw new OidcError("callback", messageOf(error));
  }

  let response: Response;
  try {
    response = await oauth.authorizationCodeGrantRequest(
      metadata,
      client,
      oauth.ClientSecretPost(ours.clientSecret),
      parameters,
      callback.redirectUri,
      callback.codeVerifier,
      options,
    );
  } catch (error) {
    throw new OidcError("exchange", messageOf(error));
  }

  let tokens: oauth.TokenEndpointResponse;
  try {
    tokens = await oauth.processAuthorizationCodeResponse(metadata, client, response, {
      expectedNonce: callback.nonce,
      requireIdToken: true,
    });
  } catch (error) {
    // RFC 6749 §5.2: the provider's own refusal keeps its error code.
    if (error instanceof oauth.ResponseBodyError) throw new OidcError("exchange", error.error);
    throw new OidcError("idtoken", messageOf(error));
  }

  try {
    // The ID token came straight from the token endpoint, where TLS alone may vouch for it (OIDC
    // Core §3.1.3.7 item 6); the signature is checked anyway: a loopback issuer has no TLS, and a
    // forged token must not depend on the transport to be caught.
    await oauth.validateApplicationLevelSignature(metadata, response, options);
  } catch (error) {
    throw new OidcError("idtoken", `the signature does not verify: ${messageOf(error)}`);
  }

  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims || !tokens.id_token) throw new OidcError("idtoken", "no ID token");
  // OIDC Core §3.1.3.7 item 10 leaves it to the client to reject a token issued too far from now;
  // oauth4webapi checks only that iat is a number. Ours: not from the future, past the skew.
  if (claims.iat - clockToleranceSeconds > Math.floor(Date.now() / 1000)) {
    throw new OidcError("idtoken", "issued in the future");
  }
  const { email, email_verified: verified } = claims;
  if (typeof email !== "string" || !email || (verified !== true && verified !== "true")) {
    throw new OidcError("idtoken", "no verified e-mail address");
  }
  return { idToken: tokens.id_token, claims: { ...claims, email } };
}
