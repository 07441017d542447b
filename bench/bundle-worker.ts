import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** A bench worker (a file of bench/), bundled for workerd as one ES module. */
export async function bundleBenchWorker(file: string): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(root, "bench", file)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error("esbuild produced no output");
  return output.text;
}
