import { env } from "cloudflare:test";
import { type LoadedRecognitionIndex, loadRecognitionIndex } from "#origin/recognition-index-load.ts";
import { loadStore, storeRows } from "#recognizer/store.ts";

/** The index the builder published, read through the worker's ASSETS binding (public/media/recognition/). */
export function publishedIndex(): Promise<LoadedRecognitionIndex> {
  return loadRecognitionIndex((path) => env.ASSETS.fetch(new Request(new URL(path, "https://assets.test"))));
}

/**
 * Loads the published index into this test file's recognition store, as `npm start`'s local load
 * does (tools/recognition-store/load-local.ts): for the files whose tests match recordings.
 */
export function loadRecognitionStore(): Promise<void> {
  return loadRecognitionShards([env.RECOGNITION]);
}

/** Loads the published index split over these databases, shard 0 first. */
export async function loadRecognitionShards(shards: readonly D1Database[]): Promise<void> {
  const loaded = await publishedIndex();
  await loadStore(shards, storeRows(loaded.index, loaded.sha256, loaded.catalogVersion, shards.length));
}
