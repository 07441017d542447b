// `npm test`: every test layer in order, stopping at the first that fails.
import { spawnSync } from "node:child_process";
import { ensureChromium } from "./chromium.mjs";

function run(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

process.env.CHROME_PATH = ensureChromium();
run("catalogue (built when missing or stale)", "node", ["scripts/ensure-catalog.mjs"]);
run("build", "npm", ["run", "--silent", "build"]);
run("locales index up to date", "node", ["scripts/locales-index.mjs", "--check"]);
run("typecheck (all, then workerd-only and browser-only code)", "npm", ["run", "--silent", "typecheck"]);
run("lint", "npx", ["biome", "check", "."]);
run("no runtime module or export used only by tests", "node", ["scripts/test-only-exports.mjs"]);
run("unit tests", "npx", ["vitest", "run", "--config", "vitest.unit.config.ts"]);
run("worker tests (workerd)", "npx", ["vitest", "run", "--config", "vitest.worker.config.ts"]);
run("browser tests (Chromium)", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts"]);
console.log("\n✔ all test layers passed");
