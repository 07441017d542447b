/**
 * Recognition at catalogue scale (issue 29): the match service's two postings stores side by side,
 * the index loaded whole into memory (today's) and the recognition store in D1 (Miniflare's, the
 * D1 of `npm start` and the worker tests), at 1×, 10× and 100× today's index. Beyond the real
 * index, each hash's bucket gets (k - 1) times its own size of generated entries (tracks that are
 * in no recording, frames at random), so the generated index keeps the real distribution of hash
 * frequencies. Queries: noisy excerpts of real recordings (which must still match) and audio in no
 * recording (whose matches are false). Writes bench/results/recognition-scale.json.
 *
 *   npx vite-node bench/recognition-scale.ts [--scales 1,10,100] [--store-scales 1] [--runs N]
 *
 * The store is loaded at 1× only by default (--store-scales 1,10 for more): the 10× store (230 MB of
 * postings) takes a minute or two to load, and 100× (2.3 GB) twenty or more. Miniflare's proxy from
 * Node to workerd now and then drops a connection on these long loads ("other side closed"): a
 * statement whose answer was lost is sent again (retried), which every load statement allows.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Miniflare } from "miniflare";
import { loadStore, recognitionStore, storeRows } from "../origin/recognition-store";
import {
  computeSignature,
  decodeSignatureBase64,
  loadIndex,
  matchSignature,
  matchSignatureIn,
  type PostingsStore,
  type Signature,
  type TrackIndex,
} from "../signature/index";
import { decodeAudioFile } from "../tools/audio/decode";
import { addNoise, noise, seededRandom } from "../tools/audio/degrade";
import { readPublishedIndex, root } from "../tools/recognition-store/published-index";

const args = process.argv.slice(2);
function listOption(name: string, fallback: number[]): number[] {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? "").split(",").map(Number) : fallback;
}
const scales = listOption("--scales", [1, 10, 100]);
const storeScales = new Set(listOption("--store-scales", [1]));
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
 * and gets (k - 1) times as many generated ones, from generated tracks of the real tracks' lengths.
 */
function scaledIndexBytes(real: TrackIndex, k: number): Uint8Array {
  const realTracks = real.trackKeys.length;
  const generatedTracks = realTracks * (k - 1);
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
  const random = seededRandom(k);
  const { timeBits } = real;
  let at = 0;
  for (let h = 0; h < buckets; h++) {
    offsets[h] = at;
    const start = real.offsets[h] as number;
    const end = real.offsets[h + 1] as number;
    entries.set(real.entries.subarray(start, end), at);
    at += end - start;
    for (let n = (end - start) * (k - 1); n > 0; n--) {
      const track = realTracks + Math.floor(random() * generatedTracks);
      const frame = Math.floor(random() * (frames[track] as number));
      entries[at++] = ((track << timeBits) | frame) >>> 0;
    }
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
  /** What the isolate holds between requests for its postings. */
  residentBytes: number;
  /** The largest postings one query held while it ran. */
  perQueryBytes: number;
  coldStartMs: number;
  roundTrips?: number;
};

async function measure(
  queries: Query[],
  match: (signature: Signature) => Promise<string | null>,
  fetched: () => { bytes: number; trips: number },
): Promise<Omit<Measured, "residentBytes" | "coldStartMs">> {
  const times: number[] = [];
  let right = 0;
  let wrong = 0;
  let perQueryBytes = 0;
  let trips = 0;
  for (let run = 0; run < RUNS; run++) {
    for (const query of queries) {
      fetched();
      const started = performance.now();
      const key = await match(query.signature);
      times.push(performance.now() - started);
      const { bytes, trips: made } = fetched();
      perQueryBytes = Math.max(perQueryBytes, bytes);
      trips = Math.max(trips, made);
      if (run > 0) continue;
      if (query.trackKey !== null && key === query.trackKey) right++;
      if (query.trackKey === null && key !== null) wrong++;
    }
  }
  const positives = queries.filter((q) => q.trackKey !== null).length;
  return {
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    accuracy: right / positives,
    falseMatchRate: wrong / (queries.length - positives),
    perQueryBytes,
    roundTrips: trips,
  };
}

/** The statements that may be sent again: reads, and the load's statements (each can run twice). */
const retriedMethods = new Set(["run", "all", "first", "raw"]);

async function again<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 3 || !String((error as Error)?.message).includes("fetch failed")) throw error;
      console.error(`  connection to workerd dropped (${(error as Error).message}): sending again`);
    }
  }
}

/** The database through Miniflare's proxy, each statement sent again when its connection dropped. */
function retried(db: D1Database): D1Database {
  const targets = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (typeof key === "string" && retriedMethods.has(key) && typeof value === "function") {
          return (...args: unknown[]) => again(() => value.apply(target, args));
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    targets.set(proxy, statement);
    return proxy;
  };
  return {
    prepare: (query: string) => wrap(db.prepare(query)),
    batch: (statements: D1PreparedStatement[]) =>
      again(() => db.batch(statements.map((statement) => targets.get(statement) ?? statement))),
    exec: (query: string) => db.exec(query),
    dump: () => db.dump(),
    withSession: (constraint) => db.withSession(constraint),
  } as D1Database;
}

/** A store that counts what its lookups bring back: the postings a query holds while it runs. */
function counted(store: PostingsStore, tally: { bytes: number; trips: number }): PostingsStore {
  return {
    async lookup(request) {
      tally.trips++;
      const lists = await store.lookup(request);
      for (const hash of new Set(request.hashes)) tally.bytes += lists.postings(hash).byteLength;
      return lists;
    },
    trackKey: (track) => store.trackKey(track),
  };
}

async function main(): Promise<void> {
  const published = await readPublishedIndex();
  const queries = [...(await positiveQueries()), ...negativeQueries()];
  console.error(`${queries.length} queries`);
  const results: Record<string, { memory?: Measured; store?: Measured; entries: number; megabytes: number }> =
    {};
  const migration = readFileSync(
    path.join(root, "origin/recognition-migrations/0001_recognition_store.sql"),
    "utf8",
  );
  for (const k of scales) {
    const bytes = k === 1 ? null : scaledIndexBytes(published.index, k);
    // Cold start of the index in memory: hash the bytes and read their tables, as each isolate does.
    const coldStarted = performance.now();
    const source = bytes ?? (await readPublishedBytes());
    const sha = createHash("sha256").update(source).digest("hex");
    const index = loadIndex(source);
    const memoryCold = performance.now() - coldStarted;
    const entry: (typeof results)[string] = {
      entries: index.entries.length,
      megabytes: source.length / 2 ** 20,
    };
    const memoryTally = { bytes: 0, trips: 0 };
    const memory = await measure(
      queries,
      async (signature) => matchSignature(index, signature)?.trackKey ?? null,
      () => {
        const out = { ...memoryTally };
        memoryTally.bytes = 0;
        return out;
      },
    );
    entry.memory = { ...memory, residentBytes: source.length, coldStartMs: memoryCold, roundTrips: 0 };
    console.error(`${k}×: in memory p50 ${memory.p50Ms.toFixed(1)} ms`);
    if (storeScales.has(k)) {
      const mf = new Miniflare({ modules: true, script: "export default {}", d1Databases: ["RECOGNITION"] });
      try {
        const db = retried((await mf.getD1Database("RECOGNITION")) as unknown as D1Database);
        await db.batch(
          migration
            .split(";")
            .map((statement) => statement.replace(/--.*$/gm, "").trim())
            .filter((statement) => statement.length > 0)
            .map((statement) => db.prepare(statement)),
        );
        const loadStarted = performance.now();
        await loadStore(db, storeRows(index, sha, `scale ${k}`));
        console.error(`${k}×: store loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
        const tally = { bytes: 0, trips: 0 };
        const first = queries[0];
        if (!first) throw new Error("no queries");
        const coldFrom = performance.now();
        await matchSignatureIn(counted(recognitionStore(db), tally), first.signature);
        const storeCold = performance.now() - coldFrom;
        const store = await measure(
          queries,
          async (signature) =>
            (await matchSignatureIn(counted(recognitionStore(db), tally), signature))?.trackKey ?? null,
          () => {
            const out = { ...tally };
            tally.bytes = 0;
            tally.trips = 0;
            return out;
          },
        );
        entry.store = { ...store, residentBytes: 0, coldStartMs: storeCold };
        console.error(`${k}×: store p50 ${store.p50Ms.toFixed(1)} ms`);
      } finally {
        await mf.dispose();
      }
    }
    results[`${k}x`] = entry;
  }
  report(results);
  const out = path.join(root, "bench/results");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    path.join(out, "recognition-scale.json"),
    `${JSON.stringify({ date: new Date().toISOString(), queries: queries.length, results }, null, 2)}\n`,
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

function report(
  results: Record<string, { memory?: Measured; store?: Measured; entries: number; megabytes: number }>,
) {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
  console.log(
    "| index | store | p50 | p99 | round trips | held between requests | held by one query | cold start | accuracy | false matches |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const [scale, entry] of Object.entries(results)) {
    for (const [name, m] of [
      ["in memory", entry.memory],
      ["D1 store", entry.store],
    ] as const) {
      if (!m) {
        console.log(`| ${scale} (${entry.megabytes.toFixed(0)} MiB) | ${name} | not loaded | | | | | | | |`);
        continue;
      }
      console.log(
        `| ${scale} (${entry.megabytes.toFixed(0)} MiB) | ${name} | ${m.p50Ms.toFixed(1)} ms | ${m.p99Ms.toFixed(1)} ms | ${m.roundTrips ?? 0} | ${mb(m.residentBytes)} | ${mb(m.perQueryBytes)} | ${m.coldStartMs.toFixed(0)} ms | ${pct(m.accuracy)} | ${pct(m.falseMatchRate)} |`,
      );
    }
  }
}

await main();
