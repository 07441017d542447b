// Rebuilds only the recognition index from origin/catalog/dist/catalog.json (scripts/ensure-catalog.mjs
// runs it when the signature module changed but the catalogue did not). See buildRecognitionIndex.
import fs from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { distDir } from "./output";
import { buildRecognitionIndex } from "./recognition";

const manifestSchema = v.object({
  version: v.string(),
  tracks: v.array(v.object({ key: v.number(), audioFile: v.string() })),
});

const manifest = v.parse(
  manifestSchema,
  JSON.parse(fs.readFileSync(path.join(distDir, "catalog.json"), "utf8")),
);
await buildRecognitionIndex(manifest, distDir);
