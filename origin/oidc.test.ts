import { beforeAll, describe, expect, test } from "vitest";
import {
  authorizationUrl,
  type CodeCallback,
  discover,
  type Fetch,
  insecureRequestsAllowed,
  OidcError,
  signInWithCode,
} from "#origin/oidc.ts";
import { s256Challenge } from "#rules/pkce.ts";
import { createIssuer, type StandInIssuer } from "#tests/oidc-issuer.ts";

const issuerUrl = "https://issuer.test";
const clientId = "tunewave-web.apps.test";
const client = { clientId, clientSecret: "secret" };
let issuer: StandInIssuer;

beforeAll(async () => {
  issuer = await createIssuer(issuerUrl, clientId);
});

/** The stand-in provider's endpoints as a fetch; what the token endpoint was sent is kept. */
function providerFetch(
  tokenAnswer?: () => Promise<{ status: number; body: unknown }>,
  metadata: unknown = issuer.metadata,
) {
  const sent: { token?: URLSearchParams; urls: string[] } = { urls: [] };
  const fetch: Fetch = async (url, init) => {
    sent.urls.push(url);
    const path = new URL(url).pathname;
    if (path === "/.well-known/openid-configuration") return Response.json(metadata);
    if (path === "/oauth2/v3/certs") return Response.json(issuer.jwks);
    if (path === "/token" && tokenAnswer) {
      sent.token = new URLSearchParams(String(init.body));
      const answer = await tokenAnswer();
      return Response.json(answer.body, { status: answer.status });
    }
    return new Response("not found", { status: 404 });
  };
  return { fetch, sent };
}

const nonce = "N".repeat(43);
const callback: CodeCallback = {
  code: "the-code",
  redirectUri: "https://tunewave.test/login/google/callback",
  codeVerifier: "V".repeat(43),
  nonce,
};
const tokenAnswerWith = (idToken: Promise<string>) => async () => ({
  status: 200,
  body: { id_token: await idToken, token_type: "Bearer", access_token: "at" },
});

describe("RFC 7636 PKCE", () => {
  test("S256 of the RFC's own appendix B verifier is its challenge", async () => {
    expect(await s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });
});

describe("which issuers may be spoken to without TLS", () => {
  test.each([
    ["http://127.0.0.1:9460", true],
    ["http://localhost:9460", true],
    ["http://[::1]:9460", true],
    ["https://accounts.google.com", false],
    ["http://issuer.test", false],
    ["http://127.0.0.1.evil.test", false],
    ["http://localhost.evil.test", false],
    ["http://10.0.0.1", false],
  ])("%s: %s", (url, allowed) => {
    expect(insecureRequestsAllowed(new URL(url))).toBe(allowed);
  });

  test("discovery of an http:// issuer that is not on loopback is refused before any request", async () => {
    const { fetch, sent } = providerFetch(undefined, { ...issuer.metadata, issuer: "http://issuer.test" });
    await expect(discover(fetch, "http://issuer.test")).rejects.toThrow(OidcError);
    expect(sent.urls).toEqual([]);
  });

  test("a loopback issuer is discovered over http, but not its endpoints elsewhere over http", async () => {
    const loopback = "http://127.0.0.1:9460";
    const elsewhere = {
      ...issuer.metadata,
      issuer: loopback,
      token_endpoint: "http://issuer.test/token",
    };
    const metadata = await discover(providerFetch(undefined, elsewhere).fetch, loopback);
    expect(metadata.issuer).toBe(loopback);
    const { fetch, sent } = providerFetch(tokenAnswerWith(issuer.sign(issuer.claims(nonce))));
    await expect(signInWithCode(fetch, metadata, client, callback)).rejects.toThrow(OidcError);
    expect(sent.token).toBeUndefined();
  });
});

describe("discovery and the authorization request", () => {
  test("the authorization address carries the code flow's parameters and the S256 challenge", async () => {
    const metadata = await discover(providerFetch().fetch, issuerUrl);
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
    const { fetch } = providerFetch(undefined, { ...issuer.metadata, issuer: "https://evil.test" });
    await expect(discover(fetch, issuerUrl)).rejects.toThrow(OidcError);
  });
});

describe("the code exchange (RFC 6749 §4.1.3, RFC 7636 §4.5)", () => {
  test("sends the code, the redirect URI, the verifier and the client's secret; gives the verified claims", async () => {
    const { fetch, sent } = providerFetch(tokenAnswerWith(issuer.sign(issuer.claims(nonce))));
    const { idToken, claims } = await signInWithCode(fetch, issuer.metadata, client, callback);
    expect(claims.email).toBe("Ana.Lima@Example.com");
    expect(idToken.split(".")).toHaveLength(3);
    expect(Object.fromEntries(sent.token ?? [])).toMatchObject({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: callback.redirectUri,
      code_verifier: callback.codeVerifier,
      client_id: clientId,
      client_secret: "secret",
    });
  });

  test("an RFC 6749 §5.2 error keeps its code", async () => {
    const { fetch } = providerFetch(async () => ({ status: 400, body: { error: "invalid_grant" } }));
    await expect(signInWithCode(fetch, issuer.metadata, client, callback)).rejects.toThrow("invalid_grant");
  });

  test("RFC 9207: a callback whose iss names another issuer is refused before the exchange", async () => {
    const { fetch, sent } = providerFetch(tokenAnswerWith(issuer.sign(issuer.claims(nonce))));
    await expect(
      signInWithCode(fetch, issuer.metadata, client, { ...callback, iss: "https://evil.test" }),
    ).rejects.toThrow(OidcError);
    expect(sent.token).toBeUndefined();
    const ours = providerFetch(tokenAnswerWith(issuer.sign(issuer.claims(nonce))));
    await expect(
      signInWithCode(ours.fetch, issuer.metadata, client, { ...callback, iss: issuerUrl }),
    ).resolves.toMatchObject({ claims: { email: "Ana.Lima@Example.com" } });
  });
});

describe("OIDC Core §3.1.3.7 ID token checks", () => {
  const refusedWith = async (idToken: Promise<string>) => {
    const { fetch } = providerFetch(tokenAnswerWith(idToken));
    await expect(signInWithCode(fetch, issuer.metadata, client, callback)).rejects.toThrow(OidcError);
  };

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
    await refusedWith(issuer.sign(issuer.claims(nonce, overrides)));
  });

  test("refused: signed by a key the issuer does not publish", async () => {
    await refusedWith(issuer.otherKey().then((key) => issuer.sign(issuer.claims(nonce), {}, key)));
  });

  test.each([
    [
      "alg none",
      (t: string) => t.replace(/^[^.]+/, btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")),
    ],
    ["two parts", (t: string) => t.split(".").slice(0, 2).join(".")],
    ["claims not JSON", (t: string) => t.replace(/\.[^.]+\./, ".bm90IGpzb24.")],
  ])("refused: %s", async (_name, tamper) => {
    await refusedWith(issuer.sign(issuer.claims(nonce)).then(tamper));
  });

  test("refused: no ID token in the answer", async () => {
    const { fetch } = providerFetch(async () => ({
      status: 200,
      body: { token_type: "Bearer", access_token: "at" },
    }));
    await expect(signInWithCode(fetch, issuer.metadata, client, callback)).rejects.toThrow(OidcError);
  });
});
