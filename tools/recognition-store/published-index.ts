import { readFile } from "node:fs/promises";
import path from "node:path";
import { type LoadedRecognitionIndex, loadRecognitionIndex } from "#origin/recognition-index-load.ts";

export const root = path.resolve(import.meta.dirname, "../..");

/** The index the builder published under public/media/recognition/, its SHA-256 checked. */
export function readPublishedIndex(): Promise<LoadedRecognitionIndex> {
  return loadRecognitionIndex(async (assetPath) => {
    try {
      return new Response(await readFile(path.join(root, "public", ...assetPath.split("/"))));
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}
