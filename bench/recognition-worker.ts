/**
 * The scale bench's worker (bench/recognition-scale.ts), run in workerd so that the match's memory
 * is an isolate's, read through the inspector: the match service's matcher over the recognition
 * store (binding RECOGNITION) or over an index posted to it and held in memory, and the store's
 * generation k times as large, done here through the binding (a 2.3 GB load through Miniflare's
 * proxy from Node takes twenty minutes and more).
 */
import { loadStore, recognitionStore, storeRows, writePostings } from "#recognizer/store.ts";
import { type RecognitionShardBindings, recognitionShards } from "#rules/env.ts";
import {
  decodeSignatureBase64,
  loadIndex,
  matchSignatureIn,
  type PostingsStore,
  type TrackIndex,
  trackIndexStore,
} from "#signature/index.ts";
import { type Generation, generatedTrackCount, scaledBucket } from "./scaled-postings";

/** The store's databases: RECOGNITION, and RECOGNITION_1 … when RECOGNITION_SHARDS says so. */
type Env = { RECOGNITION: D1Database; RECOGNITION_SHARDS?: string } & RecognitionShardBindings;

/** The index posted to /memory, held between requests as the match service once held it. */
let held: TrackIndex | undefined;

/** Counts a match's lookups and the largest step's postings (what the match held at once). */
function counted(store: PostingsStore) {
  const tally = { trips: 0, stepBytes: 0 };
  const wrapped: PostingsStore = {
    async lookup(request) {
      tally.trips++;
      const lists = await store.lookup(request);
      if (request.read === "postings") {
        let bytes = 0;
        for (const hash of request.hashes) bytes += lists.postings(hash).byteLength;
        tally.stepBytes = Math.max(tally.stepBytes, bytes);
      }
      return lists;
    },
    trackKey: async (track) => {
      tally.trips++;
      return store.trackKey(track);
    },
  };
  return { store: wrapped, tally };
}

const hexValue = (code: number) => (code <= 57 ? code - 48 : (code & 0xdf) - 55);

/**
 * Generates a shard of the store k times as large from the one `from` times as large, for its
 * hashes in [start, end): each bucket's first size/from entries are the real ones
 * (bench/scaled-postings.ts).
 */
async function generate(db: D1Database, start: number, end: number, from: number, generation: Generation) {
  const { results } = await db
    .prepare("SELECT hash, hex(entries) AS entries FROM recognition_postings WHERE hash >= ?1 AND hash < ?2")
    .bind(start, end)
    .all<{ hash: number; entries: string }>();
  function* rows(): Generator<[number, Uint8Array]> {
    for (const { hash, entries } of results) {
      const realBytes = entries.length / 2 / from;
      const real = new Uint8Array(realBytes);
      for (let i = 0; i < realBytes; i++)
        real[i] = (hexValue(entries.charCodeAt(2 * i)) << 4) | hexValue(entries.charCodeAt(2 * i + 1));
      const out = new Uint32Array((realBytes / 4) * generation.k);
      scaledBucket(hash, new Uint32Array(real.buffer), generation, out);
      yield [hash, new Uint8Array(out.buffer)];
    }
  }
  return writePostings(db, rows());
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const shards = recognitionShards(env);
    const [db] = shards as [D1Database];
    switch (url.pathname) {
      case "/load": {
        // The published index (posted), loaded into the store as `npm start` loads it.
        const index = loadIndex(new Uint8Array(await request.arrayBuffer()));
        const { hashes } = await loadStore(
          shards,
          storeRows(index, url.searchParams.get("sha") ?? "", "scale 1", shards.length),
        );
        return Response.json({ hashes, trackFrames: index.trackFrames, timeBits: index.timeBits });
      }
      case "/generate": {
        const { start, end, from, generation } = (await request.json()) as {
          start: number;
          end: number;
          from: number;
          generation: Generation;
        };
        // Each shard grows its own rows, at once.
        const counts = await Promise.all(
          shards.map((shard) => generate(shard, start, end, from, generation)),
        );
        return Response.json({ hashes: counts.reduce((sum, n) => sum + n, 0) });
      }
      case "/generated-tracks": {
        // The generated tracks' keys and the layout of the index k times as large, written last.
        const { generation, commonBucketSize } = (await request.json()) as {
          generation: Generation;
          commonBucketSize: number;
        };
        const real = generation.trackFrames.length;
        const keys = Array.from({ length: generatedTrackCount(real, generation.k) }, (_, i) => [
          real + i,
          `generated-${i}`,
        ]);
        for (let at = 0; at < keys.length; at += 20_000) {
          await db
            .prepare(
              "INSERT OR REPLACE INTO recognition_tracks (track, track_key) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1)",
            )
            .bind(JSON.stringify(keys.slice(at, at + 20_000)))
            .run();
        }
        for (const shard of shards) {
          await shard.batch([
            shard
              .prepare("UPDATE recognition_meta SET value = ?1 WHERE key = 'common_bucket_size'")
              .bind(String(commonBucketSize)),
            shard
              .prepare("UPDATE recognition_meta SET value = ?1 WHERE key = 'catalog_version'")
              .bind(`scale ${generation.k}`),
          ]);
        }
        return Response.json({ tracks: keys.length });
      }
      case "/memory": {
        held = loadIndex(new Uint8Array(await request.arrayBuffer()));
        return Response.json({ entries: held.entries.length });
      }
      case "/match": {
        const signature = decodeSignatureBase64(await request.text());
        const inMemory = url.searchParams.get("store") === "memory";
        if (inMemory && !held) return new Response("no index held", { status: 409 });
        const { store, tally } = counted(inMemory && held ? trackIndexStore(held) : recognitionStore(shards));
        const match = await matchSignatureIn(store, signature);
        return Response.json({ trackKey: match?.trackKey ?? null, ...tally });
      }
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
