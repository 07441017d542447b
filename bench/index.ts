/**
 * `npm run bench`: where the site stands, measured side by side in one run on a
 * production build served by workerd through Miniflare, with the embedded origin. Prints a table
 * with PASS/FAIL per budget line and writes the same figures to bench/results/site.json. Exits 0
 * whatever the verdicts; 1 only when the bench itself cannot run.
 *
 *   npx vite-node bench/index.ts [--skip-build] [--skip-lighthouse] [--only=render,bytes,…]
 *
 * --skip-build serves the build already in build/ and public/build (after `npm run build`).
 * --only runs just the named sections (edge, render, proxy, bytes, cold start as `cold-start`,
 * memory, live-numbers, lighthouse): one change's figures without the whole hour.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as v from "valibot";
import { ampPath } from "#rules/path.ts";
import { ensureChromium } from "#scripts/chromium.mjs";
import { gzipLevel, gzipSize, readClientMetafile } from "#scripts/client-chunks.mjs";
import {
  proxyWorkerName,
  removeSnapshot,
  root,
  type Site,
  type Snapshot,
  snapshotSite,
} from "#scripts/site.ts";
import { atLeast, atMost, budgets, formatTable, kb, MiB, ms, type Row, type Verdict } from "./budgets";
import { readManifest, scriptsOf, sizesOf, splitByOwner, stylesheetsOf } from "./bytes";
import { measureColdStart } from "./cold-start";
import { compareWithManifest, launchBenchBrowser, measureDownloadedJs } from "./downloaded-js";
import { type LighthouseResult, lighthouseCategories, runLighthouse } from "./lighthouse";
import { measureLiveNumbers } from "./live-numbers";
import { measureMemory } from "./memory";
import { startOwnOriginSite } from "./own-origin-site";
import { findPages, headersOf, type Page, type PageName, settle, visitorHeaders } from "./pages";
import type { ProxyMeasurements } from "./proxy.bench-worker";
import { readRecognition, recognitionRows } from "./recognition-summary";
import { type RenderCost, renderCost } from "./render";
import { median, round } from "./stats";
import {
  connections,
  loadTest,
  measuredSeconds,
  slowPageSeconds,
  type Throughput,
  warmupSeconds,
} from "./throughput";

/** The static asset every page is compared with, served by the same worker's assets. */
const staticAsset = "/favicon.svg";
/** Lighthouse for the first bench's "home, track, artist, charts and search", and every page built since. */
const lighthousePages: readonly PageName[] = [
  "home",
  "track",
  "artist",
  "charts",
  "search",
  "library",
  "privacy",
  "concerts",
  "event",
  "terms",
  "offer",
];
/** Decision 027: Lighthouse counts on a machine whose 1-minute load is below 1; above it, it runs again. */
const maxLighthouseLoad = 1;
/** Lighthouse runs a page, the median kept. */
const lighthouseRuns = 3;
/** Pages whose first-visit JS and CSS are counted: the React pages (AMP pages load no site JS). */
const reactPages: readonly PageName[] = [
  "home",
  "track",
  "artist",
  "charts",
  "search",
  "library",
  "privacy",
  "concerts",
  "event",
  "terms",
  "offer",
];
const resultsDir = path.join(root, "bench/results");

const args = new Set(process.argv.slice(2));
const onlySections = process.argv
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",")
  .map((name) => name.trim().replaceAll("-", " "));
const started = performance.now();

function log(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(0).padStart(3);
  process.stderr.write(`bench ${seconds} s  ${message}\n`);
}

function run(title: string, command: string, commandArgs: string[], env: Record<string, string> = {}): void {
  log(title);
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`${title} failed (${command} ${commandArgs.join(" ")})`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A section that fails is one `error` line of the table, not the end of the run. */
async function section<T>(area: string, rows: Row[], measure: () => Promise<T>): Promise<T | undefined> {
  if (onlySections && !onlySections.includes(area)) {
    rows.push({ area, item: "", figure: "not in --only", budget: "", verdict: "not run" });
    return undefined;
  }
  try {
    return await measure();
  } catch (error) {
    log(`${area}: ${messageOf(error)}`);
    rows.push({
      area,
      item: "(section)",
      figure: messageOf(error).slice(0, 100),
      budget: "",
      verdict: "error",
    });
    return undefined;
  }
}

function unmeasuredRow(area: string, page: Page): Row | undefined {
  if (page.state === "ok") return undefined;
  return {
    area,
    item: `${page.name} ${page.requested}`,
    figure: page.state === "missing" ? "answers 404" : `answers ${page.status}`,
    budget: "",
    verdict: page.state === "missing" ? "missing" : "error",
  };
}

/**
 * Each page between two runs of the static asset, and its ratio to their mean: the machine's load
 * drifts during a run (shared machines), and a ratio of neighbours drifts least.
 */
async function measureThroughput(site: Site, pages: Page[], rows: Row[]) {
  const area = "edge";
  log(
    `throughput: ${connections} connections, ${warmupSeconds} s warm-up + ${measuredSeconds} s per address`,
  );
  const statics: Throughput[] = [await loadTest(site.url, staticAsset, staticAsset)];
  const measured: {
    page: PageName;
    result: Throughput;
    staticRequestsPerSecond: number;
    ratio: number;
    staticP99Ms: number;
  }[] = [];
  for (const page of pages) {
    if (page.state !== "ok") continue;
    log(`throughput ${page.path}`);
    const result = await loadTest(site.url, page.path, staticAsset, headersOf(page));
    const before = statics[statics.length - 1];
    const after = await loadTest(site.url, staticAsset, staticAsset);
    statics.push(after);
    const staticRequestsPerSecond = ((before?.requestsPerSecond ?? 0) + after.requestsPerSecond) / 2;
    const ratio = round(result.requestsPerSecond / staticRequestsPerSecond, 3);
    const staticP99Ms = ((before?.p99Ms ?? 0) + after.p99Ms) / 2;
    measured.push({ page: page.name, result, staticRequestsPerSecond, ratio, staticP99Ms });
  }
  const rates = statics.map((result) => result.requestsPerSecond);
  rows.push({
    area,
    item: `static ${staticAsset} (${statics.length} runs, one each side of every page)`,
    figure: `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)} req/s, p50 ${ms(median(statics.map((r) => r.p50Ms)))}, p99 ${ms(median(statics.map((r) => r.p99Ms)))} (medians)`,
    budget: "",
    verdict: "info",
  });
  for (const { page, result, ratio, staticP99Ms } of measured) {
    const found = pages.find((candidate) => candidate.name === page);
    const answered = result.requestsPerSecond > 0;
    const clean = answered && result.non2xx + result.errors === 0;
    // The warm-cache budget (decision 055) is for anonymous visitors' pages: a signed-in page is the
    // person's own and bypasses the document cache (edge/document-cache.ts).
    const cached = !found?.cookie;
    // Decision 055 states the warm-cache p99 against the static asset's in the same run; the first bench's
    // absolute 30 ms is left out there: at 50 connections it asks for over 1 600 answers a second
    // (Little's law), more than the static asset itself gets through on this machine.
    const verdicts: Verdict[] = cached
      ? [
          atLeast(ratio, budgets.warmCacheThroughputRatio),
          atMost(result.p99Ms, budgets.warmCacheP99Ratio * staticP99Ms),
        ]
      : [
          page === "track" ? atLeast(ratio, budgets.trackThroughputRatio) : "PASS",
          atMost(result.p99Ms, budgets.p99Ms),
        ];
    rows.push({
      area,
      item: `${page} ${found?.path ?? ""}${cached ? " (warm HTML cache)" : " (signed in: no cache)"}`,
      figure: answered
        ? `${result.requestsPerSecond.toFixed(0)} req/s = ${ratio.toFixed(3)}× static, p50 ${ms(result.p50Ms)}, p99 ${ms(result.p99Ms)} = ${(result.p99Ms / staticP99Ms).toFixed(2)}× static's ${ms(staticP99Ms)}` +
          (clean ? "" : ` (${result.non2xx} non-2xx, ${result.errors} errors)`)
        : `no answer within ${slowPageSeconds} s (${result.errors} errors)`,
      budget: cached
        ? `≥ ${budgets.warmCacheThroughputRatio}× static, p99 ≤ ${budgets.warmCacheP99Ratio}× static's`
        : `p99 ≤ ${budgets.p99Ms} ms${page === "track" ? `, ≥ ${budgets.trackThroughputRatio}× static` : ""}`,
      verdict: !clean || verdicts.includes("FAIL") ? "FAIL" : "PASS",
    });
  }
  for (const page of pages) {
    const row = unmeasuredRow(area, page);
    if (row) rows.push(row);
  }
  const signedIn = pages.find((page) => page.cookie && page.state === "ok");
  const floors = signedIn ? await measureSignedInFloors(site, signedIn, statics, rows) : [];
  return { statics, pages: measured, signedInFloors: floors };
}

/**
 * What a signed-in page's throughput is bounded by (decision 048, amendment). The same visitor's account-service
 * calls alone, each between two runs of the static asset: the status (the session is remembered
 * per isolate, decision 048: no D1) and the library's count (one indexed D1 query). A page that
 * needs D1 cannot answer faster than its slowest query does on its own.
 */
async function measureSignedInFloors(site: Site, page: Page, statics: Throughput[], rows: Row[]) {
  const floors: { path: string; result: Throughput; ratio: number }[] = [];
  for (const [what, path] of [
    ["no D1", "/services/account/status"],
    ["one D1 query", "/services/account/tags/count"],
  ] as const) {
    log(`throughput ${path} (signed in)`);
    const result = await loadTest(site.url, path, staticAsset, headersOf(page));
    const before = statics[statics.length - 1];
    const after = await loadTest(site.url, staticAsset, staticAsset);
    statics.push(after);
    const ratio = round(
      result.requestsPerSecond / (((before?.requestsPerSecond ?? 0) + after.requestsPerSecond) / 2),
      3,
    );
    floors.push({ path, result, ratio });
    rows.push({
      area: "edge",
      item: `signed-in floor: ${path} (${what})`,
      figure: `${result.requestsPerSecond.toFixed(0)} req/s = ${ratio.toFixed(3)}× static, p50 ${ms(result.p50Ms)}`,
      budget: "",
      verdict: "info",
    });
  }
  return floors;
}

async function measureRender(site: Site, pages: Page[], rows: Row[]) {
  const area = "render";
  const costs: { page: PageName; cost: RenderCost }[] = [];
  for (const page of pages) {
    if (page.state !== "ok") continue;
    log(`render cost ${page.path}`);
    const cost = await renderCost(site.url, page.path, staticAsset, headersOf(page));
    costs.push({ page: page.name, cost });
    const own = budgets.render.pages[page.name];
    const { everyPageP99BelowMs } = budgets.render;
    const passes = own
      ? cost.p50Ms <= own.p50Ms && cost.p99Ms <= own.p99Ms
      : cost.p99Ms < everyPageP99BelowMs;
    rows.push({
      area,
      item: `${page.name} (${cost.samples} renders)`,
      figure: `p50 ${ms(cost.p50Ms)}, p99 ${ms(cost.p99Ms)} (request ${ms(cost.requestP50Ms)} − static ${ms(cost.staticP50Ms)})`,
      budget: own ? `p50 ≤ ${own.p50Ms} ms, p99 ≤ ${own.p99Ms} ms` : `p99 < ${everyPageP99BelowMs} ms`,
      verdict: Number.isFinite(cost.p99Ms) && passes ? "PASS" : "FAIL",
    });
  }
  return costs;
}

const percentilesSchema = v.object({ p50: v.number(), p99: v.number() });
const proxyMeasurementsSchema = v.object({
  memoryHitMs: percentilesSchema,
  cacheApiHitMs: percentilesSchema,
  directUpstreamMs: percentilesSchema,
  coalescedUpstreamCalls: v.number(),
}) satisfies v.GenericSchema<ProxyMeasurements>;

async function measureProxyIn(site: Site, query: string): Promise<ProxyMeasurements> {
  const worker = await site.miniflare.getWorker(proxyWorkerName);
  const response = await worker.fetch(`http://bench.local/${query}`);
  const body = await response.text();
  if (!response.ok) throw new Error(`measureProxy: ${body}`);
  return v.parse(proxyMeasurementsSchema, JSON.parse(body));
}

async function measureProxies(site: Site, chartListPath: string, rows: Row[]) {
  const area = "proxy";
  log("proxy: in front of an in-process upstream, then of the embedded origin");
  const inProcess = await measureProxyIn(site, "");
  const embedded = await measureProxyIn(site, `?upstream=origin&path=${encodeURIComponent(chartListPath)}`);
  const figure = ({ p50, p99 }: { p50: number; p99: number }) => `p50 ${ms(p50)}, p99 ${ms(p99)}`;
  for (const [upstream, result] of [
    ["in-process upstream (4 KB JSON)", inProcess],
    ["embedded origin, world chart list (D1)", embedded],
  ] as const) {
    rows.push(
      {
        area,
        item: `${upstream}: direct`,
        figure: figure(result.directUpstreamMs),
        budget: "",
        verdict: "info",
      },
      {
        area,
        item: `${upstream}: memory hit`,
        figure: figure(result.memoryHitMs),
        budget: "",
        verdict: "info",
      },
      {
        area,
        item: `${upstream}: Cache API hit`,
        figure: figure(result.cacheApiHitMs),
        budget: "",
        verdict: "info",
      },
      {
        area,
        item: `${upstream}: upstream calls, 100 concurrent misses`,
        figure: String(result.coalescedUpstreamCalls),
        budget: `≤ ${budgets.coalescedUpstreamCalls}`,
        verdict: atMost(result.coalescedUpstreamCalls, budgets.coalescedUpstreamCalls),
      },
    );
  }
  return { inProcess, embeddedOrigin: { path: chartListPath, ...embedded } };
}

async function measureBytes(site: Site, snapshot: Snapshot, pages: Page[], rows: Row[]) {
  const area = "bytes";
  const manifest = readManifest(snapshot.publicDir, snapshot.workerSource);
  // Chunk names carry their content's hash: a chunk missing from the metafile means a build ran since.
  const metafile = readClientMetafile(root);
  const firstVisit: Record<string, unknown>[] = [];
  const browser = await launchBenchBrowser();
  try {
    for (const page of pages) {
      if (!reactPages.includes(page.name) || page.state !== "ok") continue;
      const pathname = new URL(page.path, site.url).pathname;
      const html = await (await fetch(site.url + page.path, { headers: headersOf(page) })).text();
      const scripts = scriptsOf(manifest, pathname);
      const stylesheets = stylesheetsOf(manifest, pathname, html);
      const js = sizesOf(snapshot.publicDir, scripts);
      const css = sizesOf(snapshot.publicDir, stylesheets);
      const split = splitByOwner(metafile, js);
      const downloaded = await measureDownloadedJs(
        browser,
        site.url + page.path,
        page.cookie ? { cookie: page.cookie } : undefined,
      );
      const beyondManifest = compareWithManifest(downloaded, scripts);
      firstVisit.push({
        page: page.name,
        path: page.path,
        js,
        css,
        framework: split.framework,
        site: split.site,
        downloaded: { ...downloaded, ...beyondManifest },
      });
      const siteChunks = split.chunks
        .filter((chunk) => chunk.kind === "site")
        .slice(0, 3)
        .map((chunk) => `${chunk.owners[0]?.replace(/^.*\//, "")} ${kb(chunk.gzipBytes)}`);
      rows.push(
        {
          area,
          item: `${page.name} JS by the manifest (first visit)`,
          figure: `${kb(js.gzipBytes)} gzip = framework ${kb(split.framework)} + site ${kb(split.site)} in ${js.files} files (${siteChunks.join(", ")}, …)`,
          budget: `≤ ${kb(budgets.firstVisitJsGzipBytes)} gzip`,
          verdict: atMost(js.gzipBytes, budgets.firstVisitJsGzipBytes),
        },
        {
          area,
          item: `${page.name} JS downloaded (first visit)`,
          figure: `${kb(downloaded.transferBytes)} in ${downloaded.scripts.length} files = the manifest's ${beyondManifest.listed.files} ${kb(beyondManifest.listed.bodyBytes)} + their headers ${kb(beyondManifest.listed.headerBytes)} + ${beyondManifest.unlisted.length} more after hydration ${kb(beyondManifest.unlistedBytes)} (${beyondManifest.unlisted
            .slice(0, 3)
            .map((script) => `${script.url.replace(/^.*\//, "")} ${kb(script.transferBytes)}`)
            .join(", ")}, …)`,
          budget: `≤ ${kb(budgets.firstVisitDownloadedJsBytes)} transfer`,
          verdict: atMost(downloaded.transferBytes, budgets.firstVisitDownloadedJsBytes),
        },
        {
          area,
          item: `${page.name} CSS (first visit)`,
          figure: `${kb(css.gzipBytes)} gzip, ${kb(css.rawBytes)} raw, ${css.files} files`,
          budget: `≤ ${kb(budgets.cssGzipBytes)} gzip`,
          verdict: atMost(css.gzipBytes, budgets.cssGzipBytes),
        },
      );
    }
  } finally {
    await browser.close();
  }
  for (const page of pages) {
    if (reactPages.includes(page.name) && page.state !== "ok") {
      const row = unmeasuredRow(area, page);
      if (row) rows.push(row);
    }
  }

  const amp: Record<string, unknown>[] = [];
  for (const page of pages) {
    // A signed-in page has no AMP form.
    if (!reactPages.includes(page.name) || page.state !== "ok" || page.cookie) continue;
    const url = new URL(page.path, site.url);
    const ampPage = await settle(site.url, page.name, ampPath("en", url.pathname) + url.search);
    if (ampPage.state !== "ok") {
      amp.push({ page: page.name, path: ampPage.requested, state: ampPage.state, status: ampPage.status });
      rows.push({
        area,
        item: `AMP ${page.name} ${ampPage.requested}`,
        figure: `answers ${ampPage.status}`,
        budget: `≤ ${kb(budgets.ampBytes)}`,
        verdict: ampPage.state === "missing" ? "missing" : "error",
      });
      continue;
    }
    const bytes = new Uint8Array(
      await (await fetch(site.url + ampPage.path, { headers: visitorHeaders })).arrayBuffer(),
    );
    amp.push({ page: page.name, path: ampPage.path, rawBytes: bytes.length, gzipBytes: gzipSize(bytes) });
    rows.push({
      area,
      item: `AMP ${page.name} ${ampPage.path}`,
      figure: `${kb(bytes.length)} raw, ${kb(gzipSize(bytes))} gzip`,
      budget: `≤ ${kb(budgets.ampBytes)}`,
      verdict: atMost(bytes.length, budgets.ampBytes),
    });
  }

  const worker = {
    rawBytes: snapshot.workerRawBytes,
    gzipBytes: snapshot.workerGzipBytes,
    files: snapshot.workerFiles,
  };
  rows.push({
    area,
    item: `worker script (${snapshot.workerFiles.length} module${snapshot.workerFiles.length === 1 ? "" : "s"}, minified)`,
    figure: `${kb(worker.gzipBytes)} gzip, ${kb(worker.rawBytes)} raw`,
    budget: `≤ ${(budgets.workerGzipBytes / MiB).toFixed(0)} MiB gzip`,
    verdict: atMost(worker.gzipBytes, budgets.workerGzipBytes),
  });
  return { gzipLevel, firstVisit, amp, worker };
}

async function measureColdStartRow(snapshot: Snapshot, rows: Row[]) {
  log("cold start: new workerd runtimes, the site's worker and an empty one");
  const coldStart = await measureColdStart(snapshot);
  rows.push({
    area: "cold start",
    item: "new workerd to the worker's first answer (median of 7)",
    figure: `${ms(coldStart.siteMs)}; empty worker ${ms(coldStart.emptyMs)}: the script adds ${ms(coldStart.scriptMs)}`,
    budget: "",
    verdict: "info",
  });
  rows.push({
    area: "cold start",
    item: "new workerd to a German page's first answer, rendered (/de/offline, median of 7)",
    figure: `${ms(coldStart.firstPageMs)}: ${ms(coldStart.firstPageMs - coldStart.emptyMs)} over the empty worker`,
    budget: "",
    verdict: "info",
  });
  return coldStart;
}

async function measureLighthouse(site: Site, pages: Page[], rows: Row[]) {
  const area = "lighthouse";
  const chromePath = ensureChromium();
  const results: { page: PageName; result: LighthouseResult }[] = [];
  for (const page of pages) {
    if (!lighthousePages.includes(page.name)) continue;
    if (page.state !== "ok") {
      const row = unmeasuredRow(area, page);
      if (row) rows.push(row);
      continue;
    }
    try {
      const lighthouseOnce = async () => {
        const load = os.loadavg()[0] ?? 0;
        log(`lighthouse ${page.path} (load ${load.toFixed(2)})`);
        const result = await runLighthouse(
          root,
          site.url + page.path,
          chromePath,
          page.cookie ? { Cookie: page.cookie } : undefined,
        );
        return { load, result };
      };
      // Three runs, the median kept (Lighthouse's own advice for a noisy metric). Its simulated first
      // paint is two-valued on our pages: Lantern counts the high-priority scripts that finished
      // before the paint it observed, and Chromium paints at about DOMContentLoaded, so a run where
      // the scripts came in first scores 95-97 and one where they did not 98-100 (decision 050).
      // Above the load budget (decision 027), wait before the next run.
      const first = await lighthouseOnce();
      const runs = [first];
      while (runs.length < lighthouseRuns) {
        if ((runs.at(-1)?.load ?? 0) > maxLighthouseLoad)
          await new Promise((resolve) => setTimeout(resolve, 15_000));
        runs.push(await lighthouseOnce());
      }
      const byScore = [...runs].sort(
        (a, b) => (a.result.scores.performance ?? 0) - (b.result.scores.performance ?? 0),
      );
      const median = byScore[Math.floor(byScore.length / 2)] ?? first;
      const result = median.result;
      const loads = runs.map((run) => run.load.toFixed(2)).join(", ");
      // A noindex page (internal search results, a signed-in person's own) loses SEO's is-crawlable audit on purpose.
      const html = await (await fetch(site.url + page.path, { headers: headersOf(page) })).text();
      const noindex = /<meta[^>]+name="robots"[^>]+content="[^"]*noindex/i.test(html);
      results.push({ page: page.name, result });
      rows.push({
        area,
        item: `${page.name} machine load`,
        figure: `1-minute load ${loads}; performance ${runs.map((run) => run.result.scores.performance ?? "none").join(", ")}, first contentful paint ${runs.map((run) => (run.result.firstContentfulPaintMs === undefined ? "?" : ms(run.result.firstContentfulPaintMs))).join(", ")} (the median run kept)`,
        budget: `< ${maxLighthouseLoad}`,
        verdict: "info",
      });
      if (result.scriptTransferBytes !== undefined)
        rows.push({
          area,
          item: `${page.name} JS transferred`,
          figure: `${kb(result.scriptTransferBytes)} (Lighthouse's network record; "bytes" counts the manifest)`,
          budget: "",
          verdict: "info",
        });
      for (const category of lighthouseCategories) {
        const score = result.scores[category];
        const lost = result.failing.filter((audit) => audit.category === category).map((audit) => audit.id);
        const onlyNoindex = category === "seo" && noindex && lost.every((id) => id === "is-crawlable");
        rows.push({
          area,
          item: `${page.name} ${category}`,
          figure: `${score ?? "no score"}${lost.length > 0 ? ` (${lost.slice(0, 4).join(", ")}${lost.length > 4 ? ", …" : ""})` : ""}${onlyNoindex ? "; noindex on purpose (internal search results, a person's own pages): not counted" : ""}`,
          budget: `≥ ${budgets.lighthouse[category]}`,
          verdict: onlyNoindex ? "info" : atLeast(score ?? Number.NaN, budgets.lighthouse[category]),
        });
      }
    } catch (error) {
      rows.push({
        area,
        item: page.name,
        figure: messageOf(error).slice(0, 100),
        budget: "",
        verdict: "error",
      });
    }
  }
  return results;
}

async function main(): Promise<void> {
  if (!args.has("--skip-build")) {
    run("catalogue files (built when missing or stale)", "node", [
      "scripts/ensure-catalog.mjs",
      "--files-only",
    ]);
    // vite-node runs this file with NODE_ENV=development: the build must not inherit it.
    run("remix build", path.join(root, "node_modules/.bin/remix"), ["build"], {
      NODE_ENV: "production",
      VITE_CJS_IGNORE_WARNING: "true",
    });
  }
  log("bundling the worker (wrangler deploy --dry-run --minify) and copying public/");
  const snapshot = snapshotSite();
  let site: Site | undefined;
  try {
    log("starting Miniflare, loading the catalogue into D1");
    site = await startOwnOriginSite(snapshot);
    const { pages, chartListPath } = await findPages(site.url);
    for (const page of pages) log(`page ${page.name}: ${page.path} ${page.state} (${page.status})`);

    const rows: Row[] = [];
    const edge = await section("edge", rows, () => measureThroughput(site as Site, pages, rows));
    const render = await section("render", rows, () => measureRender(site as Site, pages, rows));
    const proxy = await section("proxy", rows, () => measureProxies(site as Site, chartListPath, rows));
    const bytes = await section("bytes", rows, () => measureBytes(site as Site, snapshot, pages, rows));
    const coldStart = await section("cold start", rows, () => measureColdStartRow(snapshot, rows));
    const memory = await section("memory", rows, () => {
      log("memory: a site of its own with the recognition store, its isolate's heap under load");
      return measureMemory(snapshot, rows);
    });
    const liveNumbers = await section("live numbers", rows, () => {
      log("live numbers: identification events and beacons through the queues, in bursts");
      return measureLiveNumbers(snapshot, rows);
    });
    let lighthouse: Awaited<ReturnType<typeof measureLighthouse>> | undefined;
    if (args.has("--skip-lighthouse"))
      rows.push({
        area: "lighthouse",
        item: "",
        figure: "--skip-lighthouse",
        budget: "",
        verdict: "not run",
      });
    else lighthouse = await section("lighthouse", rows, () => measureLighthouse(site as Site, pages, rows));
    const recognition = readRecognition(path.join(resultsDir, "recognition.json"));
    rows.push(...recognitionRows(recognition));

    const seconds = round((performance.now() - started) / 1000, 1);
    const machine = {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadAverage: os.loadavg().map((load) => round(load, 2)),
      node: process.version,
    };
    mkdirSync(resultsDir, { recursive: true });
    const resultsFile = path.join(resultsDir, "site.json");
    writeFileSync(
      resultsFile,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          seconds,
          machine,
          budgets,
          staticAsset,
          pages,
          edge,
          render,
          proxy,
          bytes,
          coldStart,
          memory,
          liveNumbers,
          lighthouse,
          recognition: recognition?.summary,
          rows,
        },
        null,
        2,
      )}\n`,
    );

    const count = (verdict: Verdict) => rows.filter((row) => row.verdict === verdict).length;
    console.log(formatTable(rows));
    console.log(
      `\n${count("PASS")} pass, ${count("FAIL")} fail, ${count("missing")} missing, ${count("error")} error, ` +
        `${count("not run")} not run · ${seconds} s · ${machine.cpus} CPUs, load ${machine.loadAverage.join(" ")} · ` +
        `${path.relative(root, resultsFile)}`,
    );
  } finally {
    await site?.close();
    removeSnapshot(snapshot);
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench: cannot run: ${messageOf(error)}`);
  process.exitCode = 1;
}
