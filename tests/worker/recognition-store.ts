import { env } from "cloudflare:test";
import { type LoadedRecognitionIndex, loadRecognitionIndex } from "../../origin/recognition-index-load";
import { loadStore, storeRows } from "../../origin/recognition-store";

/** The index the builder published, read through the worker's ASSETS binding (public/media/recognition/). */
export function publishedIndex(): Promise<LoadedRecognitionIndex> {
  return loadRecognitionIndex((path) => env.ASSETS.fetch(new Request(new URL(path, "https://assets.test"))));
}

/**
 * Loads the published index into this test file's recognition store, as `npm start`'s local load
 * does (tools/recognition-store/load-local.ts): for the files whose tests match recordings.
 */
export async function loadRecognitionStore(): Promise<void> {
  const loaded = await publishedIndex();
  await loadStore(env.RECOGNITION, storeRows(loaded.index, loaded.sha256, loaded.catalogVersion));
}
