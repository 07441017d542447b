import { beforeAll, describe, expect, test } from "vitest";
import {
  authorizationUrl,
  discover,
  exchangeCode,
  type Fetch,
  OidcError,
  s256Challenge,
  verifyIdToken,
} from "../../edge/oidc";
import { createIssuer, type StandInIssuer } from "../oidc-issuer";

const issuerUrl = "https://issuer.test";
const clientId = "tunewave-web.apps.test";
let issuer: StandInIssuer;

beforeAll(async () => {
  issuer = await createIssuer(issuerUrl, clientId);
});

/** The stand-in provider's endpoints as a fetch. */
const providerFetch = (tokenAnswer?: { status: number; body: unknown }): Fetch => {
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/.well-known/openid-configuration") return Response.json(issuer.metadata);
    if (url.pathname === "/oauth2/v3/certs") return Response.json(issuer.jwks);
    if (url.pathname === "/token" && tokenAnswer)
      return Response.json(tokenAnswer.body, { status: tokenAnswer.status });
    return new Response("not found", { status: 404 });
  };
};

describe("RFC 7636 PKCE", () => {
  test("S256 of the RFC's own appendix B verifier is its challenge", async () => {
    expect(await s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });
});

describe("discovery and the authorization request", () => {
  test("the authorization address carries the code flow's parameters and the S256 challenge", async () => {
    const metadata = await discover(providerFetch(), issuerUrl);
    const url = new URL(
      authorizationUrl(metadata, {
        clientId,
        redirectUri: "https://tunewave.test/login/google/callback",
        state: "s".repeat(43),
        nonce: "n".repeat(43),
        codeChallenge: "c".repeat(43),
      }),
    );
    expect(url.origin + url.pathname).toBe(`${issuerUrl}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: clientId,
      redirect_uri: "https://tunewave.test/login/google/callback",
      scope: "openid email",
      state: "s".repeat(43),
      nonce: "n".repeat(43),
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
    });
  });

  test("an issuer that names another issuer is refused", async () => {
    const lying: Fetch = async () => Response.json({ ...issuer.metadata, issuer: "https://evil.test" });
    await expect(discover(lying, issuerUrl)).rejects.toThrow(OidcError);
  });
});

describe("the token exchange", () => {
  test("a 200 answer gives its id_token; an RFC 6749 §5.2 error gives its code", async () => {
    const metadata = issuer.metadata;
    const exchange = {
      clientId,
      clientSecret: "secret",
      code: "code",
      redirectUri: "https://t/cb",
      codeVerifier: "v",
    };
    expect(
      await exchangeCode(
        providerFetch({ status: 200, body: { id_token: "x.y.z", token_type: "Bearer" } }),
        metadata,
        exchange,
      ),
    ).toBe("x.y.z");
    await expect(
      exchangeCode(providerFetch({ status: 400, body: { error: "invalid_grant" } }), metadata, exchange),
    ).rejects.toThrow("invalid_grant");
  });
});

describe("OIDC Core §3.1.3.7 ID token checks", () => {
  const nonce = "N".repeat(43);
  const now = () => Math.floor(Date.now() / 1000);

  test("a good token gives its claims", async () => {
    const token = await issuer.sign(issuer.claims(nonce));
    const claims = await verifyIdToken(providerFetch(), issuer.metadata, token, {
      clientId,
      nonce,
      nowSeconds: now(),
    });
    expect(claims.email).toBe("Ana.Lima@Example.com");
  });

  test.each([
    ["another issuer", { iss: "https://evil.test" }],
    ["another client", { aud: "someone-else" }],
    ["several audiences, azp not ours", { aud: [clientId, "other"], azp: "other" }],
    ["expired", { exp: Math.floor(Date.now() / 1000) - 3600 }],
    ["issued in the future", { iat: Math.floor(Date.now() / 1000) + 3600 }],
    ["another nonce", { nonce: "X".repeat(43) }],
    ["no nonce", { nonce: undefined }],
    ["e-mail not verified", { email_verified: false }],
    ["no e-mail", { email: undefined }],
  ])("refused: %s", async (_name, overrides) => {
    const token = await issuer.sign(issuer.claims(nonce, overrides));
    await expect(
      verifyIdToken(providerFetch(), issuer.metadata, token, { clientId, nonce, nowSeconds: now() }),
    ).rejects.toThrow(OidcError);
  });

  test("refused: signed by a key the issuer does not publish", async () => {
    const token = await issuer.sign(issuer.claims(nonce), {}, await issuer.otherKey());
    await expect(
      verifyIdToken(providerFetch(), issuer.metadata, token, { clientId, nonce, nowSeconds: now() }),
    ).rejects.toThrow("signature");
  });

  test.each([
    [
      "alg none",
      (t: string) => t.replace(/^[^.]+/, btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")),
    ],
    ["two parts", (t: string) => t.split(".").slice(0, 2).join(".")],
    ["claims not JSON", (t: string) => t.replace(/\.[^.]+\./, ".bm90IGpzb24.")],
  ])("refused: %s", async (_name, tamper) => {
    const token = tamper(await issuer.sign(issuer.claims(nonce)));
    await expect(
      verifyIdToken(providerFetch(), issuer.metadata, token, { clientId, nonce, nowSeconds: now() }),
    ).rejects.toThrow(OidcError);
  });
});
