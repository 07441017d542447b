/**
 * Loads the published recognition index into wrangler's local RECOGNITION database (the one
 * `npm start` serves from), unless it already holds that index. scripts/ensure-catalog.mjs runs it
 * after applying the migrations. `wrangler d1 execute --local --file` cannot take the store's SQL
 * (wrangler 3's local execute fails on files of a megabyte or more), so the rows go through the
 * binding, as the worker tests load them (loadStore).
 *
 *   npx vite-node tools/recognition-store/load-local.ts
 */
import { getPlatformProxy } from "wrangler";
import { loadStore, storedIndexSha, storeRows } from "../../origin/recognition-store";
import { readPublishedIndex, root } from "./published-index";

const started = Date.now();
const loaded = await readPublishedIndex();
const { env, dispose } = await getPlatformProxy<{ RECOGNITION: D1Database }>({
  configPath: `${root}/wrangler.toml`,
  persist: true,
});
try {
  const held = await storedIndexSha(env.RECOGNITION).catch(() => null);
  if (held === loaded.sha256) {
    process.stderr.write(`recognition store: the local database holds index ${held.slice(0, 16)}\n`);
  } else {
    const { hashes } = await loadStore(
      env.RECOGNITION,
      storeRows(loaded.index, loaded.sha256, loaded.catalogVersion),
    );
    process.stderr.write(
      `recognition store: loaded index ${loaded.sha256.slice(0, 16)} (${hashes} hashes) into the local database in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
} finally {
  await dispose();
}
