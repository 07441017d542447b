/**
 * `npm run bench:profile` (decision 056): where a page's render time goes. The bench's worker (the
 * `wrangler deploy --dry-run` bundle in workerd), built with a server source map, CPU-profiled
 * through the inspector over a few hundred sequential requests per page, each a document cache miss. Prints per page the
 * worker's CPU time per request, the functions with the most self and total time, and self time
 * by source file, each at its original source line (the source map), and writes each page's
 * `.cpuprofile` (for DevTools) to bench/results/.
 *
 *   npm run bench:profile [-- home track charts …]     (default: home track artist charts search amp-track amp-charts)
 *
 * PROFILE_REQUESTS (default 300 per page). Sampling slows the isolate down: compare the shares,
 * not the milliseconds, with the bench's render figures.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { ampPath } from "#rules/path.ts";
import { removeSnapshot, root, snapshotSite } from "#scripts/site.ts";
import { freePort } from "./free-port";
import { connectInspector } from "./inspector";
import { startOwnOriginSite } from "./own-origin-site";
import { findPages, headersOf, type Page } from "./pages";
import { missOf } from "./render";
import { round } from "./stats";

const requests = Number(process.env.PROFILE_REQUESTS ?? 300);
const warmups = 20;
/** Sampling interval, µs: fine enough to see a 1 ms render's parts. */
const samplingIntervalUs = 100;
const topRows = 25;
const resultsDir = path.join(root, "bench/results");

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** Where a frame's code comes from: its original file, line and the line's text. */
type Origin = { file: string; line: number; text: string };

function originOf(map: SourceMap, sources: Map<string, string[]>, frame: CallFrame): Origin | undefined {
  if (!frame.url.endsWith("index.js")) return undefined;
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as {
    originalSource?: string;
    originalLine?: number;
  };
  if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
  const file = entry.originalSource.replace(
    /^.*?\/(node_modules|app|edge|amp|worker|origin|locales)\//,
    "$1/",
  );
  const text = sources.get(entry.originalSource)?.[entry.originalLine]?.trim().slice(0, 70) ?? "";
  return { file, line: entry.originalLine + 1, text };
}

/** The profile with each frame at its original place, named by its line's text (for DevTools). */
function withOrigins(profile: CpuProfile, map: SourceMap, sources: Map<string, string[]>): CpuProfile {
  return {
    ...profile,
    nodes: profile.nodes.map((node) => {
      const origin = originOf(map, sources, node.callFrame);
      return origin
        ? {
            ...node,
            callFrame: {
              ...node.callFrame,
              functionName: origin.text,
              url: origin.file,
              lineNumber: origin.line - 1,
            },
          }
        : node;
    }),
  };
}

/** A file's area: the npm package, or our top folder. */
function areaOf(file: string): string {
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return pkg?.[1] ?? file.split("/")[0] ?? file;
}

function summarise(profile: CpuProfile, map: SourceMap, sources: Map<string, string[]>, count: number) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = new Map<number, { key: string; file: string }>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const origin = originOf(map, sources, frame);
    const name = frame.functionName || "(anonymous)";
    keyOf.set(
      node.id,
      origin
        ? { key: `${origin.file}:${origin.line}  ${origin.text}`, file: origin.file }
        : { key: `${name} ${frame.url ? path.basename(frame.url) : ""}`.trim(), file: name },
    );
  }
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const own = keyOf.get(id);
    if (!own || own.key.startsWith("(idle)")) return;
    busyUs += delta;
    self.set(own.key, (self.get(own.key) ?? 0) + delta);
    byFile.set(own.file, (byFile.get(own.file) ?? 0) + delta);
    byArea.set(areaOf(own.file), (byArea.get(areaOf(own.file)) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = keyOf.get(at)?.key;
      if (key === undefined || seen.has(key) || nodes.get(at)?.callFrame.functionName === "(root)") continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + delta);
    }
  });
  const top = (table: Map<string, number>) =>
    [...table]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topRows)
      .map(([key, us]) => ({
        msPerRequest: round(us / 1000 / count, 3),
        share: `${((100 * us) / busyUs).toFixed(1)}%`,
        key,
      }));
  return {
    cpuMsPerRequest: round(busyUs / 1000 / count, 3),
    byArea: top(byArea),
    byFile: top(byFile),
    self: top(self),
    total: top(total),
  };
}

function print(title: string, rows: { msPerRequest: number; share: string; key: string }[]): void {
  console.log(`  ${title}`);
  for (const row of rows)
    console.log(`    ${row.msPerRequest.toFixed(3).padStart(7)} ms ${row.share.padStart(6)}  ${row.key}`);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names =
    wanted.length > 0 ? wanted : ["home", "track", "artist", "charts", "search", "amp-track", "amp-charts"];
  // The server build with its source map (esbuild in wrangler follows it to the original files).
  const built = spawnSync(path.join(root, "node_modules/.bin/remix"), ["build", "--sourcemap"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production", VITE_CJS_IGNORE_WARNING: "true" },
  });
  if (built.status !== 0) throw new Error("remix build --sourcemap failed");
  const snapshot = snapshotSite();
  const mapPayload = JSON.parse(readFileSync(path.join(snapshot.workerDir, "index.js.map"), "utf8")) as {
    sources: string[];
    sourcesContent?: (string | null)[];
  };
  const map = new SourceMap(mapPayload as ConstructorParameters<typeof SourceMap>[0]);
  const sources = new Map(
    mapPayload.sources.map((source, index) => [
      source,
      (mapPayload.sourcesContent?.[index] ?? "").split("\n"),
    ]),
  );
  const inspectorPort = await freePort();
  const site = await startOwnOriginSite(snapshot, { inspectorPort });
  const inspector = await connectInspector(inspectorPort);
  try {
    const { pages } = await findPages(site.url);
    const byName = new Map<string, Page>(pages.map((page) => [page.name, page]));
    const charts = byName.get("charts");
    if (charts) byName.set("amp-charts", { ...charts, path: ampPath("en", charts.path) });
    mkdirSync(resultsDir, { recursive: true });
    await inspector.call("Profiler.enable");
    await inspector.call("Profiler.setSamplingInterval", { interval: samplingIntervalUs });
    for (const name of names) {
      const page = byName.get(name);
      if (page?.state !== "ok") {
        console.log(`${name}: not measured (${page ? `answers ${page.status}` : "no such page"})`);
        continue;
      }
      // Each request a miss of the document cache (its own `miss` parameter), as bench/render.ts.
      const url = new URL(site.url + page.path);
      let count = 0;
      const get = async () => {
        const response = await fetch(missOf(url, ++count), { headers: headersOf(page) });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${page.path}: ${response.status}`);
      };
      for (let i = 0; i < warmups; i++) await get();
      await inspector.call("Profiler.start");
      for (let i = 0; i < requests; i++) await get();
      const { profile } = await inspector.call<{ profile: CpuProfile }>("Profiler.stop");
      const summary = summarise(profile, map, sources, requests);
      writeFileSync(
        path.join(resultsDir, `profile-${name}.cpuprofile`),
        JSON.stringify(withOrigins(profile, map, sources)),
      );
      console.log(
        `\n${name} ${page.path}: worker CPU ${summary.cpuMsPerRequest} ms per request (${requests} requests, sampled)`,
      );
      print("self time by area", summary.byArea.slice(0, 12));
      print("self time by file", summary.byFile.slice(0, 15));
      print("self time by function", summary.self);
      print("total time by function", summary.total);
    }
  } finally {
    inspector.close();
    await site.close();
    removeSnapshot(snapshot);
  }
}

await main();
