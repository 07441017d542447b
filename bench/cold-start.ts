import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Miniflare, type WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { moduleTypeOf, recognizerWorker, root, type Snapshot } from "#scripts/site.ts";
import { median } from "./stats";

/** Fresh isolates measured per worker; the median is reported. */
const samples = 7;
/** Answered by the worker itself (the embedded origin), touching neither D1 nor the assets. */
const probePath = "/services/health";
/**
 * A page as a new isolate's first request: the React render, its language's strings loaded on
 * first use (decision 061), in a language other than the fallback so that two are loaded. The
 * offline page reads no catalogue, which this runtime's empty D1 does not hold.
 */
const pageProbePath = "/de/offline";

export type ColdStart = {
  /** Median ms from a new workerd to the first answer of the site's worker. */
  siteMs: number;
  /** The same for a worker that only answers "ok", with the same bindings: workerd's and Miniflare's own start, the baseline. */
  emptyMs: number;
  /** siteMs − emptyMs: what loading and evaluating the site's script adds. */
  scriptMs: number;
  /** Median ms from a new workerd to the first answer of a German page (pageProbePath), rendered. */
  firstPageMs: number;
};

async function timeToFirstAnswer(
  worker: WorkerOptions,
  recognizer: WorkerOptions,
  probe = probePath,
): Promise<number> {
  const started = performance.now();
  // The site's RECOGNIZER binding needs its Worker in the runtime to start at all (decision 052);
  // the empty worker's runtime holds it too, so the difference stays the site's script.
  const miniflare = new Miniflare({ host: "127.0.0.1", port: 0, workers: [worker, recognizer] });
  try {
    const response = await miniflare.dispatchFetch(`http://localhost${probe}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${probe} answered ${response.status}`);
    return performance.now() - started;
  } finally {
    await miniflare.dispose();
  }
}

/**
 * Cold start, measured the only way workerd shows it from outside: a new runtime per sample, timed
 * to its first answer, for the site's worker and for an empty one in the same run. Their
 * difference is the cost of the site's script (parse, compile, top-level code); workerd's own
 * start is the same in both.
 */
export async function measureColdStart(snapshot: Snapshot): Promise<ColdStart> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  const site = {
    ...workerOptions,
    // The entry first: workerd takes the first module as the main one.
    modules: [...snapshot.workerFiles]
      .sort((a, b) => Number(b === "index.js") - Number(a === "index.js"))
      .map((name) => ({
        type: moduleTypeOf(name),
        path: path.join(snapshot.workerDir, name),
      })),
    modulesRoot: snapshot.workerDir,
    assets: undefined,
    // wrangler.toml names no mail transport (a deployment must choose one, decision 030): without
    // one the site's first answer is the configuration error, not a page.
    bindings: { ...workerOptions.bindings, MAIL_TRANSPORT: "outbox" },
  } as WorkerOptions;
  const emptyDir = path.join(snapshot.dir, "empty-worker");
  mkdirSync(emptyDir, { recursive: true });
  const emptyScript = path.join(emptyDir, "index.js");
  writeFileSync(emptyScript, 'export default { fetch() { return new Response("ok"); } };\n');
  // The same bindings (D1, queues, mail, rate limits): Miniflare starts a service for each, and
  // that start is workerd's and Miniflare's, not the script's.
  const empty = {
    ...site,
    modules: [{ type: "ESModule", path: emptyScript }],
    modulesRoot: emptyDir,
  } as WorkerOptions;
  const recognizer = recognizerWorker(snapshot);
  const siteTimes: number[] = [];
  const emptyTimes: number[] = [];
  const pageTimes: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    emptyTimes.push(await timeToFirstAnswer(empty, recognizer));
    siteTimes.push(await timeToFirstAnswer(site, recognizer));
    pageTimes.push(await timeToFirstAnswer(site, recognizer, pageProbePath));
  }
  const siteMs = median(siteTimes);
  const emptyMs = median(emptyTimes);
  return { siteMs, emptyMs, scriptMs: siteMs - emptyMs, firstPageMs: median(pageTimes) };
}
