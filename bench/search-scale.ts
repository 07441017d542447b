/**
 * Search at catalogue scale (decision 033): the search call (spec 002 §7 GET search: 3 songs and 3
 * artists, as the search box asks it on each keystroke) over the full-text index, with the
 * catalogue grown 10×, 100× and 1 000× (bench/search-worker.ts: made-up titles and names drawn
 * Zipf-like from the catalogue's words and a growing made-up vocabulary, lyrics' words shuffled,
 * Zipf-like tag counts). p50 and p99 per scale for four kinds of query: a prefix (3 letters, as
 * typed), a whole word, a lyric line and a misspelt word (the spelling fallback). Prints the query
 * plan of the songs query at the largest scale, and writes bench/results/search-scale.json.
 *
 *   npm run bench:search-scale -- [--scales 10,100,1000] [--runs 10]
 *
 * Goal: p99 ≤ 20 ms at 1 000× on this machine (2 cores), and no full scan.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import { Miniflare } from "miniflare";
import { demoLyrics } from "#origin/catalog/lyrics.ts";
import { splitSeed } from "#origin/catalog/sql.ts";
import { bundleBenchWorker } from "./bundle-worker";
import { quantile, round } from "./stats";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
function option(name: string, fallback: string): string {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
}
const scales = option("--scales", "10,100,1000").split(",").map(Number);
const runs = Number(option("--runs", "10"));

const searchScaleGoalMs = 20;

/** Ten terms of each kind, from the real catalogue (its titles and its demo lyrics). */
const queries: Record<string, string[]> = {
  prefix: ["wan", "lau", "sie", "und", "leg", "ret", "col", "pro", "nor", "aft"],
  word: [
    "wanderer",
    "north",
    "project",
    "collapse",
    "underground",
    "legends",
    "return",
    "siege",
    "location",
    "land",
  ],
  "lyric line": Object.values(demoLyrics)
    .flatMap((lines) => lines.slice(1, 3))
    .slice(0, 10),
  typo: [
    "wandrer",
    "laurelmoor",
    "undergruond",
    "colapse",
    "projetc",
    "legnds",
    "retrun",
    "loaction",
    "nroth",
    "siegee",
  ],
};

/** Its own database, apart from the one `npm start` uses; deleted after the run. */
const persistTo = path.join(root, `.wrangler/bench-search-scale-${process.pid}`);

async function post(mf: Miniflare, pathname: string, body?: unknown): Promise<unknown> {
  const response = await mf.dispatchFetch(new URL(pathname, "http://bench.internal"), {
    method: "POST",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

type Row = {
  scale: number;
  tracks: number;
  indexed: number;
  kind: string;
  p50: number;
  p99: number;
  found: number;
};

async function main() {
  const mf = new Miniflare({
    name: "search-bench",
    modules: true,
    script: await bundleBenchWorker("search-worker.ts"),
    compatibilityDate: "2025-07-01",
    d1Databases: ["DB"],
    d1Persist: path.join(persistTo, "d1"),
  });
  const rows: Row[] = [];
  let plan: string[] = [];
  let roundTrip = { p50: 0, p99: 0 };
  try {
    for (const migration of await readD1Migrations(path.join(root, "origin/migrations"))) {
      await post(mf, "/statements", migration.queries);
    }
    await post(
      mf,
      "/statements",
      splitSeed(readFileSync(path.join(root, "origin/catalog/dist/seed.sql"), "utf8")),
    );
    let grown = 1;
    for (const scale of scales) {
      const started = Date.now();
      const size = (await post(mf, `/grow?from=${grown}&k=${scale}`)) as { tracks: number; indexed: number };
      grown = scale;
      console.log(
        `${scale}×: ${size.tracks} songs, ${size.indexed} index rows (grown in ${Date.now() - started} ms)`,
      );
      for (const [kind, terms] of Object.entries(queries)) {
        await post(mf, "/time", { terms, runs: 1 }); // warm: the first read of each page of the index
        const { times, found } = (await post(mf, "/time", { terms, runs })) as {
          times: number[];
          found: number[];
        };
        const row = {
          scale,
          ...size,
          kind,
          p50: round(quantile(times, 0.5), 1),
          p99: round(quantile(times, 0.99), 1),
          found: found.filter((count) => count > 0).length / found.length,
        };
        rows.push(row);
        console.log(
          `  ${kind.padEnd(10)} p50 ${row.p50} ms  p99 ${row.p99} ms  (terms with results ${row.found * 100} %)`,
        );
      }
    }
    const floor = (await post(mf, "/floor?runs=200")) as number[];
    console.log(
      `\nOne D1 round trip (SELECT 1): p50 ${quantile(floor, 0.5)} ms, p99 ${quantile(floor, 0.99)} ms`,
    );
    roundTrip = { p50: quantile(floor, 0.5), p99: quantile(floor, 0.99) };
    plan = (await post(mf, "/plan?term=wan")) as string[];
    console.log(`\nQuery plan of the songs query ("wan", ${grown}×):\n  ${plan.join("\n  ")}`);
  } finally {
    await mf.dispose();
    rmSync(persistTo, { recursive: true, force: true });
  }
  const worst = Math.max(...rows.filter((row) => row.scale === Math.max(...scales)).map((row) => row.p99));
  console.log(`\nworst p99 at ${Math.max(...scales)}×: ${worst} ms (goal ≤ ${searchScaleGoalMs} ms)`);
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(
    path.join(root, "bench/results/search-scale.json"),
    `${JSON.stringify({ rows, roundTrip, plan, goalMs: searchScaleGoalMs }, null, 2)}\n`,
  );
}

await main();
