import {
  fetchedPostings,
  type PostingLists,
  type PostingsLayout,
  type PostingsRequest,
  type PostingsStore,
  type TrackIndex,
} from "#signature/index.ts";

/**
 * The recognition store: the index's postings in D1 (binding RECOGNITION), one row a hash, so that
 * no isolate loads the index whole (docs/decisions/029-recognition-store.md). Past one database the
 * rows are split by hash over N databases, the shards (shardOf); the track keys stay in shard 0.
 * The builder's index is written out as rows by storeRows; the match service reads them through
 * recognitionStore.
 */

/**
 * A failure of the store itself (a D1 error, or shards that do not hold one loaded index): the
 * match service answers it as an outage, where any other error of a match is a bug.
 */
export class RecognitionStoreError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "RecognitionStoreError";
  }
}

/** Runs one read of the store; whatever fails in it is the store's failure. */
async function storeRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof RecognitionStoreError ? error : new RecognitionStoreError(error);
  }
}

/** Keys of recognition_meta. */
const metaKeys = {
  sha256: "sha256",
  catalogVersion: "catalog_version",
  timeBits: "time_bits",
  commonBucketSize: "common_bucket_size",
  /** This database's shard number and the shard count (absent in a store loaded before shards: 0 of 1). */
  shard: "shard",
  shards: "shards",
} as const;

/** The shard that holds a hash's row, of `shards`. */
function shardOf(hash: number, shards: number): number {
  return hash % shards;
}

/**
 * Hashes a lookup sends as one JSON array bound to one parameter (D1 binds at most 100). The
 * entries come back as hex: D1 answers a BLOB as a JSON array of numbers, several times the bytes
 * and the parsing.
 */
const lookupStatement =
  "SELECT hash, hex(entries) AS value FROM recognition_postings WHERE hash IN (SELECT value FROM json_each(?1))";

/** The sizes of the hashes' buckets, in entries: SQLite reads a BLOB's length without its content. */
const sizesStatement =
  "SELECT hash, length(entries) / 4 AS value FROM recognition_postings WHERE hash IN (SELECT value FROM json_each(?1))";

/**
 * A row of a lookup as `raw()` answers it: the hash and its value (the bucket's size, or its
 * entries' hex). `all()` made an object of every row (Object.fromEntries in the binding): a third
 * of a match's allocations, where the rows themselves are already arrays in D1's answer.
 */
type StoreRow = [hash: unknown, value: unknown];

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Hex digit values by character code ("0"-"9", "A"-"F", "a"-"f"); 255 for anything else. */
const hexValues = (() => {
  const values = new Uint8Array(128).fill(255);
  for (let i = 0; i < 16; i++) {
    values[i.toString(16).charCodeAt(0)] = i;
    values[i.toString(16).toUpperCase().charCodeAt(0)] = i;
  }
  return values;
})();

/**
 * The rows' entries, from the hex of their little-endian bytes, decoded into `into` from entry `at`
 * on (into a larger copy when it is too small), one after the other, each row's entries a view on
 * the buffer and set in `found`. Returns the buffer and where the next rows go.
 */
function decodeEntries(
  rows: readonly StoreRow[],
  into: Uint32Array,
  at: number,
  found: Map<number, Uint32Array>,
): { buffer: Uint32Array; at: number } {
  if (!LITTLE_ENDIAN) throw new RangeError("The postings need a little-endian platform");
  let total = at;
  for (const [, hex] of rows) {
    if (typeof hex !== "string" || hex.length % 8 !== 0)
      throw new Error("recognition store: bad postings row");
    total += hex.length / 8;
  }
  let buffer = into;
  if (buffer.length < total) {
    // The views already handed out keep the old buffer's entries; the copy holds them too.
    buffer = new Uint32Array(Math.max(total, 2 * buffer.length));
    buffer.set(into.subarray(0, at));
  }
  const bytes = new Uint8Array(buffer.buffer);
  let next = at;
  for (const [hash, value] of rows) {
    const hex = value as string;
    const start = 4 * next;
    for (let i = 0; i < hex.length / 2; i++) {
      const high = hexValues[hex.charCodeAt(2 * i)] ?? 255;
      const low = hexValues[hex.charCodeAt(2 * i + 1)] ?? 255;
      if (high === 255 || low === 255) throw new Error("recognition store: bad postings row");
      bytes[start + i] = (high << 4) | low;
    }
    found.set(Number(hash), buffer.subarray(next, next + hex.length / 8));
    next += hex.length / 8;
  }
  return { buffer, at: next };
}

/**
 * The entries one postings query reads at most (by the sizes the step read before): a step's
 * postings (up to MATCH_STEP_ENTRIES) come in several queries, one after the other, each decoded
 * before the next is sent. D1 answers a query as one JSON text, parsed whole, two hex characters a
 * byte: a step in one query made 4 MiB of text and 4 MiB of parsed strings at once, and six
 * matches in their steps at once filled the recognizer's heap (docs/decisions/052-recognizer-worker.md).
 */
const POSTINGS_QUERY_ENTRIES = 2 ** 17;

/**
 * `hashes` in their order, in groups of at most POSTINGS_QUERY_ENTRIES entries by `size` (a hash
 * whose size is not known, or larger on its own, is a group of its own).
 */
function postingsQueries(hashes: readonly number[], size: (hash: number) => number | undefined): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  let entries = 0;
  for (const hash of hashes) {
    const own = size(hash) ?? POSTINGS_QUERY_ENTRIES;
    if (group.length > 0 && entries + own > POSTINGS_QUERY_ENTRIES) {
      groups.push(group);
      group = [];
      entries = 0;
    }
    group.push(hash);
    entries += own;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * The layout the shards' recognition_meta agree on. Each must hold one index (the same SHA-256 and
 * layout) and name itself shard `i` of as many as there are: shards of two loads, or a database
 * bound as the wrong shard, would answer another index's postings, so they answer an error instead.
 */
function layoutOf(shardsMeta: readonly (readonly { key: string; value: string }[])[]): PostingsLayout {
  let first: { sha256: string | undefined; timeBits: number; commonBucketSize: number } | undefined;
  for (const [shard, rows] of shardsMeta.entries()) {
    const meta = new Map(rows.map((row) => [row.key, row.value]));
    const timeBits = Number(meta.get(metaKeys.timeBits));
    const commonBucketSize = Number(meta.get(metaKeys.commonBucketSize));
    if (!Number.isInteger(timeBits) || !Number.isInteger(commonBucketSize) || timeBits < 1) {
      throw new Error(`recognition store: shard ${shard} not loaded (no layout in recognition_meta)`);
    }
    if (
      Number(meta.get(metaKeys.shard) ?? 0) !== shard ||
      Number(meta.get(metaKeys.shards) ?? 1) !== shardsMeta.length
    ) {
      throw new Error(
        `recognition store: database ${shard} holds shard ${meta.get(metaKeys.shard) ?? 0} of ${meta.get(metaKeys.shards) ?? 1}, not of ${shardsMeta.length}`,
      );
    }
    const layout = { sha256: meta.get(metaKeys.sha256), timeBits, commonBucketSize };
    first ??= layout;
    if (
      layout.sha256 !== first.sha256 ||
      layout.timeBits !== first.timeBits ||
      layout.commonBucketSize !== first.commonBucketSize
    ) {
      throw new Error(`recognition store: shard ${shard} holds another index than shard 0`);
    }
  }
  if (!first) throw new Error("recognition store: no database");
  return { timeBits: first.timeBits, commonBucketSize: first.commonBucketSize };
}

/** The hashes of a request by shard, in the request's order. */
function hashesByShard(hashes: readonly number[], shards: number): number[][] {
  if (shards === 1) return [hashes as number[]];
  const split: number[][] = Array.from({ length: shards }, () => []);
  for (const hash of hashes) split[shardOf(hash, shards)]?.push(hash);
  return split;
}

/**
 * The store as the matcher reads it, for one match: a lookup of sizes is one wave of queries, one a
 * shard holding some of its hashes, sent at once (the first also reads every shard's layout, in
 * the same batch); a lookup of the postings the matcher chose by those sizes is as many waves, one
 * after the other, as POSTINGS_QUERY_ENTRIES splits it into; the shards' answers are merged. Each
 * answer replaces the last, in the same buffer: a match holds one step's
 * postings at a time (at most MATCH_STEP_ENTRIES), and nothing outlives the request, so the
 * isolate's memory does not grow with the index. Make one a match: matches running at once in an
 * isolate must not share it.
 */
export function recognitionStore(shards: readonly D1Database[]): PostingsStore {
  const [trackShard] = shards;
  if (!trackShard) throw new Error("recognition store: no database");
  let layout: PostingsLayout | undefined;
  const none = new Map<number, never>();
  // The sizes the last "sizes" lookup read: the step's postings lookup that follows is split by them.
  let sizes = new Map<number, number>();
  // One buffer for every step's postings (a step asks at most MATCH_STEP_ENTRIES): each answer
  // overwrites the last, which the matcher no longer reads, so a match leaves one buffer of
  // garbage rather than one a step (memory outside the JS heap, counted against the isolate too).
  let postings: Uint32Array = new Uint32Array(0);

  /** One wave of queries, one a shard holding some of `hashes` (the first wave reads the layout too). */
  async function wave(sql: string, hashes: readonly number[]): Promise<readonly StoreRow[]> {
    const split = hashesByShard(hashes, shards.length);
    let answers: (readonly StoreRow[])[];
    if (!layout) {
      const batches = await Promise.all(
        shards.map((db, shard) =>
          db.batch<Record<string, unknown>>([
            db.prepare("SELECT key, value FROM recognition_meta"),
            db.prepare(sql).bind(JSON.stringify(split[shard])),
          ]),
        ),
      );
      layout = layoutOf(batches.map(([meta]) => (meta?.results ?? []) as { key: string; value: string }[]));
      answers = batches.map(([, answer]) =>
        (answer?.results ?? []).map((row): StoreRow => [row.hash, row.value]),
      );
    } else {
      answers = await Promise.all(
        shards.map(async (db, shard) => {
          const own = split[shard] ?? [];
          if (own.length === 0) return [];
          return db.prepare(sql).bind(JSON.stringify(own)).raw<StoreRow>();
        }),
      );
    }
    return answers.length === 1 ? (answers[0] ?? []) : answers.flat();
  }

  async function lookup({ hashes, read }: PostingsRequest): Promise<PostingLists> {
    if (read === "sizes") {
      const rows = await wave(sizesStatement, hashes);
      sizes = new Map(rows.map(([hash, size]) => [Number(hash), Number(size)]));
      return fetchedPostings(layout as PostingsLayout, sizes, none);
    }
    const queries = postingsQueries(hashes, (hash) => sizes.get(hash));
    if (queries.length === 0 && !layout) queries.push([]);
    let expected = 0;
    for (const hash of hashes) expected += sizes.get(hash) ?? 0;
    if (postings.length < expected) postings = new Uint32Array(expected);
    const found = new Map<number, Uint32Array>();
    let at = 0;
    for (const query of queries) {
      const decoded = decodeEntries(await wave(lookupStatement, query), postings, at, found);
      postings = decoded.buffer;
      at = decoded.at;
    }
    return fetchedPostings(layout as PostingsLayout, none, found);
  }

  return {
    lookup: (request) => storeRead(() => lookup(request)),
    trackKey: (track) =>
      storeRead(async () => {
        const row = await trackShard
          .prepare("SELECT track_key FROM recognition_tracks WHERE track = ?")
          .bind(track)
          .first<{ track_key: string }>();
        return row?.track_key;
      }),
  };
}

/** Which index a database holds, and as which shard of how many; null when it holds none. */
export async function storedIndex(
  db: D1Database,
): Promise<{ sha256: string; shard: number; shards: number } | null> {
  const { results } = await db
    .prepare("SELECT key, value FROM recognition_meta WHERE key IN (?1, ?2, ?3)")
    .bind(metaKeys.sha256, metaKeys.shard, metaKeys.shards)
    .all<{ key: string; value: string }>();
  const meta = new Map(results.map((row) => [row.key, row.value]));
  const sha256 = meta.get(metaKeys.sha256);
  if (sha256 === undefined) return null;
  return {
    sha256,
    shard: Number(meta.get(metaKeys.shard) ?? 0),
    shards: Number(meta.get(metaKeys.shards) ?? 1),
  };
}

/** What loading an index into one shard of the store writes, table by table. */
export type StoreRows = {
  meta: [key: string, value: string][];
  /** Every track's key in shard 0, none in the others. */
  tracks: [track: number, trackKey: string][];
  /** Every hash of this shard with entries, in hash order, and its entries' bytes. */
  postings(): Generator<[hash: number, entries: Uint8Array]>;
};

/**
 * The store's rows for a loaded index, one StoreRows a shard (one for one database); the postings
 * are views on the index's bytes.
 */
export function storeRows(
  index: TrackIndex,
  sha256: string,
  catalogVersion: string,
  shards = 1,
): StoreRows[] {
  const { offsets, entries } = index;
  return Array.from({ length: shards }, (_, shard) => ({
    meta: [
      [metaKeys.sha256, sha256],
      [metaKeys.catalogVersion, catalogVersion],
      [metaKeys.timeBits, String(index.timeBits)],
      [metaKeys.commonBucketSize, String(index.commonBucketSize)],
      [metaKeys.shard, String(shard)],
      [metaKeys.shards, String(shards)],
    ],
    tracks: shard === 0 ? index.trackKeys.map((key, track) => [track, key]) : [],
    *postings() {
      for (let hash = 0; hash + 1 < offsets.length; hash++) {
        if (shardOf(hash, shards) !== shard) continue;
        const start = offsets[hash] as number;
        const end = offsets[hash + 1] as number;
        if (end > start) {
          yield [hash, new Uint8Array(entries.buffer, entries.byteOffset + start * 4, (end - start) * 4)];
        }
      }
    },
  }));
}

/** The tables a load empties first: a store holds one index. */
export const storeTables = ["recognition_meta", "recognition_tracks", "recognition_postings"] as const;

/** JSON bound to one parameter stays under D1's 2 MB a value. */
const loadChunkChars = 1_500_000;
/** "0"-"9", "a"-"f" as ASCII codes. */
const hexCodes = new TextEncoder().encode("0123456789abcdef");
const ascii = new TextDecoder();

/**
 * Loads an index into a store through its D1 bindings, one a shard (wrangler's local database for
 * `npm start`, the worker tests' own, the scale bench's), `rows` from storeRows for as many
 * shards: every shard's tables emptied first, then in each the postings as JSON objects of hash to
 * hex bound to one parameter each (D1 binds at most 100 parameters a statement, and a value of up
 * to 2 MB), then the tracks, and the meta last: a store whose load stopped half way has a shard
 * with no layout and answers nothing, rather than wrong. Deploy loads the same rows from
 * recognition-store.sql instead. Every statement can run twice (OR REPLACE), so that a caller whose
 * connection dropped before the answer can send it again (the scale bench, through Miniflare's
 * proxy). Each object is written as ASCII into one buffer and decoded once:
 * appending two characters a byte to a string took most of a load's time (83 s of 128 s at 10×).
 */
export async function loadStore(
  shards: readonly D1Database[],
  rows: readonly StoreRows[],
): Promise<{ hashes: number }> {
  if (rows.length !== shards.length)
    throw new Error(`${rows.length} shards of rows for ${shards.length} databases`);
  for (const db of shards) await db.batch(storeTables.map((table) => db.prepare(`DELETE FROM ${table}`)));
  let hashes = 0;
  for (const [shard, db] of shards.entries()) {
    const own = rows[shard] as StoreRows;
    hashes += await writePostings(db, own.postings());
    await db.batch([
      ...own.tracks.map(([track, key]) =>
        db
          .prepare("INSERT OR REPLACE INTO recognition_tracks (track, track_key) VALUES (?, ?)")
          .bind(track, key),
      ),
      ...own.meta.map(([key, value]) =>
        db.prepare("INSERT OR REPLACE INTO recognition_meta (key, value) VALUES (?, ?)").bind(key, value),
      ),
    ]);
  }
  return { hashes };
}

/**
 * Writes postings rows (INSERT OR REPLACE), as JSON objects of hash to hex bound to one parameter
 * each, every object written as ASCII into one buffer and decoded once. Returns the rows written.
 */
export async function writePostings(
  db: D1Database,
  postings: Iterable<[hash: number, entries: Uint8Array]>,
): Promise<number> {
  const insert =
    "INSERT OR REPLACE INTO recognition_postings (hash, entries) SELECT key, unhex(value) FROM json_each(?1)";
  const chunk = new Uint8Array(loadChunkChars);
  let length = 0;
  let hashes = 0;
  const flush = async () => {
    // The members each end in a comma: the last one's is dropped.
    if (length > 0)
      await db
        .prepare(insert)
        .bind(`{${ascii.decode(chunk.subarray(0, length - 1))}}`)
        .run();
    length = 0;
  };
  for (const [hash, entries] of postings) {
    const key = `"${hash}":"`;
    const size = key.length + 2 * entries.length + 2;
    if (size + 2 > chunk.length) throw new RangeError(`hash ${hash}: its postings exceed one statement`);
    if (length + size + 2 > chunk.length) await flush();
    for (let i = 0; i < key.length; i++) chunk[length++] = key.charCodeAt(i);
    for (let i = 0; i < entries.length; i++) {
      const byte = entries[i] as number;
      chunk[length++] = hexCodes[byte >> 4] as number;
      chunk[length++] = hexCodes[byte & 15] as number;
    }
    chunk[length++] = 34; // "
    chunk[length++] = 44; // ,
    hashes++;
  }
  await flush();
  return hashes;
}
