import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The repository's root, for tests that read the code and the documents as text. */
export const repoRoot = path.join(import.meta.dirname, "..");

/**
 * The code of the site a visitor's request runs through, by repository path: the Remix app and
 * the AMP renderer (the pages), the edge and the Worker's steps (what every page's request does
 * before its loader). The embedded origin, the tools and the tests are not callers: a call only
 * they make is one no page makes.
 */
export const callerFolders = ["app", "amp", "edge", "worker"] as const;

/** TypeScript sources under the given folders, generated files left out, as path → text. */
export function readSources(folders: readonly string[], skip: readonly string[] = []): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(repoRoot, folder), { withFileTypes: true })) {
      const relative = `${folder}/${entry.name}`;
      if (skip.includes(relative)) continue;
      if (entry.isDirectory()) walk(relative);
      else if (
        /\.tsx?$/.test(entry.name) &&
        !entry.name.includes(".generated.") &&
        !entry.name.endsWith(".d.ts")
      )
        files.set(relative, readFileSync(path.join(repoRoot, relative), "utf8"));
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}
