import * as v from "valibot";

/**
 * The web sign-in provider's protocol (spec 002 §7 "Web sign-in provider"): OpenID Connect's
 * authorization code flow with PKCE (RFC 6749, RFC 7636, OpenID Connect Core 1.0). Google is the
 * provider; any conforming issuer works, which is how the tests stand one in. Pure protocol: the
 * caller passes `fetch` and the clock. The account service runs it (origin/routes/account.ts).
 */

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const padded = text.replaceAll("-", "+").replaceAll("_", "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(padded), (ch) => ch.charCodeAt(0));
}

/** 32 random bytes, base64url: a PKCE verifier (RFC 7636 §4.1: 43 characters), a state or a nonce. */
export function randomUrlToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** RFC 7636 §4.2 `S256`: BASE64URL(SHA256(ASCII(code_verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const codeVerifierSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9._~-]{43,128}$/, "Invalid code_verifier"),
);

/** OpenID Connect Discovery 1.0 §3: the fields this client uses. */
const discoverySchema = v.object({
  issuer: v.pipe(v.string(), v.url()),
  authorization_endpoint: v.pipe(v.string(), v.url()),
  token_endpoint: v.pipe(v.string(), v.url()),
  jwks_uri: v.pipe(v.string(), v.url()),
});
export type ProviderMetadata = v.InferOutput<typeof discoverySchema>;

const jwksSchema = v.object({
  keys: v.array(
    v.looseObject({
      kty: v.string(),
      kid: v.optional(v.string()),
      n: v.optional(v.string()),
      e: v.optional(v.string()),
    }),
  ),
});

const tokenResponseSchema = v.looseObject({ id_token: v.string(), token_type: v.string() });

/** RFC 6749 §5.2 error answer. */
const tokenErrorSchema = v.looseObject({ error: v.string(), error_description: v.optional(v.string()) });

export type Fetch = (request: Request) => Promise<Response>;

/** Why a sign-in with the web provider failed: the provider refused, or its answer did not check out. */
export class OidcError extends Error {
  constructor(
    readonly reason: "discovery" | "exchange" | "idtoken",
    message: string,
  ) {
    super(message);
  }
}

async function getJson<S extends v.GenericSchema>(
  fetch: Fetch,
  url: string,
  schema: S,
  reason: OidcError["reason"],
) {
  const response = await fetch(new Request(url, { headers: { accept: "application/json" } }));
  if (!response.ok) throw new OidcError(reason, `${url} answered ${response.status}`);
  const parsed = v.safeParse(schema, await response.json().catch(() => undefined));
  if (!parsed.success) throw new OidcError(reason, `${url}: ${v.summarize(parsed.issues)}`);
  return parsed.output as v.InferOutput<S>;
}

/** Discovery (`{issuer}/.well-known/openid-configuration`); the issuer it names must be the one asked. */
export async function discover(fetch: Fetch, issuer: string): Promise<ProviderMetadata> {
  const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const metadata = await getJson(fetch, url, discoverySchema, "discovery");
  if (metadata.issuer.replace(/\/$/, "") !== issuer.replace(/\/$/, "")) {
    throw new OidcError("discovery", `the issuer calls itself ${metadata.issuer}`);
  }
  return metadata;
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

/** RFC 6749 §4.1.3 / RFC 7636 §4.5: the code for tokens; the ID token is what sign-in needs. */
export async function exchangeCode(
  fetch: Fetch,
  metadata: ProviderMetadata,
  exchange: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
    codeVerifier: string;
  },
): Promise<string> {
  const response = await fetch(
    new Request(metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: exchange.code,
        redirect_uri: exchange.redirectUri,
        client_id: exchange.clientId,
        client_secret: exchange.clientSecret,
        code_verifier: exchange.codeVerifier,
      }),
    }),
  );
  const body = await response.json().catch(() => undefined);
  if (response.status !== 200) {
    const error = v.safeParse(tokenErrorSchema, body);
    throw new OidcError(
      "exchange",
      error.success ? error.output.error : `token endpoint answered ${response.status}`,
    );
  }
  const parsed = v.safeParse(tokenResponseSchema, body);
  if (!parsed.success) throw new OidcError("exchange", "the token answer has no id_token");
  return parsed.output.id_token;
}

const idTokenHeaderSchema = v.object({
  alg: v.literal("RS256", "Only RS256 ID tokens are accepted"),
  kid: v.optional(v.string()),
});

const idTokenClaimsSchema = v.looseObject({
  iss: v.string(),
  sub: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  aud: v.union([v.string(), v.array(v.string())]),
  azp: v.optional(v.string()),
  exp: v.number(),
  iat: v.number(),
  nonce: v.optional(v.string()),
  email: v.optional(v.string()),
  email_verified: v.optional(v.union([v.boolean(), v.literal("true"), v.literal("false")])),
});
export type IdTokenClaims = v.InferOutput<typeof idTokenClaimsSchema>;

/** Clock skew allowed between the provider and the edge. */
const skewSeconds = 60;

/**
 * OIDC Core §3.1.3.7: an ID token is accepted only with a valid RS256 signature by a key of the
 * issuer's JWKS, from that issuer, for this client, unexpired, with the nonce this browser was given,
 * and for a verified e-mail address (the account is the address, as with e-mail links).
 */
export async function verifyIdToken(
  fetch: Fetch,
  metadata: ProviderMetadata,
  idToken: string,
  expected: { clientId: string; nonce: string; nowSeconds: number },
): Promise<IdTokenClaims & { email: string }> {
  const parts = idToken.split(".");
  if (parts.length !== 3) throw new OidcError("idtoken", "not a JWT");
  const [headerPart = "", claimsPart = "", signaturePart = ""] = parts;
  const decode = (part: string) => {
    try {
      return JSON.parse(new TextDecoder().decode(fromBase64url(part))) as unknown;
    } catch {
      throw new OidcError("idtoken", "a part of the JWT is not base64url JSON");
    }
  };
  const header = v.safeParse(idTokenHeaderSchema, decode(headerPart));
  if (!header.success) throw new OidcError("idtoken", v.summarize(header.issues));
  const claims = v.safeParse(idTokenClaimsSchema, decode(claimsPart));
  if (!claims.success) throw new OidcError("idtoken", v.summarize(claims.issues));

  const { keys } = await getJson(fetch, metadata.jwks_uri, jwksSchema, "idtoken");
  const jwk = keys.find(
    (key) => key.kty === "RSA" && (header.output.kid === undefined || key.kid === header.output.kid),
  );
  if (!jwk?.n || !jwk.e) throw new OidcError("idtoken", "no key of the issuer signed it");
  const key = await crypto.subtle.importKey(
    "jwk",
    { kty: "RSA", n: jwk.n, e: jwk.e, alg: "RS256", ext: true },
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const signed = await crypto.subtle.verify(
    "RSASSA-PKCS1-v1_5",
    key,
    fromBase64url(signaturePart),
    new TextEncoder().encode(`${headerPart}.${claimsPart}`),
  );
  if (!signed) throw new OidcError("idtoken", "the signature does not verify");

  const token = claims.output;
  // Google also issues tokens whose iss is the bare host name (OIDC Core notes it for Google).
  const issuers = [metadata.issuer, metadata.issuer.replace(/^https:\/\//, "")];
  if (!issuers.includes(token.iss)) throw new OidcError("idtoken", "wrong issuer");
  const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
  if (!audiences.includes(expected.clientId)) throw new OidcError("idtoken", "not issued for this client");
  if (audiences.length > 1 && token.azp !== expected.clientId) throw new OidcError("idtoken", "wrong azp");
  if (token.exp + skewSeconds <= expected.nowSeconds) throw new OidcError("idtoken", "expired");
  if (token.iat - skewSeconds > expected.nowSeconds) throw new OidcError("idtoken", "issued in the future");
  if (token.nonce !== expected.nonce) throw new OidcError("idtoken", "wrong nonce");
  if (!token.email || (token.email_verified !== true && token.email_verified !== "true")) {
    throw new OidcError("idtoken", "no verified e-mail address");
  }
  return { ...token, email: token.email };
}
