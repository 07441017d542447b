import "#tests/all-languages.ts";
import { env, SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { sha256 } from "#origin/accounts.ts";
import {
  accessTokenLifetimeSeconds,
  authorizePath,
  callbackPath,
  defaultClientId,
  mockActivatePath,
  revokePath,
  tokenPath,
} from "#rules/streaming.ts";
import { browser, site } from "./browser-jar";

// The streaming-service connection inside workerd: the embedded origin's authorization server
// (consent page, codes, token and revocation endpoints) held to RFC 6749 and RFC 7636, and the
// site's pages of the flow. The PKCE pair is RFC 7636 Appendix B's own example.

/** RFC 7636 Appendix B: this verifier's S256 challenge is this value. */
const rfc7636 = {
  verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
  challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
};
const redirectUri = `${site}${callbackPath}`;
const en = serverStrings("en");

function authorizationQuery(overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const entries = Object.entries({
    client_id: defaultClientId,
    response_type: "code",
    scope: "music",
    redirect_uri: redirectUri,
    code_challenge: rfc7636.challenge,
    code_challenge_method: "S256",
    state: "track_4b0c2a8e",
    ...overrides,
  }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return new URLSearchParams(entries);
}

/** A person on the consent page presses Allow (or Deny): where the popup goes next. */
async function decide(decision: "allow" | "deny", query = authorizationQuery()): Promise<URL> {
  const who = browser();
  const page = await who.fetch(`${mockActivatePath}?${query}`);
  expect(page.status).toBe(200);
  const answer = await who.fetch(`${mockActivatePath}?${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
    body: new URLSearchParams([...query, ["decision", decision]]),
  });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get("location") ?? "");
}

async function codeFromConsent(): Promise<string> {
  const back = await decide("allow");
  expect(back.origin + back.pathname).toBe(redirectUri);
  expect(back.searchParams.get("state")).toBe("track_4b0c2a8e");
  return back.searchParams.get("code") ?? "";
}

function tokenRequest(params: Record<string, string>, contentType = "application/x-www-form-urlencoded") {
  return browser().fetch(tokenPath, {
    method: "POST",
    headers: { "content-type": contentType },
    body: new URLSearchParams(params),
  });
}

const exchange = (code: string, overrides: Record<string, string> = {}) =>
  tokenRequest({
    grant_type: "authorization_code",
    code,
    code_verifier: rfc7636.verifier,
    redirect_uri: redirectUri,
    client_id: defaultClientId,
    ...overrides,
  });

async function expectRefusal(answer: Response, error: string) {
  expect(answer.status).toBe(400);
  expect(answer.headers.get("cache-control")).toContain("no-store");
  expect(answer.headers.get("pragma")).toBe("no-cache");
  expect(await answer.json()).toMatchObject({ error });
}

describe("the token endpoint (RFC 6749 §4.1.3–§5.2, RFC 7636 §4.5–§4.6)", () => {
  test("the RFC 7636 example pair: Allow gives a code; the verifier exchanges it for a bearer token", async () => {
    const code = await codeFromConsent();
    const answer = await exchange(code);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    expect(answer.headers.get("pragma")).toBe("no-cache");
    const token = (await answer.json()) as Record<string, unknown>;
    expect(token).toMatchObject({
      token_type: "Bearer",
      expires_in: accessTokenLifetimeSeconds,
      scope: "music",
    });
    expect(token.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only digests are kept: the database holds neither the code nor the token.
    const stored = await env.DB.prepare("SELECT token_hash FROM oauth_tokens WHERE token_hash = ?")
      .bind(await sha256(String(token.access_token)))
      .first();
    expect(stored).not.toBeNull();
    expect(
      await env.DB.prepare("SELECT 1 FROM oauth_codes WHERE code_hash = ?").bind(code).first(),
    ).toBeNull();
  });

  test("a verifier that does not answer the challenge: invalid_grant", async () => {
    const code = await codeFromConsent();
    await expectRefusal(await exchange(code, { code_verifier: "x".repeat(43) }), "invalid_grant");
  });

  test("a code used twice: invalid_grant, and the token the first use gave is revoked", async () => {
    const code = await codeFromConsent();
    const first = (await (await exchange(code)).json()) as { access_token: string };
    await expectRefusal(await exchange(code), "invalid_grant");
    const row = await env.DB.prepare("SELECT revoked_at FROM oauth_tokens WHERE token_hash = ?")
      .bind(await sha256(first.access_token))
      .first<{ revoked_at: number | null }>();
    expect(row?.revoked_at).not.toBeNull();
  });

  test("a code past its lifetime: invalid_grant", async () => {
    const code = "expired-code-of-a-test-000000000000000000000";
    await env.DB.prepare(
      `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, code_challenge, scope, expires_at, created_at)
       VALUES (?, ?, ?, ?, 'music', ?, ?)`,
    )
      .bind(
        await sha256(code),
        defaultClientId,
        redirectUri,
        rfc7636.challenge,
        Date.now() - 1,
        Date.now() - 60_001,
      )
      .run();
    await expectRefusal(await exchange(code), "invalid_grant");
  });

  test("a redirect_uri other than the authorization request's: invalid_grant", async () => {
    const code = await codeFromConsent();
    await expectRefusal(await exchange(code, { redirect_uri: `${site}/elsewhere` }), "invalid_grant");
  });

  test("an unknown code: invalid_grant", async () => {
    await expectRefusal(await exchange("no-such-code"), "invalid_grant");
  });

  test.each([
    ["no grant_type", { grant_type: "" }, "invalid_request"],
    ["another grant type", { grant_type: "client_credentials" }, "unsupported_grant_type"],
    ["no code", { code: "" }, "invalid_request"],
    ["no code_verifier", { code_verifier: "" }, "invalid_request"],
    ["a code_verifier shorter than 43 characters", { code_verifier: "short" }, "invalid_request"],
    [
      "a code_verifier with characters outside the unreserved set",
      { code_verifier: `${"a".repeat(42)}+` },
      "invalid_request",
    ],
    ["no redirect_uri", { redirect_uri: "" }, "invalid_request"],
    ["no client_id", { client_id: "" }, "invalid_request"],
    ["an unknown client", { client_id: "someone-else" }, "invalid_client"],
  ])("%s: %s", async (_, overrides, error) => {
    const params: Record<string, string> = {
      grant_type: "authorization_code",
      code: "some-code",
      code_verifier: rfc7636.verifier,
      redirect_uri: redirectUri,
      client_id: defaultClientId,
      ...overrides,
    };
    for (const [name, value] of Object.entries(params)) if (value === "") delete params[name];
    await expectRefusal(await tokenRequest(params), error);
  });

  test("a body that is not form-encoded, or names a parameter twice: invalid_request", async () => {
    const json = await browser().fetch(tokenPath, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" }),
    });
    await expectRefusal(json, "invalid_request");
    const twice = await browser().fetch(tokenPath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=a&code=b",
    });
    await expectRefusal(twice, "invalid_request");
  });

  test("revocation (RFC 7009): the token is revoked, and an unknown one answers the same", async () => {
    const code = await codeFromConsent();
    const { access_token } = (await (await exchange(code)).json()) as { access_token: string };
    const revoke = (token: string) =>
      browser().fetch(revokePath, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, client_id: defaultClientId }),
      });
    expect((await revoke(access_token)).status).toBe(200);
    expect((await revoke("never-issued")).status).toBe(200);
    const row = await env.DB.prepare("SELECT revoked_at FROM oauth_tokens WHERE token_hash = ?")
      .bind(await sha256(access_token))
      .first<{ revoked_at: number | null }>();
    expect(row?.revoked_at).not.toBeNull();
  });
});

describe("the consent page (spec 002 §2 mockactivate; RFC 6749 §4.1.2.1, RFC 7636 §4.4.1)", () => {
  test("asks with Allow and Deny, says it stands in, and cannot be framed", async () => {
    const page = await browser().fetch(`${mockActivatePath}?${authorizationQuery()}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cache-control")).toContain("no-store");
    const html = await page.text();
    expect(html).toContain(en.t("connect:consent.testMode"));
    expect(html).toContain(en.t("connect:consent.allow"));
    expect(html).toContain(en.t("connect:consent.deny"));
    expect(html).toContain('name="robots" content="noindex"');
  });

  test("in German and Japanese, with the language's own words", async () => {
    for (const lang of ["de", "ja"] as const) {
      const page = await browser().fetch(`/${lang}${mockActivatePath}?${authorizationQuery()}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(serverStrings(lang).t("connect:consent.allow"));
    }
  });

  test("Deny sends the popup back with access_denied and the state", async () => {
    const back = await decide("deny");
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("track_4b0c2a8e");
    expect(back.searchParams.has("code")).toBe(false);
  });

  test.each([
    ["no client_id", { client_id: undefined }],
    ["an unknown client", { client_id: "someone-else" }],
    ["no redirect_uri", { redirect_uri: undefined }],
    ["a redirect_uri that is not registered", { redirect_uri: "https://attacker.example/callback" }],
  ])("%s: a 400 page that says so, and no redirect anywhere", async (_, overrides) => {
    const page = await browser().fetch(`${mockActivatePath}?${authorizationQuery(overrides)}`);
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(await page.text()).toContain(en.t("connect:consent.invalidTitle"));
  });

  test.each([
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
    ["no code_challenge", { code_challenge: undefined }, "invalid_request"],
    ["no code_challenge_method (plain)", { code_challenge_method: undefined }, "invalid_request"],
    ["code_challenge_method plain", { code_challenge_method: "plain" }, "invalid_request"],
    ["a challenge that is not S256-shaped", { code_challenge: "too-short" }, "invalid_request"],
    ["another scope", { scope: "library" }, "invalid_scope"],
  ])("%s: back to the client with %s and the state", async (_, overrides, error) => {
    const page = await browser().fetch(`${mockActivatePath}?${authorizationQuery(overrides)}`);
    expect(page.status).toBe(303);
    const back = new URL(page.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get("error")).toBe(error);
    expect(back.searchParams.get("state")).toBe("track_4b0c2a8e");
  });

  test("another site's form posting Allow changes nothing", async () => {
    const query = authorizationQuery();
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_codes").first<{ n: number }>();
    const answer = await browser().fetch(`${mockActivatePath}?${query}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://attacker.example",
        "sec-fetch-site": "cross-site",
      },
      body: new URLSearchParams([...query, ["decision", "allow"]]),
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("location")).toBeNull();
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_codes").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  test("no state: back to the client with invalid_request, and no code", async () => {
    const page = await browser().fetch(`${mockActivatePath}?${authorizationQuery({ state: undefined })}`);
    expect(page.status).toBe(303);
    const back = new URL(page.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.has("code")).toBe(false);
  });

  test("a direct Allow to the authorization call, with no consent page's session, gets no code", async () => {
    const codes = () => env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_codes").first<{ n: number }>();
    const before = await codes();
    for (const consent of [undefined, "A".repeat(43)]) {
      const answer = await browser().fetch(authorizePath, {
        method: "POST",
        headers: { "content-type": "application/json", origin: site },
        body: JSON.stringify({ ...Object.fromEntries(authorizationQuery()), decision: "allow", consent }),
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ error: "access_denied" });
      expect(body.redirect).toBeUndefined();
    }
    expect((await codes())?.n).toBe(before?.n);
  });

  test("an Allow for a request other than the one the page showed this browser gets no code", async () => {
    const who = browser();
    const shown = authorizationQuery({ state: "track_shown" });
    expect((await who.fetch(`${mockActivatePath}?${shown}`)).status).toBe(200);
    expect(who.jar.has("tw_consent")).toBe(true);
    const other = authorizationQuery({ state: "track_other" });
    const answer = await who.fetch(`${mockActivatePath}?${other}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
      body: new URLSearchParams([...other, ["decision", "allow"]]),
    });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location") ?? "", site);
    expect(back.pathname).toBe(mockActivatePath);
    expect(back.searchParams.has("code")).toBe(false);
  });

  test("one showing, one code: the consent ticket is spent by its Allow", async () => {
    const who = browser();
    const query = authorizationQuery();
    await who.fetch(`${mockActivatePath}?${query}`);
    const ticket = who.jar.get("tw_consent");
    const allow = () =>
      who.fetch(`${mockActivatePath}?${query}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
        body: new URLSearchParams([...query, ["decision", "allow"]]),
      });
    expect(new URL((await allow()).headers.get("location") ?? "").searchParams.has("code")).toBe(true);
    who.jar.set("tw_consent", ticket ?? "");
    const again = new URL((await allow()).headers.get("location") ?? "", site);
    expect(again.pathname).toBe(mockActivatePath);
    expect(again.searchParams.has("code")).toBe(false);
  });

  test("the registered redirect URI is on SITE_ORIGIN, not on the host a request names (decision 030)", async () => {
    const ask = (host: string, redirect: string) =>
      SELF.fetch(`https://${host}${authorizePath}?${authorizationQuery({ redirect_uri: redirect })}`, {
        headers: { host },
      });
    const elsewhere = await ask("evil.test", `https://evil.test${callbackPath}`);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ error: "invalid_request" });
    expect((await ask("other.test", redirectUri)).status).toBe(200);
  });

  test("the authorization call itself refuses a decision that is not sent as JSON (415)", async () => {
    const answer = await browser().fetch(authorizePath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([...authorizationQuery(), ["decision", "allow"]]),
    });
    expect(answer.status).toBe(415);
  });
});

describe("the callback page (spec 002 §2 /applemusic/signin/complete)", () => {
  test("renders in every language it is asked in, private and unindexed, with no AMP form", async () => {
    for (const lang of ["en", "fr", "zh-tw"] as const) {
      const prefix = lang === "en" ? "" : `/${lang}`;
      const page = await browser().fetch(`${prefix}${callbackPath}?code=abc&state=track_1`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(serverStrings(lang).t("connect:callback.working"));
      expect(html).toContain('name="referrer" content="no-referrer"');
      // The code is for the browser: the server renders nothing of it.
      expect(html).not.toContain("code=abc");
    }
    expect((await browser().fetch(`/amp${callbackPath}`)).status).toBe(404);
  });
});
