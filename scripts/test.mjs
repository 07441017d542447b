// `npm test`: every test layer in order, stopping at the first that fails.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { ensureChromium } from "./chromium.mjs";
import { ensureJava } from "./java.mjs";

function run(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

process.env.CHROME_PATH = ensureChromium();
process.env.JAVA_PATH = ensureJava();
run("catalogue (built when missing or stale)", "node", ["scripts/ensure-catalog.mjs"]);
run("build", "npm", ["run", "--silent", "build"]);
run("locales index up to date", "node", ["scripts/locales-index.mjs", "--check"]);
run("typecheck (all, then workerd-only and browser-only code)", "npm", ["run", "--silent", "typecheck"]);
run("lint (biome; the import graph: layers and no cycles; no runtime export used only by tests)", "npm", [
  "run",
  "--silent",
  "lint",
]);
run("unit tests", "npx", ["vitest", "run", "--config", "vitest.unit.config.ts"]);
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
  run(`worker tests (workerd), part ${shard} of ${shards}`, "npx", [
    "vitest",
    "run",
    "--config",
    "vitest.worker.config.ts",
    `--shard=${shard}/${shards}`,
  ]);
}
run("browser tests (Chromium)", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts"]);
console.log("\n✔ all test layers passed");
