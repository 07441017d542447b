import path from "node:path";

// Where the catalogue build writes, and how it reports progress.

const repoRoot = path.resolve(import.meta.dirname, "../..");
/** The seed, the manifest and the recognition probes. */
export const distDir = path.join(repoRoot, "origin/catalog/dist");
/** Artwork, previews and the recognition index (media/recognition/) the site serves. */
export const mediaDir = path.join(repoRoot, "public/media");

export function log(message: string) {
  process.stderr.write(`catalog: ${message}\n`);
}
