// A stand-in OpenID provider for tests (Node and workerd): discovery, a JWKS with one RSA key,
// and ID tokens it signs with claims a test chooses. Web Crypto only.

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
const encodeJson = (value: unknown) => b64url(new TextEncoder().encode(JSON.stringify(value)));

export type StandInIssuer = Awaited<ReturnType<typeof createIssuer>>;

/** An RS256 key pair. */
async function newKeyPair(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
}

export async function createIssuer(issuer: string, clientId: string) {
  const keys = await newKeyPair();
  const publicJwk = (await crypto.subtle.exportKey("jwk", keys.publicKey)) as JsonWebKey;
  const kid = "test-key-1";
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/o/oauth2/v2/auth`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/oauth2/v3/certs`,
  };

  async function sign(
    claims: Record<string, unknown>,
    header: Record<string, unknown> = {},
    key = keys.privateKey,
  ) {
    const signingInput = `${encodeJson({ alg: "RS256", kid, typ: "JWT", ...header })}.${encodeJson(claims)}`;
    const signature = await crypto.subtle.sign(
      "RSASSA-PKCS1-v1_5",
      key,
      new TextEncoder().encode(signingInput),
    );
    return `${signingInput}.${b64url(new Uint8Array(signature))}`;
  }

  /** Claims of a good token for `nonce`, now; a test overrides what it wants wrong. */
  function claims(nonce: string, overrides: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: issuer,
      sub: "110169484474386276334",
      aud: clientId,
      azp: clientId,
      iat: now,
      exp: now + 3600,
      nonce,
      email: "Ana.Lima@Example.com",
      email_verified: true,
      ...overrides,
    };
  }

  return {
    metadata,
    jwks: { keys: [{ ...publicJwk, kid, alg: "RS256", use: "sig" }] },
    sign,
    claims,
    /** Another key, which the JWKS does not hold: a forged signature. */
    otherKey: async () => (await newKeyPair()).privateKey,
  };
}
