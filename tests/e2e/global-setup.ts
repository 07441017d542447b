import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "#bench/free-port.ts";
import { localVarArguments } from "#scripts/local-vars.mjs";
import { e2eStateFolder, executeLocalD1 } from "./local-d1";
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

/** Resolves once `child` has printed `line` (wrangler's "Ready on …"), or fails when it exits first. */
function waitForLine(child: ChildProcess, line: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`wrangler dev did not print "${line}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk;
      if (!seen.includes(line)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited with ${code}`));
    });
  });
}

/**
 * The tests' own local state: a fresh copy of what `npm start` serves (the catalogue and the
 * recognition store that scripts/ensure-catalog.mjs loaded), without its Cache API entries, so
 * every run starts from the same catalogue and leaves the person's local data as it was.
 */
function freshState(): void {
  rmSync(e2eStateFolder, { recursive: true, force: true });
  const source = path.resolve(import.meta.dirname, "../../.wrangler/state");
  cpSync(source, e2eStateFolder, {
    recursive: true,
    filter: (file) => path.relative(source, file) !== path.join("v3", "cache"),
  });
}

function collect(child: ChildProcess, onText: (text: string) => void): void {
  child.stdout?.on("data", (chunk) => onText(String(chunk)));
  child.stderr?.on("data", (chunk) => onText(String(chunk)));
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
// Its recognizer (decision 052) is a `wrangler dev` of its own, found through a dev registry of
// this run's own: two runtimes, as deployed, so a match never holds a page's thread (one local
// runtime runs every Worker it holds on one thread). Its web sign-in provider is a stand-in
// OpenID issuer on another free port (stand-in-issuer.ts).
export default async function setup(project: TestProject) {
  freshState();
  await forgetSignInLinks();
  const port = await freePort();
  const issuer = await startStandInIssuer(await freePort());
  const registry = mkdtempSync(path.join(tmpdir(), "tunewave-e2e-workers-"));
  const env = {
    ...process.env,
    NO_D1_WARNING: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_REGISTRY_PATH: registry,
  };
  let output = "";
  const recognizer = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      "recognizer/wrangler.toml",
      "--persist-to",
      e2eStateFolder,
      "--ip",
      "127.0.0.1",
      "--port",
      String(await freePort()),
      "--inspector-port",
      String(await freePort()),
      "--show-interactive-dev-session=false",
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true, env },
  );
  collect(recognizer, (text) => {
    output += `[recognizer] ${text}`;
  });
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      "wrangler.toml",
      "--persist-to",
      e2eStateFolder,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
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
      // host name; every page and origin check is at this one address.
      `SITE_ORIGIN:http://localhost:${port}`,
      ...localVarArguments(),
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true, env },
  );
  collect(child, (text) => {
    output += text;
  });
  const baseURL = `http://localhost:${port}`;
  try {
    await waitForLine(recognizer, "Ready on", 90_000);
    await waitUntilServing(`http://127.0.0.1:${port}/services/health`, child, 90_000);
  } catch (error) {
    console.error(output);
    throw error;
  }
  project.provide("baseURL", baseURL);
  return () => {
    // What the servers said during the run, for a failure to be read against (git-ignored).
    mkdirSync(testResultsFolder, { recursive: true });
    writeFileSync(path.join(testResultsFolder, "e2e-server.log"), output);
    for (const server of [child, recognizer]) if (server.pid) process.kill(-server.pid, "SIGTERM");
    issuer.server.close();
    rmSync(registry, { recursive: true, force: true });
  };
}
