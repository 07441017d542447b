#!/usr/bin/env node
/**
 * Bundles the recognition's signature Web Worker (app/recognition/browser/signature-worker.ts), which
 * the Remix classic compiler cannot bundle, into public/build/_recognition/signature-worker-{hash}.js
 * (content-hashed, so /build/*'s immutable caching holds), and writes its URL to
 * app/recognition/browser/worker-asset.generated.ts for the page.
 *
 * `remix build` empties public/build, and the page needs the URL when Remix bundles it, so the
 * build runs this before (the URL) and after (the file) `remix build`. The hash depends only on
 * the worker's code, so both runs agree; the module is rewritten only when the URL changes.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { bundleWorkerScript } from "./worker-bundle.mjs";

const root = path.resolve(import.meta.dirname, "..");
const entry = path.join(root, "app/recognition/browser/signature-worker.ts");
const outFolder = path.join(root, "public/build/_recognition");
const urlModule = path.join(root, "app/recognition/browser/worker-asset.generated.ts");

const contents = await bundleWorkerScript(entry);
const hash = createHash("sha256").update(contents).digest("hex").slice(0, 12);
const name = `signature-worker-${hash}.js`;
const url = `/build/_recognition/${name}`;

fs.mkdirSync(outFolder, { recursive: true });
for (const old of fs.readdirSync(outFolder)) {
  if (old.startsWith("signature-worker-") && old !== name) fs.rmSync(path.join(outFolder, old));
}
fs.writeFileSync(path.join(outFolder, name), contents);

const source = `// Written by scripts/build-recognition-worker.mjs: do not edit by hand.
/** The signature Web Worker's script, content-hashed under /build/. */
export const signatureWorkerUrl = "${url}";
`;
if (!fs.existsSync(urlModule) || fs.readFileSync(urlModule, "utf8") !== source) {
  fs.writeFileSync(urlModule, source);
}
process.stderr.write(`recognition worker: ${url} (${(contents.length / 1024).toFixed(1)} KiB)\n`);
