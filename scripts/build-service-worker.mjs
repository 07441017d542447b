#!/usr/bin/env node
/**
 * Bundles the site's service worker (app/offline/browser/service-worker.ts,
 * docs/decisions/057-heard-offline.md) into public/sw.js, after `remix build` and the recognition
 * worker's bundle, with what it needs from this build:
 * - `precache`: the /build/ assets the offline page and a recognition load (from the browser
 *   build's esbuild metafile: the client entry, the root and the offline route, and everything they
 *   import, statically or on demand), the Remix manifest and the signature worker;
 * - `version`: a hash of those names and of the worker's own code, so that a new build is a new
 *   script, which the browsers install in place of the old one (and whose cache replaces the old).
 * public/sw.js is at the site's root so that its scope is the whole site without a
 * Service-Worker-Allowed header; public/_headers has it checked on every navigation (no-cache).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { assetFileOf, assetUrlOf } from "./asset-urls.mjs";
import { readClientMetafile } from "./client-chunks.mjs";
import { bundleWorkerScript } from "./worker-bundle.mjs";

const root = path.resolve(import.meta.dirname, "..");
const entry = path.join(root, "app/offline/browser/service-worker.ts");
const output = path.join(root, "public/sw.js");

/** The browser build's modules the offline page starts from (entry points as the metafile names them). */
const startingPoints = new Set([
  "app/entry.client.tsx",
  "browser-route-module:root.tsx?browser",
  "browser-route-module:routes/($lang).offline.tsx?browser",
]);

const metafile = readClientMetafile(root);
const starts = Object.entries(metafile.outputs)
  .filter(([, out]) => out.entryPoint && startingPoints.has(out.entryPoint))
  .map(([file]) => file);
if (starts.length !== startingPoints.size) {
  throw new Error(`the browser build lacks some of ${[...startingPoints].join(", ")}: the build changed`);
}

// Every module the offline page may load: what it imports, and what those load on demand (the
// runtime, the recognition, the heard-offline part, the interstitial...).
const needed = new Set();
const toVisit = [...starts];
while (toVisit.length > 0) {
  const file = toVisit.pop();
  if (needed.has(file)) continue;
  needed.add(file);
  for (const imported of metafile.outputs[file]?.imports ?? []) {
    if (imported.external) continue;
    if (imported.kind === "import-statement" || imported.kind === "dynamic-import")
      toVisit.push(imported.path);
  }
}

const buildFolder = path.join(root, "public/build");
const manifests = fs.readdirSync(buildFolder).filter((name) => /^manifest-[A-Z0-9]+\.js$/.test(name));
const workers = fs
  .readdirSync(path.join(buildFolder, "_recognition"))
  .filter((name) => /^signature-worker-[0-9a-f]+\.js$/.test(name));
if (manifests.length !== 1 || workers.length !== 1) {
  throw new Error("public/build needs one Remix manifest and one signature worker: run the whole build");
}
const precache = [
  ...[...needed].map((file) => assetUrlOf(`/${path.posix.relative("public", file)}`)),
  `/build/${manifests[0]}`,
  `/build/_recognition/${workers[0]}`,
].sort();
for (const url of precache) {
  if (!fs.existsSync(path.join(root, "public", assetFileOf(url))))
    throw new Error(`${url} is not in public/`);
}

const bundle = (define) => bundleWorkerScript(entry, { __TUNEWAVE_SERVICE_WORKER__: JSON.stringify(define) });

// The version covers the code (bundled once without it) and the list.
const code = await bundle({ version: "", precache });
const version = createHash("sha256").update(code).update(precache.join("\n")).digest("hex").slice(0, 12);
const contents = await bundle({ version, precache });
fs.writeFileSync(output, contents);
const bytes = precache.reduce(
  (sum, url) => sum + fs.statSync(path.join(root, "public", assetFileOf(url))).size,
  0,
);
process.stderr.write(
  `service worker: /sw.js ${version} (${(contents.length / 1024).toFixed(1)} KiB), precaching ${precache.length} assets (${(bytes / 1024).toFixed(0)} KiB)\n`,
);
