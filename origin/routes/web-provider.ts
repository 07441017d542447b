import { claimProviderToken, isClosedAccount, startSession } from "#origin/accounts.ts";
import type { OriginApp, OriginContext, OriginEnv } from "#origin/env.ts";
import { invalidParam, jsonBody, noStoreJson, parseParams } from "#origin/http.ts";
import {
  authorizationUrl,
  discover,
  type Fetch,
  OidcError,
  type ProviderMetadata,
  signInWithCode,
} from "#origin/oidc.ts";
import {
  sessionCookie,
  type WebProviderRefusal,
  webProviderAuthorizeSchema,
  webProviderCallbackPath,
  webProviderSignInSchema,
} from "#rules/account.ts";
import { secureCookiesOf, siteOriginOf } from "#rules/env.ts";

// The web sign-in provider (spec 002 §7, decision 017): Google through OpenID Connect's code flow with
// PKCE. The account service holds the client secret, exchanges the code and verifies the ID token;
// the site only carries the browser there and back (app/routes/($lang).login.google.*).

const defaultIssuer = "https://accounts.google.com";

type WebProvider = { issuer: string; clientId: string; clientSecret: string };

/** The configured client, or undefined: without credentials the provider is not available. */
export function webProviderOf(env: OriginEnv): WebProvider | undefined {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return undefined;
  return {
    issuer: env.OIDC_ISSUER || defaultIssuer,
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
  };
}

/** Discovery answers change rarely: kept per isolate for an hour, per issuer. */
const metadataLifetimeMs = 60 * 60 * 1000;
const discovered = new Map<string, { metadata: ProviderMetadata; until: number }>();

const outbound: Fetch = (url, init) => fetch(url, init);

/**
 * Kept per isolate, the metadata object also keeps oauth4webapi's cache of the issuer's JWKS
 * (it caches per metadata object), so keys are fetched about once an hour, or when a token names
 * a key not seen yet.
 */
async function metadataOf(issuer: string): Promise<ProviderMetadata> {
  const known = discovered.get(issuer);
  if (known && known.until > Date.now()) return known.metadata;
  const metadata = await discover(outbound, issuer);
  discovered.set(issuer, { metadata, until: Date.now() + metadataLifetimeMs });
  return metadata;
}

const refusal = (reason: WebProviderRefusal, status: number) =>
  noStoreJson({ error: "unauthorized", reason }, status);

/** The redirect_uri must be this site's callback: a code is never sent anywhere else. */
function checkedRedirectUri(c: OriginContext, redirectUri: string): string {
  const url = new URL(redirectUri);
  if (url.origin !== siteOriginOf(c.env) || !webProviderCallbackPath.test(url.pathname) || url.search) {
    throw invalidParam("redirectUri must be this site's /login/google/callback");
  }
  return url.href;
}

export function registerWebProvider(origin: OriginApp) {
  /** Which providers can sign in here. */
  origin.get("/account/providers", (c) =>
    noStoreJson({ email: true, google: webProviderOf(c.env) !== undefined }, 200),
  );

  /** The provider's authorization address for this browser's state, nonce and S256 challenge. */
  origin.post("/account/login/google/authorize", async (c) => {
    const provider = webProviderOf(c.env);
    const request = parseParams(webProviderAuthorizeSchema, await jsonBody(c));
    const redirectUri = checkedRedirectUri(c, request.redirectUri);
    if (!provider) return refusal("unavailable", 404);
    try {
      const metadata = await metadataOf(provider.issuer);
      return noStoreJson(
        {
          authorizationUrl: authorizationUrl(metadata, {
            ...request,
            redirectUri,
            clientId: provider.clientId,
          }),
        },
        200,
      );
    } catch (error) {
      console.error("web provider: discovery failed:", error);
      return noStoreJson({ error: "serviceerror", message: "The sign-in provider did not answer" }, 502);
    }
  });

  /** The code that came back: exchanged with its verifier, the ID token checked, a session made. */
  origin.post("/account/login/google", async (c) => {
    const provider = webProviderOf(c.env);
    const request = parseParams(webProviderSignInSchema, await jsonBody(c));
    const redirectUri = checkedRedirectUri(c, request.redirectUri);
    if (!provider) return refusal("unavailable", 404);
    const now = Date.now();
    try {
      const metadata = await metadataOf(provider.issuer);
      const { idToken, claims } = await signInWithCode(outbound, metadata, provider, {
        code: request.code,
        iss: request.iss,
        redirectUri,
        codeVerifier: request.codeVerifier,
        nonce: request.nonce,
      });
      const email = claims.email.toLowerCase();
      if (await isClosedAccount(c.var.db, email)) return refusal("closed", 404);
      if (!(await claimProviderToken(c.var.db, idToken, now))) return refusal("replayed", 409);
      const { session, state } = await startSession(c.var.db, email, "google", now);
      return noStoreJson(state, 200, [sessionCookie(session, secureCookiesOf(c.env))]);
    } catch (error) {
      if (!(error instanceof OidcError)) throw error;
      console.error(`web provider: ${error.reason}: ${error.message}`);
      return refusal("refused", 401);
    }
  });
}
