import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Runs SQL on the local D1 database the browser tests' site runs on (wrangler's local state), as
 * `wrangler d1 execute --local`; `what` says what it was for when it fails.
 *
 * Asynchronous on purpose: wrangler takes many seconds on a busy machine, and a synchronous spawn
 * stopped this process's event loop for all of them, so a kept-alive connection to the site that
 * the server closed meanwhile was still taken for open, and the next fetch on it failed with
 * "other side closed".
 */
export async function executeLocalD1(sql: string, what: string): Promise<void> {
  try {
    await run("npx", ["wrangler", "d1", "execute", "tunewave-catalog", "--local", "--command", sql], {
      encoding: "utf8",
      env: { ...process.env, NO_D1_WARNING: "true" },
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`could not ${what}:\n${stderr}`);
  }
}
