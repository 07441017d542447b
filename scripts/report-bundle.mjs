// After `remix build`: what the worker is made of, and what `wrangler deploy` would upload.
// - The bundle report: bytes per package (from the Remix server build's esbuild metafile), and
//   the locales. Fails when a package is bundled from two installed copies or in a development
//   build: the worker must hold one React, one copy of the strings, all production.
// - The worker's modules (decision 061): the entry every isolate compiles, and each module loaded
//   on first use, with what it holds (build/metafile.worker.json).
// - The size of the worker as wrangler would upload it (raw and gzip). Fails when React's
//   development code is in it (a message only React's development builds carry), or the
//   recognizer's (the matcher, the store, the signature decoder: a Worker of their own).
// - Each page's first-visit JavaScript (gzip): the framework floor and the site's code on top, the
//   largest pages first with their site chunks and how many files (decision 027's budget: floor
//   + ≤ 10 KB), and the pages of 20 files or more.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { assetFileOf } from "./asset-urls.mjs";
import {
  describeChunk,
  gzipBytesOf,
  gzipSize,
  readClientMetafile,
  scriptsOfRoutes,
} from "./client-chunks.mjs";

const root = path.resolve(import.meta.dirname, "..");
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const problems = [];

/** "node_modules/react/index.js" → its package's folder and name; our own files by top folder. */
function packageOf(input) {
  const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
  if (match) return { folder: match[1], name: match[2] };
  const ours = input.replace(/^(\.\.\/)+[^/]+\//, "").split("/")[0];
  return { folder: ours, name: ours };
}

const metafile = JSON.parse(readFileSync(path.join(root, "build/metafile.server.json"), "utf8"));
const packages = new Map();
/** The recognizer's code (decision 052): in its own Worker, never in the site's. */
const recognizerCode = /(^|\/)(recognizer\/|signature\/(?!constants\.ts$|errors\.ts$|mono\.ts$))/;
for (const [input, { bytes }] of Object.entries(metafile.inputs)) {
  if (/\.development\./.test(input)) problems.push(`a development build is bundled: ${input}`);
  if (recognizerCode.test(input)) problems.push(`the recognizer's code is in the site's bundle: ${input}`);
  const { folder, name } = packageOf(input);
  const entry = packages.get(name) ?? { bytes: 0, folders: new Set() };
  entry.bytes += bytes;
  entry.folders.add(folder);
  packages.set(name, entry);
}
for (const [name, { folders }] of packages) {
  if (folders.size > 1) problems.push(`${name} is bundled ${folders.size} times: ${[...folders].join(", ")}`);
}
const largest = [...packages].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 12);
console.log("worker inputs (before minifying), one copy each:");
for (const [name, { bytes }] of largest) console.log(`  ${name.padEnd(28)} ${kib(bytes).padStart(12)}`);

/** What a module of the worker holds, by package or top folder, largest first. */
function holdings(inputs) {
  const owners = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
    const { name } = packageOf(input.replace(/^build\/index\.js$/, "the Remix build"));
    owners.set(name, (owners.get(name) ?? 0) + bytesInOutput);
  }
  return [...owners].sort((a, b) => b[1] - a[1]);
}
const workerModules = Object.entries(
  JSON.parse(readFileSync(path.join(root, "build/metafile.worker.json"), "utf8")).outputs,
).filter(([file]) => file.endsWith(".mjs"));
const languageOfModule = ([, output]) =>
  /^locales\/strings\/(.+)\.generated\.ts$/.exec(Object.keys(output.inputs).join(" "))?.[1];
console.log("worker modules (minified): the entry, then those loaded on first use:");
for (const [file, output] of workerModules
  .filter((module) => !languageOfModule(module))
  .sort(
    (a, b) =>
      Number(b[0].endsWith("/index.mjs")) - Number(a[0].endsWith("/index.mjs")) || b[1].bytes - a[1].bytes,
  )) {
  const held =
    holdings(output.inputs)
      .slice(0, 2)
      .map(([name, bytes]) => `${name} ${kib(bytes)}`)
      .join(", ") || "what the modules above share";
  console.log(`  ${path.basename(file).padEnd(24)} ${kib(output.bytes).padStart(12)}  ${held}`);
}
const languageModules = workerModules
  .filter((module) => languageOfModule(module))
  .map((module) => ({ lang: languageOfModule(module), bytes: module[1].bytes }))
  .sort((a, b) => a.bytes - b.bytes);
if (languageModules.length > 0) {
  const english = languageModules.find((module) => module.lang === "en");
  console.log(
    `  ${languageModules.length} languages' strings, a module each: ${kib(languageModules[0].bytes)} (${languageModules[0].lang}) to ${kib(languageModules.at(-1).bytes)} (${languageModules.at(-1).lang}), English ${kib(english?.bytes ?? 0)}`,
  );
}

const outdir = mkdtempSync(path.join(tmpdir(), "tunewave-bundle-"));
try {
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir, "--minify"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const files = readdirSync(outdir).filter((name) => /\.m?js$/.test(name));
  let raw = 0;
  let gzip = 0;
  for (const name of files) {
    const bytes = readFileSync(path.join(outdir, name));
    raw += bytes.length;
    gzip += gzipSize(bytes);
    // React's development builds warn about list keys; its production builds never carry the text.
    if (bytes.includes("Each child in a list should have a unique")) {
      problems.push(`${name} holds React's development build`);
    }
  }
  console.log(
    `worker bundle: ${kib(raw)} raw, ${kib(gzip)} gzip (${files.length} file${files.length === 1 ? "" : "s"})`,
  );
} finally {
  rmSync(outdir, { recursive: true, force: true });
}

/** Pages (routes that export `meta`; resource routes do not), each with its route chain from root. */
function firstVisitReport() {
  const publicDir = path.join(root, "public");
  const manifestUrl = /\/build\/manifest-[A-Z0-9]+\.js/.exec(
    readFileSync(path.join(root, "build/index.js"), "utf8"),
  )?.[0];
  if (!manifestUrl) return problems.push("the server build names no Remix manifest");
  const manifest = JSON.parse(
    readFileSync(path.join(publicDir, manifestUrl), "utf8")
      .trim()
      .replace(/^window\.__remixManifest\s*=\s*/, "")
      .replace(/;$/, ""),
  );
  const metafile = readClientMetafile(root);
  const chunks = new Map();
  const chunkOf = (url) => {
    if (!chunks.has(url))
      chunks.set(url, { ...describeChunk(metafile, url), gzip: gzipBytesOf(publicDir, url) });
    return chunks.get(url);
  };
  const pages = Object.values(manifest.routes)
    .filter(
      (route) =>
        route.parentId && metafile.outputs[`public${assetFileOf(route.module)}`]?.exports.includes("meta"),
    )
    .map((route) => {
      const chain = [];
      for (let at = route; at; at = manifest.routes[at.parentId]) chain.unshift(at);
      const scripts = scriptsOfRoutes(manifest, chain).map(chunkOf);
      const sum = (kind) =>
        scripts.filter((chunk) => chunk.kind === kind).reduce((total, chunk) => total + chunk.gzip, 0);
      return {
        id: route.id.replace(/^routes\//, "").replace(/\/route$/, ""),
        framework: sum("framework"),
        site: sum("site"),
        scripts,
      };
    })
    .sort((a, b) => b.site - a.site);
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  const floor = Math.max(...pages.map((page) => page.framework));
  console.log(`first-visit JS per page (gzip; framework floor ${kb(floor)}), largest site code first:`);
  for (const page of pages.slice(0, 8)) {
    const own = page.scripts
      .filter((chunk) => chunk.kind === "site")
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 4)
      .map((chunk) => `${chunk.largest[0]?.owner ?? "?"} ${kb(chunk.gzip)}`)
      .join(", ");
    console.log(
      `  ${page.id.slice(0, 44).padEnd(44)} ${kb(page.framework + page.site).padStart(9)} = floor + ${kb(page.site).padStart(8)}, ${String(page.scripts.length).padStart(2)} files  (${own}, …)`,
    );
  }
  const smallest = pages.at(-1);
  if (smallest)
    console.log(`  … ${pages.length - 8} more pages, down to ${smallest.id} (floor + ${kb(smallest.site)})`);
  // Every request costs a round trip's share and its own gzip window (decision 027, part 6).
  const mostFiles = [...pages]
    .sort((a, b) => b.scripts.length - a.scripts.length)
    .filter((page) => page.scripts.length >= 20);
  if (mostFiles.length > 0)
    console.log(
      `  20 files or more: ${mostFiles.map((page) => `${page.id} ${page.scripts.length}`).join(", ")}`,
    );
}
firstVisitReport();

if (problems.length > 0) {
  for (const problem of problems) console.error(`✖ ${problem}`);
  process.exit(1);
}
