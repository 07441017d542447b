import { spawnSync } from "node:child_process";

/**
 * Runs SQL on the local D1 database the browser tests' site runs on (wrangler's local state), as
 * `wrangler d1 execute --local`; `what` says what it was for when it fails.
 */
export function executeLocalD1(sql: string, what: string): void {
  const result = spawnSync(
    "npx",
    ["wrangler", "d1", "execute", "tunewave-catalog", "--local", "--command", sql],
    {
      encoding: "utf8",
      env: { ...process.env, NO_D1_WARNING: "true" },
    },
  );
  if (result.status !== 0) throw new Error(`could not ${what}:\n${result.stderr}`);
}
