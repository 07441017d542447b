/**
 * Loads the published recognition index into wrangler's local RECOGNITION database (the one
 * `npm start` serves from), and into its other shards when recognizer/wrangler.toml configures them
 * (RECOGNITION_SHARDS, RECOGNITION_1 …), unless they already hold that index as those shards.
 * scripts/ensure-catalog.mjs runs it after applying the migrations. `wrangler d1 execute --local
 * --file` cannot take the store's SQL (wrangler 3's local execute fails on files of a megabyte or
 * more), so the rows go through the bindings, as the worker tests load them (loadStore).
 *
 *   npx vite-node tools/recognition-store/load-local.ts
 */
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import type { RecognizerEnv } from "#recognizer/index.ts";
import { loadStore, storedIndex, storeRows } from "#recognizer/store.ts";
import { recognitionShards } from "#rules/env.ts";
import { readPublishedIndex, root } from "./published-index";

const started = Date.now();
const loaded = await readPublishedIndex();
// The recognizer's databases, in the site's local state (where `npm start` runs both Workers).
const { env, dispose } = await getPlatformProxy<RecognizerEnv>({
  configPath: path.join(root, "recognizer/wrangler.toml"),
  persist: { path: path.join(root, ".wrangler/state/v3") },
});
try {
  const shards = recognitionShards(env);
  const held = await Promise.all(shards.map((db) => storedIndex(db).catch(() => null)));
  if (
    held.every(
      (index, shard) =>
        index?.sha256 === loaded.sha256 && index.shard === shard && index.shards === shards.length,
    )
  ) {
    process.stderr.write(
      `recognition store: the local database${shards.length > 1 ? `s (${shards.length} shards)` : ""} hold${shards.length > 1 ? "" : "s"} index ${loaded.sha256.slice(0, 16)}\n`,
    );
  } else {
    const { hashes } = await loadStore(
      shards,
      storeRows(loaded.index, loaded.sha256, loaded.catalogVersion, shards.length),
    );
    process.stderr.write(
      `recognition store: loaded index ${loaded.sha256.slice(0, 16)} (${hashes} hashes) into the local database${shards.length > 1 ? `s (${shards.length} shards)` : ""} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
} finally {
  await dispose();
}
