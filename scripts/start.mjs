// `npm start`: builds what is missing, prepares the embedded origin's catalogue and local D1,
// then serves the site locally (no Cloudflare account needed).
import { spawn, spawnSync } from "node:child_process";
import { localVarArguments } from "./local-vars.mjs";

function step(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const port = process.env.PORT ?? "8787";
step("node", ["scripts/ensure-catalog.mjs"]);
step("npm", ["run", "--silent", "build"]);
// `npm start`: the production build in workerd through Miniflare's API (scripts/serve.ts), which
// stays up under load; `npm run dev` (--dev): wrangler dev, with its reload, for development.
const dev = process.argv.includes("--dev");
const server = dev
  ? spawn(
      "npx",
      [
        "wrangler",
        "dev",
        // The site and its recognizer (decision 052).
        "--config",
        "wrangler.toml",
        "--config",
        "recognizer/wrangler.toml",
        "--ip",
        "127.0.0.1",
        "--port",
        port,
        "--show-interactive-dev-session=false",
        "--var",
        `SITE_ORIGIN:${process.env.SITE_ORIGIN ?? `http://127.0.0.1:${port}`}`,
        ...localVarArguments(),
      ],
      { stdio: "inherit" },
    )
  : // node itself, not npx: a signal reaches the server, which closes workerd.
    spawn(process.execPath, ["node_modules/.bin/vite-node", "scripts/serve.ts"], {
      stdio: "inherit",
      env: { ...process.env, PORT: port },
    });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
