/**
 * The local site runner: the production build in workerd through Miniflare, as `npm start`
 * (scripts/serve.ts) and the bench serve it. Here, below the bench, so that `npm start` does not
 * stand on it; the bench's own worker (bench/proxy-worker.ts) still rides along in every snapshot.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import { Miniflare, type MiniflareOptions, type WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { splitSeed } from "#origin/catalog/sql.ts";
import { loadStore, storeRows } from "#recognizer/store.ts";
import { readPublishedIndex } from "#tools/recognition-store/published-index.ts";
import { gzipSize } from "./client-chunks.mjs";
import { localVars } from "./local-vars.mjs";
import { startWithV8Flags } from "./v8-flags";

export const root = path.resolve(import.meta.dirname, "..");
const seedFile = path.join(root, "origin/catalog/dist/seed.sql");
const proxyWorkerEntry = path.join(root, "bench/proxy-worker.ts");
const wrangler = path.join(root, "node_modules/.bin/wrangler");
/** The site's worker name in Miniflare, and the bench's own worker that runs `measureProxy`. */
export const siteWorkerName = "tunewave-web";
export const proxyWorkerName = "bench-proxy";
/** The recognizer's config and its worker's name (wrangler.toml's [[services]] RECOGNIZER names it). */
const recognizerConfig = path.join(root, "recognizer/wrangler.toml");
export const recognizerWorkerName = "tunewave-recognizer";

/**
 * What the bench serves, copied once into a folder of its own so that a build started elsewhere
 * during the run cannot change it: the worker as `wrangler deploy` would upload it (the same
 * command as scripts/report-bundle.mjs: the entry and every module beside it, minified) and the
 * static assets folder.
 */
export type Snapshot = {
  dir: string;
  workerDir: string;
  workerFiles: string[];
  /** The entry module's source (it names the Remix manifest the assets must hold). */
  workerSource: string;
  workerRawBytes: number;
  workerGzipBytes: number;
  /** The recognizer (decision 052), bundled the same way: its folder and its files. */
  recognizerDir: string;
  recognizerFiles: string[];
  publicDir: string;
  /** The bench's own worker (`proxyWorkerName`), bundled once with the site: every site started from the snapshot serves it. */
  proxyScript: string;
};

export type Site = {
  /** http://127.0.0.1:port, no trailing slash. */
  url: string;
  /** The site's workerd (with the bench's own worker). */
  miniflare: Miniflare;
  /** The recognizer's workerd, of its own. */
  recognizer: Miniflare;
  close: () => Promise<void>;
};

/**
 * wrangler bakes its own NODE_ENV into the bundle (`process.env.NODE_ENV`): the bench's (vite-node
 * sets development) must not leak in, so it sees what `npm run build` gives it.
 */
function wranglerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };
  delete env.NODE_ENV;
  return env;
}

function runWrangler(args: string[]): void {
  try {
    execFileSync(wrangler, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: wranglerEnv(),
    });
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(failed.stdout ?? "");
    process.stderr.write(failed.stderr ?? "");
    throw new Error(`wrangler ${args.join(" ")} failed`);
  }
}

/** The modules wrangler wrote to `dir`: no source map, no README. */
function bundledFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".map") && entry.name !== "README.md")
    .map((entry) => entry.name);
}

export function snapshotSite(): Snapshot {
  const dir = mkdtempSync(path.join(tmpdir(), "tunewave-bench-"));
  const workerDir = path.join(dir, "worker");
  runWrangler(["deploy", "--dry-run", "--outdir", workerDir, "--minify"]);
  const workerFiles = bundledFiles(workerDir);
  const recognizerDir = path.join(dir, "recognizer");
  runWrangler(["deploy", "--dry-run", "--config", recognizerConfig, "--outdir", recognizerDir, "--minify"]);
  let workerRawBytes = 0;
  let workerGzipBytes = 0;
  for (const name of workerFiles) {
    const bytes = readFileSync(path.join(workerDir, name));
    workerRawBytes += bytes.length;
    workerGzipBytes += gzipSize(bytes);
  }
  const publicDir = path.join(dir, "public");
  cpSync(path.join(root, "public"), publicDir, { recursive: true });
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  if (!workerOptions.compatibilityDate) throw new Error("wrangler.toml has no compatibility_date");
  return {
    dir,
    workerDir,
    workerFiles,
    workerSource: readFileSync(path.join(workerDir, "index.js"), "utf8"),
    workerRawBytes,
    workerGzipBytes,
    recognizerDir,
    recognizerFiles: bundledFiles(recognizerDir),
    publicDir,
    proxyScript: bundleProxyWorker(dir, workerOptions.compatibilityDate),
  };
}

/** A module type of Miniflare, from the file name (wrangler's default rules and our [[rules]]). */
export function moduleTypeOf(file: string): "ESModule" | "CommonJS" | "Text" | "Data" | "CompiledWasm" {
  if (file.endsWith(".js") || file.endsWith(".mjs")) return "ESModule";
  if (file.endsWith(".cjs")) return "CommonJS";
  if (file.endsWith(".wasm")) return "CompiledWasm";
  if (file.endsWith(".bin")) return "Data";
  return "Text";
}

/**
 * The bench's own worker (`measureProxy` and the embedded origin), bundled by wrangler like the
 * site, from a config of its own so that nothing of wrangler.toml but the compatibility date applies.
 */
function bundleProxyWorker(snapshotDir: string, compatibilityDate: string): string {
  const dir = path.join(snapshotDir, proxyWorkerName);
  mkdirSync(dir);
  const config = path.join(dir, "wrangler.toml");
  writeFileSync(
    config,
    [
      `name = "${proxyWorkerName}"`,
      `main = ${JSON.stringify(proxyWorkerEntry)}`,
      `compatibility_date = "${compatibilityDate}"`,
    ].join("\n"),
  );
  runWrangler(["deploy", "--dry-run", "--config", config, "--outdir", dir]);
  return path.join(dir, `${path.basename(proxyWorkerEntry, ".ts")}.js`);
}

/**
 * Serves the snapshot with Miniflare (workerd) as `wrangler dev --local` wires it — bindings,
 * [vars], static assets and their _headers, compatibility date, all read from wrangler.toml by
 * wrangler's own `unstable_getMiniflareWorkerOptions` — without wrangler's dev proxy in front.
 * D1 is in memory: the migrations, then the catalogue seed.
 */
export async function startSite(
  snapshot: Snapshot,
  options: {
    inspectorPort?: number;
    /** The recognizer's workerd's inspector (the bench's heap of its isolate). */
    recognizerInspectorPort?: number;
    /** Default 0: any free port. */
    port?: number;
    /** wrangler's local state folder (`.wrangler/state`): D1 as `wrangler dev` keeps it, not seeded. */
    persistTo?: string;
    /** [vars] over wrangler.toml's, as `wrangler dev --var`. */
    vars?: Record<string, string>;
    /** Load the published recognition index into the in-memory RECOGNITION store (about 12 s). */
    recognition?: boolean;
    /** V8 flags for both workerds (scripts/v8-flags.ts), e.g. production's heap limit. */
    v8Flags?: readonly string[];
    /**
     * Each line of a workerd's output first, with which one printed it; true: taken, not printed
     * (e.g. `--trace-gc`'s).
     */
    takeRuntimeLine?: (line: string, runtime: "site" | "recognizer") => boolean;
    /** Over the site worker's options from wrangler.toml (the bench's "events off" binding). */
    workerOptions?: Partial<WorkerOptions>;
    /** Workers beside the site's, which `workerOptions` may bind to. */
    extraWorkers?: WorkerOptions[];
  } = {},
): Promise<Site> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  if (!workerOptions.compatibilityDate) throw new Error("wrangler.toml has no compatibility_date");
  if (!workerOptions.assets) throw new Error("wrangler.toml has no [assets]");
  if (!snapshot.workerFiles.includes("index.js")) throw new Error(`wrangler wrote no index.js`);
  const moduleNames = ["index.js", ...snapshot.workerFiles.filter((name) => name !== "index.js")];
  const site = {
    ...workerOptions,
    // A local site's own variables (the mail outbox, the visitor vouchers' local key).
    bindings: { ...workerOptions.bindings, ...localVars, ...options.vars },
    name: siteWorkerName,
    modules: moduleNames.map((name) => ({
      type: moduleTypeOf(name),
      path: path.join(snapshot.workerDir, name),
    })),
    modulesRoot: snapshot.workerDir,
    assets: { ...workerOptions.assets, directory: snapshot.publicDir },
    ...options.workerOptions,
  } as WorkerOptions;
  const { proxyScript } = snapshot;
  const proxyWorker: WorkerOptions = {
    name: proxyWorkerName,
    modules: [{ type: "ESModule", path: proxyScript }],
    modulesRoot: path.dirname(proxyScript),
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    d1Databases: workerOptions.d1Databases,
  };
  const d1Persist = options.persistTo ? path.join(options.persistTo, "v3/d1") : undefined;
  const take = options.takeRuntimeLine ?? (() => false);
  // The recognizer in a workerd of its own, as Cloudflare runs it in isolates of its own (decision
  // 052): one workerd runs its isolates on one thread, so a match there would hold up the pages.
  // The site's RECOGNIZER binding names a worker it does not run, and Miniflare's dev registry (a
  // folder both share) connects it to this one.
  const registry = mkdtempSync(path.join(tmpdir(), "tunewave-workers-"));
  const started: Miniflare[] = [];
  const closeAll = async () => {
    for (const one of started.reverse()) await one.dispose();
    rmSync(registry, { recursive: true, force: true });
  };
  try {
    const recognizer = await startMiniflare(options.v8Flags ?? [], {
      host: "127.0.0.1",
      port: 0,
      inspectorPort: options.recognizerInspectorPort,
      d1Persist,
      unsafeDevRegistryPath: registry,
      handleRuntimeStdio: (stdout, stderr) =>
        forwardRuntimeOutput(stdout, stderr, (line) => take(line, "recognizer")),
      workers: [recognizerWorker(snapshot)],
    });
    started.push(recognizer);
    const miniflare = await startMiniflare(options.v8Flags ?? [], {
      host: "127.0.0.1",
      port: options.port ?? 0,
      inspectorPort: options.inspectorPort,
      d1Persist,
      unsafeDevRegistryPath: registry,
      handleRuntimeStdio: (stdout, stderr) =>
        forwardRuntimeOutput(stdout, stderr, (line) => take(line, "site")),
      workers: [site, proxyWorker, ...(options.extraWorkers ?? [])],
    });
    started.push(miniflare);
    const ready = await miniflare.ready;
    if (!options.persistTo) await seedDatabase(miniflare);
    if (options.recognition && !options.persistTo) await loadRecognition(recognizer);
    return { url: ready.origin, miniflare, recognizer, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** A Miniflare, ready, its workerd spawned with these V8 flags; disposed again if it fails to start. */
function startMiniflare(v8Flags: readonly string[], options: MiniflareOptions): Promise<Miniflare> {
  // workerd is spawned (with its config, and so its V8 flags) while `ready` is awaited.
  return startWithV8Flags(v8Flags, async () => {
    const started = new Miniflare(options);
    await started.ready.catch(async (error) => {
      await started.dispose();
      throw error;
    });
    return started;
  });
}

/**
 * The recognizer as its config wires it (its D1 databases), from the snapshot's bundle. Its
 * databases are in the site's local state (the ids of its config, which ensure-catalog loaded).
 */
export function recognizerWorker(snapshot: Snapshot): WorkerOptions {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(recognizerConfig);
  const entry = snapshot.recognizerFiles.find((name) => name === "index.js");
  if (!entry) throw new Error("wrangler wrote no index.js for the recognizer");
  return {
    ...workerOptions,
    name: recognizerWorkerName,
    modules: [entry, ...snapshot.recognizerFiles.filter((name) => name !== entry)].map((name) => ({
      type: moduleTypeOf(name),
      path: path.join(snapshot.recognizerDir, name),
    })),
    modulesRoot: snapshot.recognizerDir,
  } as WorkerOptions;
}

/**
 * workerd's output, without the one error a load test makes by design: autocannon closes its
 * connections when its time is up, and workerd reports each answer it could not finish writing.
 */
export function forwardRuntimeOutput(
  stdout: Readable,
  stderr: Readable,
  take: (line: string) => boolean,
): void {
  for (const stream of [stdout, stderr]) {
    let dropStack = false;
    createInterface({ input: stream }).on("line", (line) => {
      if (take(line)) return;
      if (/disconnected: ::write.*Connection reset by peer/.test(line)) dropStack = true;
      else if (dropStack && line.startsWith("stack: ")) dropStack = false;
      else process.stderr.write(`${line}\n`);
    });
  }
}

async function seedDatabase(miniflare: Miniflare): Promise<void> {
  const db = await miniflare.getD1Database("DB", siteWorkerName);
  for (const migration of await readD1Migrations(path.join(root, "origin/migrations"))) {
    await db.batch(migration.queries.map((query) => db.prepare(query)));
  }
  await db.batch(splitSeed(readFileSync(seedFile, "utf8")).map((statement) => db.prepare(statement)));
}

/** The recognition store as scripts/ensure-catalog.mjs loads it for `npm start` (decision 029). */
async function loadRecognition(recognizer: Miniflare): Promise<void> {
  const db = (await recognizer.getD1Database("RECOGNITION", recognizerWorkerName)) as unknown as D1Database;
  for (const migration of await readD1Migrations(path.join(root, "recognizer/migrations"))) {
    await db.batch(migration.queries.map((query) => db.prepare(query)));
  }
  const loaded = await readPublishedIndex();
  await loadStore([db], storeRows(loaded.index, loaded.sha256, loaded.catalogVersion));
}

export function removeSnapshot(snapshot: Snapshot): void {
  rmSync(snapshot.dir, { recursive: true, force: true });
}
