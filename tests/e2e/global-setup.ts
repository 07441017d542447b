import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../../bench/free-port";
import { localVarArguments } from "../../scripts/local-vars.mjs";
import { executeLocalD1 } from "./local-d1";
import { testResultsFolder } from "./screenshot";
import { standInClient, startStandInIssuer } from "./stand-in-issuer";

/**
 * Where the edge places every browser test's request: Miniflare's placeholder `request.cf`
 * (Austin, US), always, rather than the machine's own place fetched where a network allows it
 * (CLOUDFLARE_CF_FETCH_ENABLED=false below). Identifications count in the edge's country.
 */
export const edgeCountry = "US";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer ${url} within ${timeoutMs} ms`);
}

/**
 * The browser tests sign in and redeem offers from one address (127.0.0.1), and the account
 * service allows 20 sign-in links per client an hour and 3 offer codes per client a day: a second
 * run would be refused by the first run's. Each run starts with none on record in the local
 * database (links and per-client offer counts only; accounts, sessions, tags and codes stay).
 */
function forgetSignInLinks(): Promise<void> {
  return executeLocalD1(
    "DELETE FROM email_logins; DELETE FROM offer_client_claims",
    "clear the local sign-in links",
  );
}

// Starts the built site with `wrangler dev` on a free port for the browser tests, and stops it.
// Its web sign-in provider is a stand-in OpenID issuer on another free port (stand-in-issuer.ts).
export default async function setup(project: TestProject) {
  await forgetSignInLinks();
  const port = await freePort();
  const issuer = await startStandInIssuer(await freePort());
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      // The site and its recognizer (decision 052), one local runtime over the same local state.
      "--config",
      "wrangler.toml",
      "--config",
      "recognizer/wrangler.toml",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      // /__scheduled runs the worker's Cron Trigger (the charts' recompute) when a test asks.
      "--test-scheduled",
      "--var",
      `GOOGLE_CLIENT_ID:${standInClient.id}`,
      "--var",
      `GOOGLE_CLIENT_SECRET:${standInClient.secret}`,
      "--var",
      `OIDC_ISSUER:${issuer.url}`,
      "--var",
      // localhost, not 127.0.0.1: the site's origin is the WebAuthn origin, whose RP ID must be a
      // host name; every page and origin check is at this one address (issue 41).
      `SITE_ORIGIN:http://localhost:${port}`,
      ...localVarArguments(),
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: { ...process.env, NO_D1_WARNING: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const baseURL = `http://localhost:${port}`;
  try {
    await waitUntilServing(`http://127.0.0.1:${port}/services/health`, child, 90_000);
  } catch (error) {
    console.error(output);
    throw error;
  }
  project.provide("baseURL", baseURL);
  return () => {
    // What the server said during the run, for a failure to be read against (git-ignored).
    mkdirSync(testResultsFolder, { recursive: true });
    writeFileSync(path.join(testResultsFolder, "e2e-server.log"), output);
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    issuer.server.close();
  };
}
