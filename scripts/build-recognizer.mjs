#!/usr/bin/env node
/**
 * Bundles the recognizer Worker (recognizer/wrangler.toml, decision 052) as `wrangler deploy` would
 * upload it, into build/recognizer/: the worker tests run it beside the site from there, and its
 * size is reported here beside the site's (scripts/report-bundle.mjs).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSize } from "./client-chunks.mjs";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "build/recognizer");
rmSync(outdir, { recursive: true, force: true });
execFileSync(
  path.join(root, "node_modules/.bin/wrangler"),
  ["deploy", "--dry-run", "--config", "recognizer/wrangler.toml", "--outdir", outdir, "--minify"],
  {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  },
);
const files = readdirSync(outdir).filter((name) => name.endsWith(".js"));
let raw = 0;
let gzip = 0;
for (const name of files) {
  const bytes = readFileSync(path.join(outdir, name));
  raw += bytes.length;
  gzip += gzipSize(bytes);
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`recognizer bundle: ${kib(raw)} raw, ${kib(gzip)} gzip (${files.join(", ")})`);
