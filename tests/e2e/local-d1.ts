import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { testResultsFolder } from "./screenshot";

const run = promisify(execFile);

/**
 * The browser tests' own local state (wrangler's `--persist-to`): a copy of the one `npm start`
 * serves, made afresh by tests/e2e/global-setup.ts, so that the tests' accounts and writes never
 * land in the person's local data and a running `npm start` never holds the tests' database.
 */
export const e2eStateFolder = path.join(testResultsFolder, "e2e-state");

/**
 * Runs SQL on the local D1 database the browser tests' site runs on (`e2eStateFolder`), as
 * `wrangler d1 execute --local`; `what` says what it was for when it fails.
 *
 * Asynchronous on purpose: wrangler takes many seconds on a busy machine, and a synchronous spawn
 * stopped this process's event loop for all of them, so a kept-alive connection to the site that
 * the server closed meanwhile was still taken for open, and the next fetch on it failed with
 * "other side closed".
 */
export async function executeLocalD1(sql: string, what: string): Promise<void> {
  try {
    await run(
      "npx",
      [
        "wrangler",
        "d1",
        "execute",
        "tunewave-catalog",
        "--local",
        "--persist-to",
        e2eStateFolder,
        "--command",
        sql,
      ],
      {
        encoding: "utf8",
        env: { ...process.env, NO_D1_WARNING: "true" },
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`could not ${what}:\n${stderr}`);
  }
}
