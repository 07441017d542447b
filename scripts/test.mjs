// `npm test`: every test layer in order, stopping at the first that fails.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { ensureChromium } from "./chromium.mjs";
import { ensureJava } from "./java.mjs";

/**
 * A vitest run with @cloudflare/vitest-pool-workers can stop mid-run with no output and never end
 * (workers-sdk #15498, still open): CI once sat 74 minutes on one worker part until its own limit
 * refused the submission. So a layer that prints nothing for `silentLimitMs` (longer than the
 * slowest test's ceiling, so a slow test is never taken for a stall) is stopped, with its whole
 * process group (vitest and its workerd children), and said to have stalled; a part of the worker
 * layer, which starts from fresh storage each time, is then run once more. A layer that fails is
 * never run again: only a stall is retried.
 */
const silentLimitMs = Number(process.env.TEST_SILENT_LIMIT_MS) || 8 * 60_000;

function runOnce(command, args, watched) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ["inherit", "pipe", "pipe"],
      detached: true,
      // Piped, the layers would print without colour on a terminal.
      env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env,
    });
    let stalled = false;
    let timer;
    const arm = () => {
      clearTimeout(timer);
      if (!watched) return;
      timer = setTimeout(() => {
        stalled = true;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }, silentLimitMs);
    };
    arm();
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      arm();
    });
    child.stderr.on("data", (chunk) => {
      process.stderr.write(chunk);
      arm();
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stalled });
    });
  });
}

/** `watched`: a vitest layer, stopped when silent; `retryStall`: run once more after a stall. */
async function run(title, command, args, { watched = false, retryStall = false } = {}) {
  console.log(`\n▶ ${title}`);
  let result = await runOnce(command, args, watched);
  if (result.stalled && retryStall) {
    console.error(
      `\n⚠ ${title}: no output for ${silentLimitMs / 1000} s, stopped as stalled; running it once more`,
    );
    result = await runOnce(command, args, watched);
  }
  if (result.stalled) {
    console.error(`✖ ${title} stalled: no output for ${silentLimitMs / 1000} s`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

process.env.CHROME_PATH = ensureChromium();
process.env.JAVA_PATH = ensureJava();
await run("catalogue (built when missing or stale)", "node", ["scripts/ensure-catalog.mjs"]);
await run("build", "npm", ["run", "--silent", "build"]);
await run("locales index up to date", "node", ["scripts/locales-index.mjs", "--check"]);
await run("typecheck (all, then workerd-only and browser-only code)", "npm", [
  "run",
  "--silent",
  "typecheck",
]);
await run(
  "lint (biome; the import graph: layers and no cycles; no runtime export used only by tests)",
  "npm",
  ["run", "--silent", "lint"],
);
await run("unit tests", "npx", ["vitest", "run", "--config", "vitest.unit.config.ts"], { watched: true });
// @cloudflare/vitest-pool-workers 0.8 starts one workerd (one Miniflare with its own isolated
// storage) for every test file it is given, all at once, whatever vitest's maxWorkers says: the
// whole layer was 44 workerd processes on 2 cores, whose module loads and storage calls all wait on
// this one Node process, and under load they time out ("Network connection lost", "Timeout calling
// resolveId"). Vitest's shards give the pool a few files at a time: twice the cores, or
// WORKER_FILES_AT_ONCE.
const workerFiles = readdirSync("tests/worker").filter((file) => file.endsWith(".test.ts")).length;
const filesAtOnce = Number(process.env.WORKER_FILES_AT_ONCE) || 2 * availableParallelism();
const shards = Math.ceil(workerFiles / filesAtOnce);
for (let shard = 1; shard <= shards; shard += 1) {
  await run(
    `worker tests (workerd), part ${shard} of ${shards}`,
    "npx",
    ["vitest", "run", "--config", "vitest.worker.config.ts", `--shard=${shard}/${shards}`],
    { watched: true, retryStall: true },
  );
}
await run("browser tests (Chromium)", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts"], {
  watched: true,
});
console.log("\n✔ all test layers passed");
