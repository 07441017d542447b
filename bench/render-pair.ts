/**
 * Render on a miss, before and after a change, in one run (decision 047): two builds served side by
 * side, each page measured as bench/render.ts does, alternating which build goes first, so that the
 * machine's drifting load falls on both. Two figures per page: the render's p50 (wall clock, as the
 * bench's table), and the CPU time each site's workerd used per page request and its static
 * request (from /proc: what the load of other processes changes least). Also compares each
 * anonymous page's HTML: a change that claims speed must not change the document.
 *
 *   npm run bench:render-pair -- keep                              (snapshot the current build, print its folder)
 *   npm run bench:render-pair -- <before> <after> [rounds] [page …]
 *
 * `keep` after `remix build` (NODE_ENV=production), once per variant; the folders are removed by
 * hand. Rounds: 3 by default; each figure is the median of the rounds'.
 *
 * PAIR_THROUGHPUT=1 adds, in each round, the page's throughput at 50 connections against the
 * static asset's right after it (bench/throughput.ts): the signed-in pages' figure (decision 048).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Snapshot, snapshotSite } from "#scripts/site.ts";
import { startOwnOriginSite } from "./own-origin-site";
import { findPages, headersOf, type Page } from "./pages";
import { missOf, renderCost, renderWarmups } from "./render";
import { median, round } from "./stats";
import { loadTest } from "./throughput";

const staticAsset = "/favicon.svg";
const withThroughput = process.env.PAIR_THROUGHPUT === "1";

/** The workerd processes this one started (Miniflare starts one per site), found by parent. */
function ownWorkerdPids(): Set<number> {
  const parentOf = new Map<number, number>();
  const workerd = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.replace(/^.*\) /, "").split(" ")[1]));
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[0]?.endsWith("workerd"))
        workerd.add(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parentOf.get(at))
      if (at === process.pid) return true;
    return false;
  };
  return new Set([...workerd].filter(descends));
}

/** CPU time a process has used, user and system, in ms (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function readSnapshot(dir: string): Snapshot {
  return JSON.parse(readFileSync(path.join(dir, "snapshot.json"), "utf8")) as Snapshot;
}

/**
 * The document without what differs per request or build: the CSP nonce, the miss parameter, the
 * site's origin (each site has its own port), the clock, and the client build's file hashes and
 * version (a change to a package both bundles share changes them).
 */
async function documentOf(base: string, page: Page): Promise<string> {
  const response = await fetch(missOf(new URL(page.path, base), 0), { headers: headersOf(page) });
  return (await response.text())
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/[?&]miss=0/g, "")
    .replaceAll(base, "")
    .replaceAll(encodeURIComponent(base), "")
    .replace(/\\"now\\",\d+/g, "now")
    .replace(/-[A-Z0-9]{8}\.(js|css)/g, "-HASH.$1")
    .replace(/"version": ?"[0-9a-f]{8}"/g, "version");
}

/** The page's address in a round of its own (an unused query parameter, as bench/render.ts's `miss`). */
function roundOf(path: string, round: number): string {
  return `${path}${path.includes("?") ? "&" : "?"}round=${round}`;
}

async function main(): Promise<void> {
  const [first, second, roundsArg, ...wanted] = process.argv.slice(2);
  if (first === "keep") {
    const snapshot = snapshotSite();
    writeFileSync(path.join(snapshot.dir, "snapshot.json"), JSON.stringify(snapshot));
    console.log(snapshot.dir);
    return;
  }
  if (!first || !second) throw new Error("usage: render-pair.ts keep | <before> <after> [rounds] [page …]");
  const rounds = Number(roundsArg ?? 3);
  // Each site's workerd: its CPU time is the load-independent figure (decision 056's second pass).
  const running = ownWorkerdPids();
  const before = await startOwnOriginSite(readSnapshot(first));
  const beforePids = [...ownWorkerdPids()].filter((pid) => !running.has(pid));
  const after = await startOwnOriginSite(readSnapshot(second));
  const afterPids = [...ownWorkerdPids()].filter((pid) => !running.has(pid) && !beforePids.includes(pid));
  if (beforePids.length !== 1 || afterPids.length !== 1)
    throw new Error("cannot tell the sites' workerd apart");
  const sites = [before, after] as const;
  const pids = [beforePids[0], afterPids[0]] as [number, number];
  try {
    const found = [await findPages(before.url), await findPages(after.url)] as const;
    const names = found[0].pages
      .filter((page) => page.state === "ok" && (wanted.length === 0 || wanted.includes(page.name)))
      .map((page) => page.name);
    const loads: number[] = [];
    const rows: string[] = [];
    for (const name of names) {
      const pages = found.map((result) => result.pages.find((page) => page.name === name)) as [Page, Page];
      const p50s: [number[], number[]] = [[], []];
      const cpus: [number[], number[]] = [[], []];
      const ratios: [number[], number[]] = [[], []];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const which of order) {
          const site = sites[which as 0 | 1];
          const page = pages[which as 0 | 1];
          loads.push(os.loadavg()[0] ?? 0);
          // renderCost numbers its misses from 1: a round of its own keeps them misses.
          const cpuBefore = cpuMsOf(pids[which as 0 | 1]);
          const cost = await renderCost(site.url, roundOf(page.path, round), staticAsset, headersOf(page));
          const requests = cost.samples + renderWarmups;
          p50s[which as 0 | 1].push(cost.p50Ms);
          cpus[which as 0 | 1].push((cpuMsOf(pids[which as 0 | 1]) - cpuBefore) / requests);
          if (withThroughput) {
            const own = await loadTest(site.url, page.path, staticAsset, headersOf(page));
            const statics = await loadTest(site.url, staticAsset, staticAsset);
            ratios[which as 0 | 1].push(own.requestsPerSecond / statics.requestsPerSecond);
          }
        }
      }
      const same = pages[0].cookie
        ? "signed in: not compared"
        : (await documentOf(sites[0].url, pages[0])) === (await documentOf(sites[1].url, pages[1]))
          ? "same HTML"
          : "HTML DIFFERS";
      const [p50Before, p50After] = p50s.map(median) as [number, number];
      const [cpuBefore, cpuAfter] = cpus.map(median) as [number, number];
      const figures = (a: number, b: number) =>
        `${a.toFixed(2).padStart(6)} ${b.toFixed(2).padStart(6)} ${(b / a).toFixed(2).padStart(5)}×`;
      const throughput = withThroughput
        ? `  throughput ${ratios.map((r) => `${median(r).toFixed(3)}×`).join(" → ")} static (rounds: ${ratios[0].map((r) => r.toFixed(3)).join(" ")} | ${ratios[1].map((r) => r.toFixed(3)).join(" ")})`
        : "";
      const line = `${name.padEnd(9)} ${figures(p50Before, p50After)}  ${figures(cpuBefore, cpuAfter)}  ${same}  (p50 rounds: ${p50s[0].map((p) => p.toFixed(2)).join(" ")} | ${p50s[1].map((p) => p.toFixed(2)).join(" ")})${throughput}`;
      rows.push(line);
      process.stderr.write(`${line}\n`);
    }
    console.log(
      "          render p50 ms          workerd CPU ms a page + static pair\npage      before  after  ratio   before  after  ratio   (medians of the rounds)",
    );
    for (const row of rows) console.log(row);
    console.log(
      `load ${round(Math.min(...loads), 2)}–${round(Math.max(...loads), 2)} (1-minute, at each measurement)`,
    );
  } finally {
    for (const site of sites) await site.close();
  }
}

await main();
