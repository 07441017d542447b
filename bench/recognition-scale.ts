/**
 * Recognition at catalogue scale: the matcher over the index loaded whole into memory
 * (as the match service once held it) and over the recognition store in D1 (decision 029), at 1×,
 * 10× and 100× today's index. Beyond the real index, each hash's bucket gets (k - 1) times its own
 * size of generated entries (bench/scaled-postings.ts), so the generated index keeps the real
 * distribution of hash frequencies. Queries: noisy excerpts of real recordings (which must still
 * match) and audio in no recording (whose matches are false). Writes
 * bench/results/recognition-scale-<scales>.json.
 *
 *   npx vite-node bench/recognition-scale.ts [--scales 1,10,100] [--store-scales 1,10,100]
 *     [--memory-scales 1] [--shards 1,2,4] [--runs N]
 *
 * The store runs once for each shard count of --shards (default 1): Miniflare with that many D1
 * databases (RECOGNITION, RECOGNITION_1, …), each grown through its binding from its own rows.
 *
 * The in-memory index runs in Node at every scale; in a workerd isolate at --memory-scales (the
 * isolate holds it, 230 MiB at 10×). The store runs in a workerd isolate (bench/recognition-worker.ts,
 * Miniflare with its own database under .wrangler/bench-recognition-scale, deleted after the run),
 * grown there through its binding from the published index: a 2.3 GB load through Miniflare's
 * proxy from Node took twenty minutes and more. Each isolate's heap is read through the inspector.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Miniflare } from "miniflare";
import { decodeAudioFile } from "#origin/catalog/audio-decode.ts";
import { addNoise, noise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import { forwardRuntimeOutput } from "#scripts/site.ts";
import { productionHeapLimit, startWithV8Flags } from "#scripts/v8-flags.ts";
import {
  computeSignature,
  decodeSignatureBase64,
  encodeSignatureBase64,
  loadIndex,
  matchSignatureIn,
  type Signature,
  type TrackIndex,
  trackIndexStore,
} from "#signature/index.ts";
import { readPublishedIndex, root } from "#tools/recognition-store/published-index.ts";
import { bundleBenchWorker } from "./bundle-worker";
import { freePort } from "./free-port";
import { type GcEvent, gcLive, gcPeak, parseGcLine, snapshotIsolate } from "./gc-trace";
import { connectInspector, type Inspector } from "./inspector";
import { generatedTrackCount, scaledBucket } from "./scaled-postings";

const args = process.argv.slice(2);
function listOption(name: string, fallback: number[]): number[] {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? "").split(",").map(Number) : fallback;
}
const scales = listOption("--scales", [1, 10, 100]);
const storeScales = new Set(listOption("--store-scales", [1, 10, 100]));
const memoryScales = new Set(listOption("--memory-scales", [1]));
/** The store split over this many databases, one store run each (decision 029, "Past one database"). */
const shardCounts = listOption("--shards", [1]);
const RATE = 16000;
const EXCERPT_SECONDS = 6;
const POSITIVES = 12;
const NEGATIVES = 24;
/** Each query is run this many times for the latency (accuracy and false matches count the first run). */
const RUNS = listOption("--runs", [1])[0] ?? 1;

type Query = { name: string; trackKey: string | null; signature: Signature };

/** Noisy 6 s excerpts (pink noise at 10 dB) of evenly spread catalogue recordings, and the builder's probes. */
async function positiveQueries(): Promise<Query[]> {
  const catalogue = JSON.parse(readFileSync(path.join(root, "origin/catalog/dist/catalog.json"), "utf8")) as {
    tracks: { key: number; audioFile: string }[];
  };
  const probes = JSON.parse(
    readFileSync(path.join(root, "origin/catalog/dist/recognition-probes.json"), "utf8"),
  ) as { probes: { trackKey: string; data: string }[] };
  const random = seededRandom(29);
  const queries: Query[] = probes.probes.map((probe) => ({
    name: `probe ${probe.trackKey}`,
    trackKey: probe.trackKey,
    signature: decodeSignatureBase64(probe.data),
  }));
  const every = Math.max(1, Math.floor(catalogue.tracks.length / POSITIVES));
  for (
    let i = 0;
    i < catalogue.tracks.length && queries.length < probes.probes.length + POSITIVES;
    i += every
  ) {
    const track = catalogue.tracks[i];
    if (!track) continue;
    const audio = await decodeAudioFile(track.audioFile);
    const length = EXCERPT_SECONDS * audio.sampleRate;
    const from = Math.floor(audio.samples.length * (0.2 + 0.6 * random()));
    const excerpt = audio.samples.slice(from, Math.min(audio.samples.length, from + length));
    const noisy = addNoise(excerpt, audio.sampleRate, 10, "pink", random);
    queries.push({
      name: `excerpt ${track.key}`,
      trackKey: String(track.key),
      signature: computeSignature(noisy, audio.sampleRate),
    });
  }
  return queries;
}

/** Audio in no recording: noise, steady tones and random melodies. */
function negativeQueries(): Query[] {
  const random = seededRandom(2929);
  const length = EXCERPT_SECONDS * RATE;
  const queries: Query[] = [];
  for (let i = 0; i < NEGATIVES; i++) {
    const samples = new Float32Array(length);
    const kind = i % 3;
    if (kind === 0) samples.set(noise(length, RATE, "pink", random).map((x) => 0.1 * x));
    else if (kind === 1) {
      const frequencies = [0, 1, 2].map(() => 100 + random() * 3000);
      for (let j = 0; j < length; j++)
        samples[j] = frequencies.reduce((sum, f) => sum + 0.1 * Math.sin((2 * Math.PI * f * j) / RATE), 0);
    } else {
      const note = RATE / 4;
      let f = 220;
      for (let j = 0; j < length; j++) {
        if (j % note === 0) f = 110 * 2 ** (Math.floor(random() * 36) / 12);
        let v = 0;
        for (let h = 1; h <= 4; h++) v += Math.sin((2 * Math.PI * f * h * j) / RATE) / h;
        samples[j] = 0.1 * Math.exp(-((j % note) / note) * 3) * v;
      }
    }
    queries.push({ name: `negative ${i}`, trackKey: null, signature: computeSignature(samples, RATE) });
  }
  return queries;
}

/**
 * The index k times as large, in the index's own file format: each bucket keeps its real entries
 * and gets (k - 1) times as many generated ones (bench/scaled-postings.ts, the rule the store's
 * generation inside workerd follows).
 */
function scaledIndexBytes(real: TrackIndex, k: number): Uint8Array {
  const realTracks = real.trackKeys.length;
  const generatedTracks = generatedTrackCount(realTracks, k);
  const keys = [...real.trackKeys, ...Array.from({ length: generatedTracks }, (_, i) => `generated-${i}`)];
  const frames = Array.from({ length: keys.length }, (_, t) => real.trackFrames[t % realTracks] as number);
  const buckets = real.offsets.length - 1;
  const entryCount = real.entries.length * k;
  const encoded = keys.map((key) => new TextEncoder().encode(key));
  const keyBytes = encoded.reduce((sum, key) => sum + 2 + key.length, 0);
  const entriesStart = 32 + (buckets + 1) * 4;
  const framesStart = entriesStart + entryCount * 4;
  const keysStart = framesStart + keys.length * 4;
  const bytes = new Uint8Array(keysStart + keyBytes);
  // The real index's header (format, parameters, time bits), then this index's counts.
  bytes.set(new Uint8Array(real.offsets.buffer, real.offsets.byteOffset - 32, 32));
  const view = new DataView(bytes.buffer);
  view.setUint32(20, keys.length, true);
  view.setUint32(24, entryCount, true);
  view.setUint32(28, keyBytes, true);
  const offsets = new Uint32Array(bytes.buffer, 32, buckets + 1);
  const entries = new Uint32Array(bytes.buffer, entriesStart, entryCount);
  const generation = { k, timeBits: real.timeBits, trackFrames: real.trackFrames };
  let at = 0;
  for (let h = 0; h < buckets; h++) {
    offsets[h] = at;
    const start = real.offsets[h] as number;
    const end = real.offsets[h + 1] as number;
    const size = (end - start) * k;
    scaledBucket(h, real.entries.subarray(start, end), generation, entries.subarray(at, at + size));
    at += size;
  }
  offsets[buckets] = at;
  new Uint32Array(bytes.buffer, framesStart, keys.length).set(frames);
  let k2 = keysStart;
  for (const key of encoded) {
    view.setUint16(k2, key.length, true);
    bytes.set(key, k2 + 2);
    k2 += 2 + key.length;
  }
  return bytes;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

type Measured = {
  p50Ms: number;
  p99Ms: number;
  accuracy: number;
  falseMatchRate: number;
  /** What the process holds between requests for its postings (Node, the index in memory). */
  residentBytes?: number;
  /** The largest postings one step of a query held (all the index, in memory in Node). */
  stepBytes?: number;
  coldStartMs: number;
  roundTrips?: number;
  /** The workerd isolate's memory (JS heap and ArrayBuffers) at rest after a full collection. */
  heapAtRestMb?: number;
  /**
   * Its JS heap while the queries ran (V8's --trace-gc): the most held live (after a full
   * collection) and the high point (before a collection, garbage included).
   */
  heapLiveMb?: number;
  heapHighMb?: number;
};

type Answer = { trackKey: string | null; trips: number; stepBytes: number };

async function measure(
  queries: Query[],
  match: (query: Query) => Promise<Answer>,
): Promise<Omit<Measured, "coldStartMs">> {
  const times: number[] = [];
  let right = 0;
  let wrong = 0;
  let stepBytes = 0;
  let trips = 0;
  for (let run = 0; run < RUNS; run++) {
    for (const query of queries) {
      const started = performance.now();
      const answer = await match(query);
      times.push(performance.now() - started);
      stepBytes = Math.max(stepBytes, answer.stepBytes);
      trips = Math.max(trips, answer.trips);
      if (run > 0) continue;
      if (query.trackKey !== null && answer.trackKey === query.trackKey) right++;
      if (query.trackKey === null && answer.trackKey !== null) wrong++;
    }
  }
  const positives = queries.filter((q) => q.trackKey !== null).length;
  return {
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    accuracy: right / positives,
    falseMatchRate: wrong / (queries.length - positives),
    stepBytes,
    roundTrips: trips,
  };
}

const workerName = "recognition-bench";
/** The store's databases, apart from the one `npm start` uses; deleted after the run (2.3 GB at 100×). */
const persistTo = path.join(root, `.wrangler/bench-recognition-scale-${process.pid}`);

/** The store's bindings in `shards` databases: RECOGNITION, RECOGNITION_1, … (rules/env.ts recognitionShards). */
function shardBindings(shards: number): string[] {
  return Array.from({ length: shards }, (_, shard) => (shard === 0 ? "RECOGNITION" : `RECOGNITION_${shard}`));
}

function bench(
  script: string,
  shards: number,
  inspectorPort?: number,
  takeLine?: (line: string) => boolean,
): Miniflare {
  return new Miniflare({
    name: workerName,
    modules: true,
    script,
    compatibilityDate: "2025-07-01",
    d1Databases: shardBindings(shards),
    bindings: { RECOGNITION_SHARDS: String(shards) },
    // Each shard count its own store, grown scale after scale.
    d1Persist: path.join(persistTo, `shards-${shards}`, "d1"),
    inspectorPort,
    handleRuntimeStdio: takeLine
      ? (stdout, stderr) => forwardRuntimeOutput(stdout, stderr, takeLine)
      : undefined,
  });
}

/**
 * A POST, sent again once when its connection was reset: workerd closes a kept-alive connection
 * it has not read from for 5 s, and a loaded machine reaches that between two queries (see
 * bench/memory.ts). Every request here can run twice.
 */
async function post(mf: Miniflare, pathname: string, body: string | Uint8Array): Promise<Response> {
  const url = new URL(pathname, await mf.ready);
  const send = () => fetch(url, { method: "POST", body: body as BodyInit });
  const response = await send().catch((error: unknown) => {
    console.error(
      `  ${pathname}: ${(error as Error).message} (${String((error as Error).cause)}): sent again`,
    );
    return send();
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** The hashes the generation requests cover at once: about 45 k real entries, 18 MB at 100×. */
const generationRange = 2 ** 14;

/**
 * Makes the store k times as large: the published index loaded first (inside workerd, through the
 * binding), then each range of hashes generated from the scale it holds (bench/scaled-postings.ts).
 */
async function growStore(
  script: string,
  shards: number,
  from: number,
  k: number,
  published: Uint8Array,
  sha: string,
  scaled: TrackIndex,
): Promise<number> {
  const mf = bench(script, shards);
  try {
    const started = performance.now();
    const grownFrom = from;
    let generation = { k, timeBits: scaled.timeBits, trackFrames: [] as number[] };
    if (from === 0) {
      const migration = readFileSync(
        path.join(root, "recognizer/migrations/0001_recognition_store.sql"),
        "utf8",
      );
      for (const binding of shardBindings(shards)) {
        const db = (await mf.getD1Database(binding)) as unknown as D1Database;
        await db.batch(
          migration
            .split(";")
            .map((statement) => statement.replace(/--.*$/gm, "").trim())
            .filter((statement) => statement.length > 0)
            .map((statement) => db.prepare(statement)),
        );
      }
      await post(mf, `/load?sha=${sha}`, published);
      from = 1;
    }
    const realTracks = scaled.trackKeys.length / k;
    generation = { ...generation, trackFrames: [...scaled.trackFrames.subarray(0, realTracks)] };
    if (k > from) {
      for (let start = 0; start + 1 < scaled.offsets.length; start += generationRange) {
        await post(
          mf,
          "/generate",
          JSON.stringify({ start, end: start + generationRange, from, generation }),
        );
      }
      await post(
        mf,
        "/generated-tracks",
        JSON.stringify({ generation, commonBucketSize: scaled.commonBucketSize }),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    console.error(`${k}×: store in ${shards} shard(s) grown from ${grownFrom}× in ${seconds.toFixed(1)} s`);
    return seconds;
  } finally {
    await mf.dispose();
  }
}

/**
 * The isolate's memory, MB: its JS heap and its ArrayBuffers' backing stores (where an index held
 * in memory lives), both counted against its 128 MB.
 */
async function isolateMemory(inspector: Inspector): Promise<number> {
  const usage = await inspector.call<Record<string, number>>("Runtime.getHeapUsage");
  return ((usage.usedSize ?? Number.NaN) + (usage.backingStorageSize ?? 0)) / 2 ** 20;
}

/**
 * The queries in a fresh workerd isolate, its memory read through the inspector (isolateMemory)
 * at rest after a full collection (once the queries ran; workerd's inspector does not answer
 * HeapProfiler.collectGarbage, a heap snapshot collects first, bench/heap.ts), and its JS heap
 * from V8's --trace-gc while they ran: what it held live and its high point (bench/gc-trace.ts).
 * Cold start: the first query (with the index's upload and load, in memory).
 */
async function inIsolate(script: string, queries: Query[], held?: Uint8Array, shards = 1): Promise<Measured> {
  const inspectorPort = await freePort();
  const collections: GcEvent[] = [];
  const takeLine = (line: string) => {
    const event = parseGcLine(line);
    if (event) collections.push(event);
    return event !== undefined;
  };
  // The store's isolate runs under production's heap limit (scripts/v8-flags.ts): a match that needs
  // more than an isolate has aborts workerd and fails the bench. The index held in memory cannot
  // (230 MiB at 10×), and runs without one.
  const flags = ["--trace-gc", ...(held ? [] : productionHeapLimit)];
  const mf = await startWithV8Flags(flags, async () => {
    const started = bench(script, shards, inspectorPort, takeLine);
    await started.ready;
    return started;
  });
  try {
    const inspector = await connectInspector(inspectorPort, workerName);
    try {
      const store = held ? "memory" : "d1";
      const coldFrom = performance.now();
      if (held) await post(mf, "/memory", held);
      const match = async (query: Query) =>
        (await (
          await post(mf, `/match?store=${store}`, encodeSignatureBase64(query.signature))
        ).json()) as Answer;
      const first = queries[0];
      if (!first) throw new Error("no queries");
      await match(first);
      const coldStartMs = performance.now() - coldFrom;
      const from = collections.length;
      const measured = await measure(queries, match);
      const during = collections.slice(from);
      await inspector.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      const rest = await isolateMemory(inspector);
      // The snapshot's collection names the bench worker's isolate among Miniflare's own.
      const isolate = snapshotIsolate(collections);
      if (!isolate) throw new Error("no --trace-gc line of the heap snapshot's collection");
      return {
        ...measured,
        coldStartMs,
        heapAtRestMb: rest,
        heapLiveMb: gcLive(during, isolate),
        heapHighMb: gcPeak(during, isolate).usedMb,
      };
    } finally {
      inspector.close();
    }
  } finally {
    await mf.dispose();
  }
}

type Entry = {
  entries: number;
  megabytes: number;
  node?: Measured;
  memory?: Measured;
  /** The store by shard count, with the seconds its growth to this scale took. */
  stores?: Record<number, Measured & { grownSeconds: number }>;
};

async function main(): Promise<void> {
  const published = await readPublishedIndex();
  const publishedBytes = await readPublishedBytes();
  const queries = [...(await positiveQueries()), ...negativeQueries()];
  console.error(`${queries.length} queries`);
  const results: Record<string, Entry> = {};
  const script = await bundleBenchWorker("recognition-worker.ts");
  rmSync(persistTo, { recursive: true, force: true });
  const storeScale = new Map<number, number>();
  try {
    for (const k of scales) {
      const bytes = k === 1 ? publishedBytes : scaledIndexBytes(published.index, k);
      // Cold start of the index in memory: hash the bytes and read their tables, as each isolate did.
      const coldStarted = performance.now();
      // In parts: a hash takes at most 2 GiB an update (the index is 2.3 GiB at 100×).
      const hash = createHash("sha256");
      for (let at = 0; at < bytes.length; at += 2 ** 30) hash.update(bytes.subarray(at, at + 2 ** 30));
      const sha = hash.digest("hex");
      const index = loadIndex(bytes);
      const nodeCold = performance.now() - coldStarted;
      const entry: Entry = { entries: index.entries.length, megabytes: bytes.length / 2 ** 20 };
      const node = await measure(queries, async (query) => {
        const tally = { trips: 0, stepBytes: 0 };
        const found = await matchSignatureIn(trackIndexStore(index), query.signature);
        return { trackKey: found?.trackKey ?? null, ...tally };
      });
      entry.node = { ...node, residentBytes: bytes.length, stepBytes: bytes.length, coldStartMs: nodeCold };
      console.error(`${k}×: in memory (Node) p50 ${node.p50Ms.toFixed(1)} ms`);
      if (memoryScales.has(k)) {
        // The isolate holds the index between requests, and its lookups are no round trips.
        entry.memory = {
          ...(await inIsolate(script, queries, bytes)),
          residentBytes: bytes.length,
          roundTrips: 0,
        };
        console.error(`${k}×: in memory (workerd) p50 ${entry.memory.p50Ms.toFixed(1)} ms`);
      }
      if (storeScales.has(k)) {
        entry.stores = {};
        for (const shards of shardCounts) {
          const grownSeconds = await growStore(
            script,
            shards,
            storeScale.get(shards) ?? 0,
            k,
            publishedBytes,
            sha,
            index,
          );
          storeScale.set(shards, k);
          const store = { ...(await inIsolate(script, queries, undefined, shards)), grownSeconds };
          entry.stores[shards] = store;
          console.error(`${k}×: D1 store in ${shards} shard(s) (workerd) p50 ${store.p50Ms.toFixed(1)} ms`);
        }
      }
      results[`${k}x`] = entry;
      // Each scale's rows as soon as they are measured: the next scale takes long, and may fail.
      report({ [`${k}x`]: entry });
      write(results, queries.length);
    }
  } finally {
    rmSync(persistTo, { recursive: true, force: true });
  }
}

function write(results: Record<string, Entry>, queries: number): void {
  const out = path.join(root, "bench/results");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    path.join(out, `recognition-scale-${Object.keys(results).join("-")}.json`),
    `${JSON.stringify({ date: new Date().toISOString(), queries, results }, null, 2)}\n`,
  );
}

async function readPublishedBytes(): Promise<Uint8Array> {
  const manifest = JSON.parse(
    readFileSync(path.join(root, "public/media/recognition/manifest.json"), "utf8"),
  ) as {
    parts: { path: string }[];
  };
  return new Uint8Array(
    Buffer.concat(manifest.parts.map((part) => readFileSync(path.join(root, "public", part.path)))),
  );
}

function report(results: Record<string, Entry>) {
  const mib = (bytes: number | undefined) =>
    bytes === undefined ? "" : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const mb = (value: number | undefined) => (value === undefined ? "" : `${value.toFixed(1)} MB`);
  const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
  console.log(
    "| index | matcher over | p50 | p99 | round trips | held between requests | held by one step (largest) | isolate memory at rest (after GC) | JS heap held live (largest after a full GC) | JS heap high point (garbage included) | cold start (first query) | accuracy | false matches |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const [scale, entry] of Object.entries(results)) {
    for (const [name, m] of [
      ["in memory, Node", entry.node],
      ["in memory, workerd", entry.memory],
      ...Object.entries(entry.stores ?? {}).map(
        ([shards, store]) =>
          [`D1 store, ${shards} shard${shards === "1" ? "" : "s"}, workerd`, store] as const,
      ),
    ] as const) {
      if (!m) continue;
      console.log(
        `| ${scale} (${entry.megabytes.toFixed(0)} MiB) | ${name} | ${m.p50Ms.toFixed(1)} ms | ${m.p99Ms.toFixed(1)} ms | ${m.roundTrips ?? 0} | ${mib(m.residentBytes ?? 0)} | ${mib(m.stepBytes)} | ${mb(m.heapAtRestMb)} | ${m.heapLiveMb === 0 ? "no full GC" : mb(m.heapLiveMb)} | ${mb(m.heapHighMb)} | ${m.coldStartMs.toFixed(0)} ms | ${pct(m.accuracy)} | ${pct(m.falseMatchRate)} |`,
      );
    }
  }
}

await main();
