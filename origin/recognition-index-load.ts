import * as v from "valibot";
import { SiteError } from "#rules/errors.ts";
import { loadIndex, type TrackIndex } from "#signature/index.ts";
import { recognitionManifestPath, recognitionManifestSchema } from "./recognition-index";

/**
 * Loading the recognition index from its static assets (see recognition-index.ts), wherever they are
 * read from: the ASSETS binding in the Worker (origin/routes/webrec.ts), public/ on disk for the
 * command line's `--local` (tools/recognize/).
 */

export type LoadedRecognitionIndex = { index: TrackIndex; sha256: string; catalogVersion: string };

/** Answers an asset path such as /media/recognition/manifest.json; a missing asset is a 404. */
export type ReadAsset = (path: string) => Promise<Response>;

function indexUnavailable(message: string): SiteError {
  return new SiteError("serviceerror", `Recognition index unavailable: ${message}`);
}

async function fetchAsset(readAsset: ReadAsset, path: string): Promise<Response> {
  const response = await readAsset(path);
  if (!response.ok) {
    await response.body?.cancel();
    throw indexUnavailable(`${path} answered ${response.status}`);
  }
  return response;
}

/**
 * Reads the manifest, then streams every part into one buffer of the index's size (no second
 * copy of some 30 MB), checks the SHA-256 and the index's own structure. Every failure is a
 * `serviceerror`.
 */
export async function loadRecognitionIndex(readAsset: ReadAsset): Promise<LoadedRecognitionIndex> {
  const manifestAnswer = await fetchAsset(readAsset, recognitionManifestPath);
  const manifest = v.safeParse(recognitionManifestSchema, await manifestAnswer.json().catch(() => null));
  if (!manifest.success) throw indexUnavailable(`bad manifest (${v.summarize(manifest.issues)})`);
  const { bytes: size, parts, sha256, catalogVersion } = manifest.output;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    const response = await fetchAsset(readAsset, part.path);
    if (!response.body) throw indexUnavailable(`${part.path} is empty`);
    const end = at + part.bytes;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.byteLength > end) {
        await reader.cancel();
        throw indexUnavailable(`${part.path} is longer than the manifest says`);
      }
      bytes.set(value, at);
      at += value.byteLength;
    }
    if (at !== end) throw indexUnavailable(`${part.path} is shorter than the manifest says`);
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  if (hex !== sha256) throw indexUnavailable("the parts do not hash to the manifest's SHA-256");
  try {
    return { index: loadIndex(bytes), sha256, catalogVersion };
  } catch (error) {
    throw indexUnavailable(error instanceof Error ? error.message : String(error));
  }
}
