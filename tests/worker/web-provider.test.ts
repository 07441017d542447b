import "#tests/all-languages.ts";
import { env, fetchMock, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { s256Challenge } from "#rules/pkce.ts";
import { createIssuer, type StandInIssuer } from "#tests/oidc-issuer.ts";
import { type Browser, browser, site } from "./browser-jar";

// Sign-in with the web provider (Google, OpenID Connect code flow with PKCE) end to end in
// workerd: the site's start and callback, the account service's exchange and ID-token checks,
// against a stand-in issuer served by fetchMock at https://issuer.test.

const issuerUrl = env.OIDC_ISSUER ?? "";
const clientId = env.GOOGLE_CLIENT_ID ?? "";
let issuer: StandInIssuer;
const json = { "content-type": "application/json" };

beforeAll(async () => {
  issuer = await createIssuer(issuerUrl, clientId);
  fetchMock.activate();
  fetchMock.disableNetConnect();
  const provider = fetchMock.get(issuerUrl);
  provider
    .intercept({ path: "/.well-known/openid-configuration" })
    .reply(200, JSON.stringify(issuer.metadata), { headers: json })
    .persist();
  provider
    .intercept({ path: "/oauth2/v3/certs" })
    .reply(200, JSON.stringify(issuer.jwks), { headers: json })
    .persist();
});

/** The provider's token endpoint answers once with `answer`; what the account service sent is kept. */
function tokenEndpointAnswers(answer: { status: number; body: unknown }) {
  const sent: { body?: URLSearchParams } = {};
  fetchMock
    .get(issuerUrl)
    .intercept({ path: "/token", method: "POST" })
    .reply((request) => {
      sent.body = new URLSearchParams(String(request.body));
      return {
        statusCode: answer.status,
        data: JSON.stringify(answer.body),
        responseOptions: { headers: json },
      };
    });
  return sent;
}

/** Starts a sign-in as a browser: the provider's authorization address it is sent to. */
async function start(who: Browser, query = "?redirect=%2Fcharts"): Promise<URL> {
  const answer = await who.fetch(`/login/google/start${query}`);
  expect(answer.status).toBe(302);
  expect(who.jar.has("tw_oidc")).toBe(true);
  return new URL(answer.headers.get("location") ?? "");
}

describe("leaving for the provider", () => {
  test("the authorization address: code flow, this site's callback, a fresh state, nonce and S256 challenge", async () => {
    const first = await start(browser());
    const second = await start(browser());
    expect(first.origin + first.pathname).toBe(issuer.metadata.authorization_endpoint);
    expect(Object.fromEntries(first.searchParams)).toMatchObject({
      response_type: "code",
      client_id: clientId,
      redirect_uri: "https://tunewave.test/login/google/callback",
      scope: "openid email",
      code_challenge_method: "S256",
    });
    for (const name of ["state", "nonce", "code_challenge"]) {
      expect(first.searchParams.get(name)).toMatch(/^[\w-]{43}$/);
      expect(first.searchParams.get(name)).not.toBe(second.searchParams.get(name));
    }
  });

  test("the redirect URI is on SITE_ORIGIN, whatever host the request names (decision 030)", async () => {
    const answer = await SELF.fetch("https://other.test/login/google/start", {
      headers: { host: "other.test" },
      redirect: "manual",
    });
    expect(answer.status).toBe(302);
    const url = new URL(answer.headers.get("location") ?? "");
    expect(url.searchParams.get("redirect_uri")).toBe("https://tunewave.test/login/google/callback");
  });

  test("a language's callback is its own; the consent screen offers the provider", async () => {
    const who = browser();
    const url = new URL((await who.fetch("/de/login/google/start")).headers.get("location") ?? "");
    expect(url.searchParams.get("redirect_uri")).toBe("https://tunewave.test/de/login/google/callback");
    const consent = await (await browser().fetch("/login/google")).text();
    expect(consent).toContain('href="/login/google/start"');
    const login = await (await browser().fetch("/login")).text();
    const { t } = serverStrings("en");
    expect(login).toContain(t("account:login.google"));
  });
});

describe("coming back", () => {
  test("a good code signs in as the verified address, with the verifier of the challenge", async () => {
    const who = browser();
    const authorization = await start(who);
    const nonce = authorization.searchParams.get("nonce") ?? "";
    const sent = tokenEndpointAnswers({
      status: 200,
      body: { id_token: await issuer.sign(issuer.claims(nonce)), token_type: "Bearer", access_token: "at" },
    });
    const back = await who.fetch(
      `/login/google/callback?code=good-code&state=${authorization.searchParams.get("state")}`,
    );
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/charts");
    expect(who.jar.has("tw_session")).toBe(true);
    expect(who.jar.has("tw_oidc")).toBe(false);
    // RFC 7636 §4.5: the verifier sent is the one whose S256 the browser was sent with.
    expect(sent.body?.get("grant_type")).toBe("authorization_code");
    expect(sent.body?.get("code")).toBe("good-code");
    expect(sent.body?.get("redirect_uri")).toBe("https://tunewave.test/login/google/callback");
    expect(await s256Challenge(sent.body?.get("code_verifier") ?? "")).toBe(
      authorization.searchParams.get("code_challenge"),
    );
    const status = await who.fetch("/secure/status");
    expect(await status.json()).toMatchObject({
      loggedin: true,
      method: "google",
      authenticationType: "FIREBASE",
      email: "ana.lima@example.com",
    });
  });

  test("in the login popup the callback page tells its opener instead of redirecting", async () => {
    const who = browser();
    const authorization = await start(who, "?popup=1");
    tokenEndpointAnswers({
      status: 200,
      body: {
        id_token: await issuer.sign(
          issuer.claims(authorization.searchParams.get("nonce") ?? "", { email: "popup@example.com" }),
        ),
        token_type: "Bearer",
        access_token: "at",
      },
    });
    const back = await who.fetch(
      `/login/google/callback?code=c&state=${authorization.searchParams.get("state")}`,
    );
    expect(back.status).toBe(200);
    expect(back.headers.get("cache-control")).toContain("no-store");
    const { t } = serverStrings("en");
    expect(await back.text()).toContain(t("account:login.signedIn"));
    expect(who.jar.has("tw_session")).toBe(true);
  });

  test.each([
    [
      "a tampered state",
      (state: string) => `code=c&state=${state.slice(0, -1)}x`,
      400,
      "google.invalidState",
    ],
    ["no state", () => "code=c", 400, "google.invalidState"],
    [
      "the person refused (access_denied)",
      (state: string) => `error=access_denied&state=${state}`,
      403,
      "google.declined",
    ],
    ["another provider error", (state: string) => `error=server_error&state=${state}`, 502, "google.failed"],
  ])("%s: its own screen, no session", async (_name, query, status, key) => {
    const who = browser();
    const authorization = await start(who);
    const back = await who.fetch(
      `/login/google/callback?${query(authorization.searchParams.get("state") ?? "")}`,
    );
    expect(back.status).toBe(status);
    const { t } = serverStrings("en");
    expect(await back.text()).toContain(t(`account:${key}`).replaceAll("'", "&#x27;"));
    expect(who.jar.has("tw_session")).toBe(false);
    expect(who.jar.has("tw_oidc")).toBe(false);
  });

  test("RFC 9207: a callback whose iss names another issuer is refused, no session", async () => {
    const who = browser();
    const authorization = await start(who);
    const back = await who.fetch(
      `/login/google/callback?code=c&state=${authorization.searchParams.get("state")}&iss=${encodeURIComponent("https://evil.test")}`,
    );
    expect(back.status).toBe(401);
    expect(who.jar.has("tw_session")).toBe(false);
  });

  test.each(["//evil.test/charts", "https://evil.test/", "/\\evil.test", "/%2F%2Fevil.test"])(
    "a return path written into the transaction cookie (%s) is checked again: home instead",
    async (planted) => {
      const who = browser();
      const authorization = await start(who);
      // The cookie is the browser's own to rewrite: base64 JSON, as rules/account.ts writes it.
      const cookie = decodeURIComponent(who.jar.get("tw_oidc") ?? "");
      const transaction = { ...JSON.parse(atob(cookie)), redirect: planted };
      who.jar.set("tw_oidc", encodeURIComponent(btoa(JSON.stringify(transaction)).replaceAll("=", "")));
      tokenEndpointAnswers({
        status: 200,
        body: {
          id_token: await issuer.sign(
            issuer.claims(authorization.searchParams.get("nonce") ?? "", { email: "planted@example.com" }),
          ),
          token_type: "Bearer",
          access_token: "at",
        },
      });
      const back = await who.fetch(
        `/login/google/callback?code=c&state=${authorization.searchParams.get("state")}`,
      );
      expect(back.status).toBe(303);
      expect(back.headers.get("location")).toBe("/");
      expect(who.jar.has("tw_session")).toBe(true);
    },
  );

  test("a callback in another browser (no transaction cookie) is an invalid state", async () => {
    const authorization = await start(browser());
    const other = browser();
    const back = await other.fetch(
      `/login/google/callback?code=c&state=${authorization.searchParams.get("state")}`,
    );
    expect(back.status).toBe(400);
    expect(other.jar.has("tw_session")).toBe(false);
  });

  test.each([
    [
      "the provider refuses the code (invalid_grant)",
      async () => ({ status: 400, body: { error: "invalid_grant" } }),
    ],
    [
      "an ID token for another nonce",
      async () => ({
        status: 200,
        body: {
          id_token: await issuer.sign(issuer.claims("Z".repeat(43))),
          token_type: "Bearer",
          access_token: "at",
        },
      }),
    ],
    [
      "an ID token signed by another key",
      async (nonce: string) => ({
        status: 200,
        body: {
          id_token: await issuer.sign(issuer.claims(nonce), {}, await issuer.otherKey()),
          token_type: "Bearer",
          access_token: "at",
        },
      }),
    ],
    [
      "an unverified address",
      async (nonce: string) => ({
        status: 200,
        body: {
          id_token: await issuer.sign(issuer.claims(nonce, { email_verified: false })),
          token_type: "Bearer",
          access_token: "at",
        },
      }),
    ],
  ])("%s: refused with 401, no session", async (_name, answer) => {
    const who = browser();
    const authorization = await start(who);
    tokenEndpointAnswers(await answer(authorization.searchParams.get("nonce") ?? ""));
    const back = await who.fetch(
      `/login/google/callback?code=c&state=${authorization.searchParams.get("state")}`,
    );
    expect(back.status).toBe(401);
    expect(who.jar.has("tw_session")).toBe(false);
  });

  test("one ID token signs in once: the same token again is refused", async () => {
    const nonce = "R".repeat(43);
    const idToken = await issuer.sign(issuer.claims(nonce, { email: "replay@example.com" }));
    const body = {
      redirectUri: "https://tunewave.test/login/google/callback",
      code: "c",
      codeVerifier: "V".repeat(43),
      nonce,
    };
    const ask = () => {
      tokenEndpointAnswers({
        status: 200,
        body: { id_token: idToken, token_type: "Bearer", access_token: "at" },
      });
      return browser().fetch("/services/account/login/google", {
        method: "POST",
        headers: { "content-type": "application/json", origin: site },
        body: JSON.stringify(body),
      });
    };
    expect((await ask()).status).toBe(200);
    const again = await ask();
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ reason: "replayed" });
  });

  test("the service sends a code only to this site's callback", async () => {
    for (const redirectUri of [
      "https://evil.test/login/google/callback",
      "https://tunewave.test/login",
      "https://tunewave.test/login/google/callback?x=1",
    ]) {
      const answer = await browser().fetch("/services/account/login/google/authorize", {
        method: "POST",
        headers: { "content-type": "application/json", origin: site },
        body: JSON.stringify({
          redirectUri,
          state: "s".repeat(43),
          nonce: "n".repeat(43),
          codeChallenge: "c".repeat(43),
        }),
      });
      expect(answer.status).toBe(400);
    }
  });

  test("a closed account does not sign in with the provider either", async () => {
    await env.DB.prepare(
      "INSERT INTO users (id, email, created_at, closed_at) VALUES ('closed-1', 'closed@example.com', 1, 2)",
    ).run();
    const who = browser();
    const authorization = await start(who);
    tokenEndpointAnswers({
      status: 200,
      body: {
        id_token: await issuer.sign(
          issuer.claims(authorization.searchParams.get("nonce") ?? "", { email: "closed@example.com" }),
        ),
        token_type: "Bearer",
        access_token: "at",
      },
    });
    const back = await who.fetch(
      `/login/google/callback?code=c&state=${authorization.searchParams.get("state")}`,
    );
    expect(back.status).toBe(404);
    expect(who.jar.has("tw_session")).toBe(false);
  });
});
