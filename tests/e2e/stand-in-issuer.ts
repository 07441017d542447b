import { createServer, type Server } from "node:http";
import { s256Challenge } from "#rules/pkce.ts";
import { createIssuer } from "#tests/oidc-issuer.ts";

// A stand-in OpenID provider on 127.0.0.1 for the browser tests: discovery, JWKS, a consent page
// with Allow and Deny, and a token endpoint that checks the client, the code (once), the
// redirect_uri and the PKCE verifier as RFC 6749 / 7636 say, then signs an ID token.

export const standInClient = { id: "tunewave-web.e2e", secret: "e2e-client-secret" };

type Grant = { nonce: string; challenge: string; redirectUri: string; email: string };

export async function startStandInIssuer(port: number): Promise<{ url: string; server: Server }> {
  const url = `http://127.0.0.1:${port}`;
  const issuer = await createIssuer(url, standInClient.id);
  const grants = new Map<string, Grant>();
  let people = 0;
  const server = createServer(async (request, response) => {
    const address = new URL(request.url ?? "/", url);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (address.pathname === "/.well-known/openid-configuration") return json(200, issuer.metadata);
    if (address.pathname === "/oauth2/v3/certs") return json(200, issuer.jwks);
    if (address.pathname === "/o/oauth2/v2/auth") {
      const query = address.searchParams;
      const redirectUri = query.get("redirect_uri") ?? "";
      const state = query.get("state") ?? "";
      if (query.get("client_id") !== standInClient.id || query.get("code_challenge_method") !== "S256") {
        return json(400, { error: "invalid_request" });
      }
      const code = crypto.randomUUID();
      people += 1;
      grants.set(code, {
        nonce: query.get("nonce") ?? "",
        challenge: query.get("code_challenge") ?? "",
        redirectUri,
        email: `google.person${people}.${Date.now()}@example.com`,
      });
      const allow = `${redirectUri}?${new URLSearchParams({ code, state })}`;
      const deny = `${redirectUri}?${new URLSearchParams({ error: "access_denied", state })}`;
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return response.end(
        `<!doctype html><title>Stand-in provider</title><h1>Allow Tunewave?</h1><a href="${allow}">Allow</a> <a href="${deny}">Deny</a>`,
      );
    }
    if (address.pathname === "/token" && request.method === "POST") {
      let raw = "";
      for await (const chunk of request) raw += chunk;
      const form = new URLSearchParams(raw);
      const grant = grants.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      grants.delete(form.get("code") ?? "");
      if (form.get("client_id") !== standInClient.id || form.get("client_secret") !== standInClient.secret) {
        return json(401, { error: "invalid_client" });
      }
      if (!grant || form.get("redirect_uri") !== grant.redirectUri)
        return json(400, { error: "invalid_grant" });
      if (!verifier || (await s256Challenge(verifier)) !== grant.challenge) {
        return json(400, { error: "invalid_grant" });
      }
      const idToken = await issuer.sign(issuer.claims(grant.nonce, { email: grant.email }));
      return json(200, { id_token: idToken, token_type: "Bearer", access_token: crypto.randomUUID() });
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url, server };
}
