// What each browser chunk is made of, from the browser build's esbuild metafile
// (build/metafile.js.json, written by `remix build`): the framework floor (React DOM, Remix and
// their router) or the site's own code, so a page's first-visit JavaScript can be told apart into
// what no page can avoid and what the site adds (decision 027). Used by the build's bundle report
// (scripts/report-bundle.mjs) and the bench's bytes rows (bench/bytes.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { assetFileOf } from "./asset-urls.mjs";

/** The framework: what hydrating any Remix page needs, whatever the site's code. */
const frameworkPackages = new Set([
  "react",
  "react-dom",
  "scheduler",
  "@remix-run/react",
  "@remix-run/router",
  "@remix-run/server-runtime",
  "react-router",
  "react-router-dom",
  "turbo-stream",
  "cookie",
  "set-cookie-parser",
]);

/** "node_modules/react-dom/cjs/x.js" → "react-dom"; the site's own files by their path. */
export function ownerOf(input) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) return match[1];
  return input
    .replace(/^(\.\.\/)+/, "")
    .replace(/^[^:]+:/, "")
    .replace(/\?.*$/, "");
}

export function isFramework(owner) {
  return frameworkPackages.has(owner) || owner.startsWith("app/entry.client");
}

export function readClientMetafile(root) {
  return JSON.parse(readFileSync(path.join(root, "build/metafile.js.json"), "utf8"));
}

/**
 * One chunk by its URL (`/build/_shared/chunk-X.js`, encoded or not): framework when most of its bytes are the
 * framework's, and its largest owners (packages or the site's folders) by bytes in the output.
 */
export function describeChunk(metafile, url) {
  const output = metafile.outputs[`public${assetFileOf(url)}`];
  if (!output) throw new Error(`${url} is not in the browser build's metafile: the build changed`);
  const owners = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const owner = ownerOf(input);
    owners.set(owner, (owners.get(owner) ?? 0) + bytesInOutput);
  }
  const total = [...owners.values()].reduce((sum, bytes) => sum + bytes, 0);
  const framework = [...owners].reduce((sum, [owner, bytes]) => sum + (isFramework(owner) ? bytes : 0), 0);
  const largest = [...owners]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([owner, bytes]) => ({ owner, bytes }));
  // The entry chunk is only Remix's hydration call, and a shared chunk without source bytes is
  // esbuild's module helpers (React's CommonJS needs them): framework however small.
  const isEntry = /\/entry\.client-[A-Z0-9]+\.js$/.test(url);
  const isHelpers = total === 0 && url.startsWith("/build/_shared/");
  return { url, kind: isEntry || isHelpers || framework * 2 > total ? "framework" : "site", largest };
}

/** The scripts a first visit loads for a chain of manifest routes (root first): entry, then each route's module and imports. */
export function scriptsOfRoutes(manifest, routes) {
  const files = [manifest.entry.module, ...manifest.entry.imports];
  for (const route of routes) files.push(route.module, ...(route.imports ?? []));
  return [...new Set(files)];
}

/** gzip level of every figure (the bundle report, the bench, the local site's snapshot): the highest. */
export const gzipLevel = 9;

export function gzipSize(bytes) {
  return gzipSync(bytes, { level: gzipLevel }).length;
}

export function gzipBytesOf(publicDir, url) {
  return gzipSize(readFileSync(path.join(publicDir, assetFileOf(url))));
}
