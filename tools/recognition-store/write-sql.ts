/**
 * Writes the recognition store's load (docs/decisions/029-recognition-store.md): the index the
 * builder published under public/media/recognition/ as SQL for the RECOGNITION database,
 * origin/catalog/dist/recognition-store.sql, one statement a line, each under D1's 100 KB. With
 * RECOGNITION_SHARDS above 1 in wrangler.toml's vars (or `--shards N`), one file a shard instead,
 * recognition-store-<shard>-of-<N>.sql. `npm run catalog` and scripts/ensure-catalog.mjs run it
 * after the index is built; deploy loads each file into its database with
 * `wrangler d1 execute <database> --remote --file …`.
 *
 *   npx vite-node tools/recognition-store/write-sql.ts [--shards N]
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { type StoreRows, storeRows, storeTables } from "#recognizer/store.ts";
import { recognitionShardCount } from "#rules/env.ts";
import { readPublishedIndex, root } from "./published-index";

/** The load of shard `shard` of `shards`: today's single file when there is one. */
function storeSqlFile(shard: number, shards: number): string {
  return path.join(
    root,
    shards === 1
      ? "origin/catalog/dist/recognition-store.sql"
      : `origin/catalog/dist/recognition-store-${shard}-of-${shards}.sql`,
  );
}

/** `--shards N`, else wrangler.toml's RECOGNITION_SHARDS (checked as the Worker checks it), else 1. */
function shardCount(): number {
  const at = process.argv.indexOf("--shards");
  const vars = unstable_readConfig({ config: path.join(root, "wrangler.toml") }).vars as Record<
    string,
    unknown
  >;
  const count = at >= 0 ? process.argv[at + 1] : vars.RECOGNITION_SHARDS;
  return recognitionShardCount(count === undefined ? undefined : String(count));
}
/** D1's longest statement is 100,000 bytes: room left for the statement's own words. */
const statementBytes = 90_000;

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

async function writeShard(file: string, rows: StoreRows, sha256: string, catalogVersion: string) {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  // The first line names the index, so that a loader can tell which one a database holds.
  await write(`-- recognition store ${sha256}: catalogue ${catalogVersion}`);
  for (const table of storeTables) await write(`DELETE FROM ${table};`);
  const trackValues = rows.tracks.map(([track, key]) => `(${track},${quote(key)})`);
  for (let at = 0; at < trackValues.length; at += 500) {
    await write(
      `INSERT INTO recognition_tracks (track, track_key) VALUES ${trackValues.slice(at, at + 500).join(",")};`,
    );
  }
  let values: string[] = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (values.length > 0)
      await write(`INSERT INTO recognition_postings (hash, entries) VALUES ${values.join(",")};`);
    values = [];
    bytes = 0;
  };
  for (const [hash, entries] of rows.postings()) {
    const value = `(${hash},X'${Buffer.from(entries.buffer, entries.byteOffset, entries.byteLength).toString("hex")}')`;
    if (value.length > statementBytes) throw new Error(`hash ${hash}: its postings exceed one statement`);
    if (bytes + value.length + 1 > statementBytes) await flush();
    values.push(value);
    bytes += value.length + 1;
    count++;
  }
  await flush();
  // The meta last: a load that stopped half way leaves a store with no layout, which answers nothing.
  await write(
    `INSERT INTO recognition_meta (key, value) VALUES ${rows.meta.map(([k, v]) => `(${quote(k)},${quote(v)})`).join(",")};`,
  );
  out.end();
  await once(out, "finish");
  return count;
}

async function main(): Promise<void> {
  const started = Date.now();
  const shards = shardCount();
  const loaded = await readPublishedIndex();
  const rows = storeRows(loaded.index, loaded.sha256, loaded.catalogVersion, shards);
  for (const [shard, own] of rows.entries()) {
    const file = storeSqlFile(shard, shards);
    const count = await writeShard(file, own, loaded.sha256, loaded.catalogVersion);
    process.stderr.write(
      `recognition store: ${count} hashes, ${own.tracks.length} tracks written to ${path.relative(root, file)} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}

await main();
