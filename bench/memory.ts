import { readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as v from "valibot";
import { recognitionProbesSchema } from "#origin/recognition-index.ts";
import { recognizerWorkerName, root, type Snapshot } from "#scripts/site.ts";
import { productionHeapLimit, productionHeapLimitMb } from "#scripts/v8-flags.ts";
import { atMost, type Row } from "./budgets";
import { benchClientAddress } from "./client-addresses";
import { freePort } from "./free-port";
import { type GcEvent, gcLive, gcPeak, parseGcLine, snapshotIsolate } from "./gc-trace";
import { type AllocationSite, type HeapUsage, inspectHeap } from "./heap";
import { startOwnOriginSite } from "./own-origin-site";
import { findPages, headersOf } from "./pages";

/**
 * Decision 028, finding 8: "memory per isolate stays under 96 MB at 100 concurrent renders with the
 * recognition index loaded". A site of its own (the garbage of the bench's other sections does
 * not count here), with the recognition store loaded (decision 029: the index is in D1, and a
 * match holds the postings it asked for while it runs), its isolate's heap read from V8's
 * `--trace-gc` under load (every collection: the peak, garbage included, is exact) and through the
 * inspector after a full collection before and after each round (what is retained: flat, or growing).
 */
export const isolateHeapBudgetMb = 96;
/**
 * The site's isolate renders only (decision 052: the matches run in the recognizer's isolates), so
 * its peak at the same load is held to two thirds of that; the recognizer's is held to the
 * isolate budget at twice the matches.
 */
export const siteHeapBudgetMb = 64;
export const concurrentRenders = 100;
/** Matches running beside the renders: the postings they hold are the index's part of the heap. */
export const concurrentMatches = 10;
/** Match requests at once for the recognizer's own round: 6 run, the rest wait (recognizer/answers.ts). */
export const recognizerConcurrentMatches = 20;
const roundSeconds = 10;
const rounds = 2;

export type MemoryMeasurement = {
  /** V8's heap limit given to the site's workerd, MB; undefined: none (local workerd's default). */
  heapLimitMb: number | undefined;
  concurrentRenders: number;
  concurrentMatches: number;
  roundSeconds: number;
  /** Retained after a full collection: before the first round, then after each round. */
  retained: HeapUsage[];
  rounds: {
    renders: number;
    matches: number;
    /** Answers other than 200 and connection errors, by status or message. */
    failures: Record<string, number>;
    /** The site isolate's highest heap before or after each collection (V8's `--trace-gc`). */
    peak: HeapUsage;
    /** The recognizer isolate's, over the same round. */
    recognizerPeak: HeapUsage;
    /** The collections the peak was read from: the round's and the full one after it. */
    collections: number;
    /** The most used after any of the round's full collections: what the load held live, MB. */
    liveMb: number;
    /** The round's allocations by function (and its caller), garbage included, when asked for (`sample`). */
    allocations?: AllocationSite[];
  }[];
  /**
   * One round more of each load alone, after the measured rounds: which of the two makes the peak
   * (decision 049: the renders' garbage, or the matches').
   */
  alone: {
    load: "renders" | "matches";
    answered: number;
    peak: HeapUsage;
    recognizerPeak: HeapUsage;
    liveMb: number;
  }[];
  /** The recognizer's isolate at recognizerConcurrentMatches matches alone. */
  recognizer: {
    matches: number;
    answered: number;
    failures: Record<string, number>;
    peak: HeapUsage;
    /** The most it held live (after a full collection): what the peak is made of beyond garbage. */
    liveMb: number;
    /** Its allocations by function (and its caller), garbage included, when asked for (`sample`). */
    allocations?: AllocationSite[];
  };
};

/** Match requests of the published probes: catalogue songs' signatures, each a match. */
export function probeBodies(): string[] {
  const file = path.join(root, "origin/catalog/dist/recognition-probes.json");
  const { probes } = v.parse(recognitionProbesSchema, JSON.parse(readFileSync(file, "utf8")));
  return probes.map((probe) =>
    JSON.stringify({
      data: probe.data,
      sessionId: "0f6f2c1e-5b8a-4c7e-9d2a-1b3c4d5e6f70",
      lang: "en",
      country: "GB",
    }),
  );
}

export type Sent = { path: string; method?: string; headers?: Record<string, string>; body?: string };

/**
 * One request on a connection of its own, read to the end: its status. Not keep-alive: workerd
 * (kj's HTTP server) closes a kept-alive connection whose next request it has not read within
 * 5 s of the last answer, and at 100 concurrent renders on a shared machine a request waits about
 * that long, so a reused connection would be reset under the request (what fuzz.ts found).
 */
export function send(base: string, sent: Sent): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      base + sent.path,
      { agent: false, method: sent.method ?? "GET", headers: sent.headers },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(sent.body);
  });
}

/** Clients that each send one request at a time until `until`: `count` requests in flight. */
async function clients(
  base: string,
  count: number,
  until: number,
  next: (n: number) => Sent,
): Promise<{ answered: number; failures: Map<string, number> }> {
  let answered = 0;
  const failures = new Map<string, number>();
  const fail = (reason: string) => failures.set(reason, (failures.get(reason) ?? 0) + 1);
  let n = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (performance.now() < until) {
        try {
          const status = await send(base, next(n++));
          if (status === 200) answered += 1;
          else fail(String(status));
        } catch (error) {
          fail(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  return { answered, failures };
}

export async function measureMemory(
  snapshot: Snapshot,
  rows: Row[],
  /** Production's heap limit (the default), or none, as local workerd runs: for comparison. */
  {
    heapLimit = true,
    renders: renderClients = concurrentRenders,
    matches: matchClients = concurrentMatches,
    sample = false,
  }: {
    heapLimit?: boolean;
    /** Concurrent renders and matches of the measured rounds (`npm run bench:memory -- --renders=N --matches=N`). */
    renders?: number;
    matches?: number;
    /** Sample each measured round's allocations (V8's sampling heap profiler): which code makes the garbage. */
    sample?: boolean;
  } = {},
): Promise<MemoryMeasurement> {
  const inspectorPort = await freePort();
  const recognizerInspectorPort = await freePort();
  const heapLimitMb = heapLimit ? productionHeapLimitMb : undefined;
  const collections: GcEvent[] = [];
  // Its own origin: findPages signs a visitor in, and the link must point back to this site.
  const site = await startOwnOriginSite(snapshot, {
    inspectorPort,
    recognizerInspectorPort,
    recognition: true,
    v8Flags: ["--trace-gc", ...(heapLimit ? productionHeapLimit : [])],
    // Two workerds (the site's, the recognizer's): an isolate is named with its runtime's.
    takeRuntimeLine: (line, runtime) => {
      const event = parseGcLine(line);
      if (event) collections.push({ ...event, isolate: `${runtime}:${event.isolate}` });
      return event !== undefined;
    },
  });
  const heap = await inspectHeap(inspectorPort).catch(async (error) => {
    await site.close();
    throw error;
  });
  try {
    const { pages } = await findPages(site.url);
    const rendered = pages.filter((page) => page.state === "ok");
    if (rendered.length === 0) throw new Error("no page answers 200");
    const bodies = probeBodies();
    const match = (n: number): Sent => ({
      path: "/services/webrec/match",
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": benchClientAddress(n) },
      body: bodies[n % bodies.length],
    });
    const render = (n: number): Sent => {
      const page = rendered[n % rendered.length] ?? rendered[0];
      return { path: page?.path ?? "/", headers: page ? headersOf(page) : {} };
    };
    // Every page rendered and every probe matched once first: compiled code and warm caches are
    // the steady state, not growth.
    for (const page of rendered)
      await (await fetch(site.url + page.path, { headers: headersOf(page) })).text();
    for (let n = 0; n < bodies.length; n++) {
      const status = await send(site.url, match(n));
      if (status !== 200) throw new Error(`webrec/match answered ${status}`);
    }
    const measurement: MemoryMeasurement = {
      heapLimitMb,
      concurrentRenders: renderClients,
      concurrentMatches: matchClients,
      roundSeconds,
      retained: [await heap.afterCollection()],
      rounds: [],
      alone: [],
      recognizer: { matches: 0, answered: 0, failures: {}, peak: { usedMb: 0, totalMb: 0 }, liveMb: 0 },
    };
    const siteIsolate = snapshotIsolate(collections);
    if (!siteIsolate)
      throw new Error("no --trace-gc line of the heap snapshot: the site's isolate is not known");
    // The recognizer's isolate, named the same way: the isolate of the next heap snapshot.
    const recognizerHeap = await inspectHeap(recognizerInspectorPort, recognizerWorkerName);
    await recognizerHeap.afterCollection();
    recognizerHeap.close();
    const recognizerIsolate = snapshotIsolate(collections);
    if (!recognizerIsolate || recognizerIsolate === siteIsolate)
      throw new Error("no --trace-gc line of the recognizer's heap snapshot: its isolate is not known");
    /** One round of `renderers` and `matchers` clients; the heap as the round's collections saw it. */
    const runRound = async (renderers: number, matchers: number, sampled = false) => {
      const until = performance.now() + roundSeconds * 1000;
      const from = collections.length;
      const sampling = sampled ? await heap.sampleAllocations() : undefined;
      const [renders, matches] = await Promise.all([
        clients(site.url, renderers, until, render),
        clients(site.url, matchers, until, match),
      ]);
      const allocations = await sampling?.stop();
      // The full collection after the round reads the heap as the load left it, too.
      const retained = await heap.afterCollection();
      const events = collections.slice(from);
      const { collections: count, ...peak } = gcPeak(events, siteIsolate);
      if (count === 0 && renderers > 0)
        throw new Error("no --trace-gc line of the site's isolate: the peak cannot be read");
      const { collections: _, ...recognizerPeak } = gcPeak(events, recognizerIsolate);
      // The collection the snapshot forced is after the load: the live figure is the round's own.
      const measured = events.filter((event) => event.reason !== "heap profiler");
      const liveMb = gcLive(measured, siteIsolate);
      const recognizerLiveMb = gcLive(measured, recognizerIsolate);
      return {
        renders,
        matches,
        retained,
        peak,
        recognizerPeak,
        count,
        liveMb,
        recognizerLiveMb,
        allocations,
      };
    };
    for (let round = 0; round < rounds; round++) {
      const { renders, matches, retained, peak, recognizerPeak, count, liveMb, allocations } = await runRound(
        renderClients,
        matchClients,
        sample,
      );
      measurement.retained.push(retained);
      measurement.rounds.push({
        renders: renders.answered,
        matches: matches.answered,
        failures: Object.fromEntries([...renders.failures, ...matches.failures]),
        peak,
        recognizerPeak,
        collections: count,
        liveMb,
        ...(allocations ? { allocations: allocations.slice(0, 30) } : {}),
      });
    }
    // With one of the loads at 0 (`--renders=0`, `--matches=0`) the measured rounds are a load alone.
    const mixed = renderClients > 0 && matchClients > 0;
    for (const load of mixed ? (["renders", "matches"] as const) : []) {
      const { renders, matches, peak, recognizerPeak, liveMb } =
        load === "renders" ? await runRound(renderClients, 0) : await runRound(0, matchClients);
      measurement.alone.push({
        load,
        answered: load === "renders" ? renders.answered : matches.answered,
        peak,
        recognizerPeak,
        liveMb,
      });
    }
    const recognizerSampling = sample
      ? await inspectHeap(recognizerInspectorPort, recognizerWorkerName)
      : undefined;
    const recognizerAllocations = await recognizerSampling?.sampleAllocations();
    const recognizerRound = await runRound(0, recognizerConcurrentMatches);
    const recognizerSites = await recognizerAllocations?.stop();
    recognizerSampling?.close();
    measurement.recognizer = {
      matches: recognizerConcurrentMatches,
      answered: recognizerRound.matches.answered,
      failures: Object.fromEntries(recognizerRound.matches.failures),
      peak: recognizerRound.recognizerPeak,
      liveMb: recognizerRound.recognizerLiveMb,
      ...(recognizerSites ? { allocations: recognizerSites.slice(0, 30) } : {}),
    };

    const area = "memory";
    const mb = (value: number) => `${value.toFixed(1)} MB`;
    const limit = heapLimitMb ? `V8 heap limit ${heapLimitMb} MB as in production` : "no V8 heap limit";
    for (const [index, round] of measurement.rounds.entries()) {
      rows.push({
        area,
        item: `site isolate (${limit}), ${renderClients} concurrent renders + ${matchClients} matches through the recognizer, round ${index + 1} (${roundSeconds} s)`,
        figure:
          `heap peak ${mb(round.peak.totalMb)} (used ${mb(round.peak.usedMb)}, over ${round.collections} collections; live after a full one at most ${mb(round.liveMb)}); ` +
          `the recognizer's isolate meanwhile ${mb(round.recognizerPeak.totalMb)}; ` +
          `${round.renders} pages, ${round.matches} matches` +
          (Object.keys(round.failures).length > 0 ? `, failed: ${JSON.stringify(round.failures)}` : ""),
        budget: `≤ ${siteHeapBudgetMb} MB`,
        verdict:
          Object.keys(round.failures).length > 0 ? "FAIL" : atMost(round.peak.totalMb, siteHeapBudgetMb),
      });
    }
    const { recognizer } = measurement;
    rows.push({
      area,
      item: `recognizer isolate (${limit}), ${recognizer.matches} concurrent matches alone (${roundSeconds} s)`,
      figure:
        `heap peak ${mb(recognizer.peak.totalMb)} (used ${mb(recognizer.peak.usedMb)}; live after a full collection at most ${mb(recognizer.liveMb)}); ${recognizer.answered} matches` +
        (Object.keys(recognizer.failures).length > 0
          ? `, failed: ${JSON.stringify(recognizer.failures)}`
          : ""),
      budget: `≤ ${isolateHeapBudgetMb} MB`,
      verdict:
        Object.keys(recognizer.failures).length > 0
          ? "FAIL"
          : atMost(recognizer.peak.totalMb, isolateHeapBudgetMb),
    });
    for (const alone of measurement.alone) {
      const count = alone.load === "renders" ? renderClients : matchClients;
      rows.push({
        area,
        item: `the site's isolate, ${count} concurrent ${alone.load} alone (${roundSeconds} s)`,
        figure: `heap peak ${mb(alone.peak.totalMb)} (used ${mb(alone.peak.usedMb)}; live after a full collection at most ${mb(alone.liveMb)}); the recognizer's ${mb(alone.recognizerPeak.totalMb)}; ${alone.answered} ${alone.load === "renders" ? "pages" : "matches"}`,
        budget: "",
        verdict: "info",
      });
    }
    rows.push({
      area,
      item: `site isolate (${limit}), retained after a full collection: before, after each round`,
      figure: measurement.retained.map((usage) => mb(usage.usedMb)).join(" → "),
      budget: "",
      verdict: "info",
    });
    return measurement;
  } finally {
    heap.close();
    await site.close();
  }
}
