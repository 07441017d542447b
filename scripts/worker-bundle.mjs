// How the build bundles a script the browser runs on its own, outside the Remix bundles: the
// recognition's signature Web Worker (build-recognition-worker.mjs) and the service worker
// (build-service-worker.mjs). One file that imports nothing, minified, for the same browsers.
import { build } from "esbuild";

/** The bundle of `entry` (with esbuild's `define`s), as bytes. */
export async function bundleWorkerScript(entry, define = {}) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2020"],
    minify: true,
    legalComments: "none",
    write: false,
    logLevel: "warning",
    define,
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced no output for ${entry}`);
  return output.contents;
}
