import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.join(import.meta.dirname, "..");

/**
 * Every stylesheet an AMP page may inline, read from disk for Node tests: the site's (what the
 * React pages link) and AMP's own. In the Worker the AMP renderer reads the built copies of the
 * same files from the static assets (amp/render.tsx).
 */
export const stylesheetFiles: readonly string[] = [
  ...readdirSync(path.join(root, "app/styles"))
    .filter((name) => name.endsWith(".css"))
    .map((name) => `app/styles/${name}`),
  "amp/amp.css",
];

export function stylesheetText(file: string): string {
  return readFileSync(path.join(root, file), "utf8");
}
