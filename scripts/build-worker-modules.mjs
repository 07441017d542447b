#!/usr/bin/env node
/**
 * Splits the Remix server build (build/index.js) into the modules the site's Worker is deployed as
 * (build/worker/, wrangler.toml `main` and `find_additional_modules`; decision 061): the entry, which
 * every isolate compiles and runs when it starts, and one module per part that only some requests
 * need (each language's strings, WebAuthn, the privacy archive's ZIP writer, the events' QR code),
 * loaded by the `import()` at the place that needs it, the first time it does. Remix leaves those
 * out of its bundle (remix.config.js `serverDependenciesToBundle`) so that they reach this step as
 * imports; esbuild bundles each into its own module here, with what the rest already holds shared.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "build/worker");
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { index: "build/index.js" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  // As remix.config.js builds the server: the Workers runtime's package conditions, production.
  platform: "neutral",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["browser", "module", "main"],
  define: { "process.env.NODE_ENV": '"production"' },
  external: ["cloudflare:*", "node:*"],
  minify: true,
  // Strings as UTF-8, not \u escapes: a Greek or Hindi text is half the bytes to upload and parse.
  charset: "utf8",
  legalComments: "none",
  chunkNames: "lazy-[hash]",
  // .mjs: wrangler's default rules take it as an ES module, for the entry and the modules it finds
  // beside it alike (a rule of our own for .js would replace the defaults the test pool needs).
  outExtension: { ".js": ".mjs" },
  metafile: true,
  logLevel: "warning",
});
writeFileSync(path.join(root, "build/metafile.worker.json"), JSON.stringify(result.metafile));
