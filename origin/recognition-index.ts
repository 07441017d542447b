import * as v from "valibot";

/**
 * The recognition index as static assets: the catalogue builder writes it under
 * public/media/recognition/ and the match service (origin/routes/webrec.ts) reads it through the
 * ASSETS binding. Workers static assets serve files of at most 25 MiB, so the index is cut into
 * parts below that, listed by a small manifest that also carries the whole index's SHA-256.
 */

/** Where the manifest is, as an asset path. */
export const recognitionManifestPath = "/media/recognition/manifest.json";
/** The folder of the manifest and the parts, below public/. */
export const recognitionAssetFolder = "media/recognition";
/** Largest part: under the 25 MiB limit of one static asset, with room to spare. */
export const recognitionPartMaxBytes = 24 * 1024 * 1024;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "not a SHA-256"));

/** A part's asset path: named by the index's hash, so a rebuilt index never mixes with an old one. */
export function recognitionPartPath(sha: string, part: number): string {
  return `/${recognitionAssetFolder}/index-${sha.slice(0, 16)}.${part}.bin`;
}

export const recognitionManifestSchema = v.pipe(
  v.object({
    /** The catalogue the index was built from (catalog.json's version). */
    catalogVersion: v.string(),
    /** The signature module's SIGNATURE_VERSION and INDEX_VERSION at build time. */
    signatureVersion: count,
    indexVersion: count,
    sha256,
    bytes: count,
    tracks: count,
    hours: v.pipe(v.number(), v.minValue(0)),
    parts: v.pipe(
      v.array(
        v.object({
          path: v.pipe(v.string(), v.regex(/^\/media\/recognition\/index-[0-9a-f]{16}\.\d+\.bin$/)),
          bytes: count,
        }),
      ),
      v.minLength(1),
    ),
  }),
  v.check(
    (manifest) => manifest.parts.reduce((sum, part) => sum + part.bytes, 0) === manifest.bytes,
    "The parts do not add up to the index",
  ),
);
export type RecognitionManifest = v.InferOutput<typeof recognitionManifestSchema>;

/**
 * Signatures of excerpts of catalogue recordings (with a little noise), made when the index is
 * built: the builder checks its own index with them, and the worker tests send them to the match
 * service. Kept in origin/catalog/dist/recognition-probes.json, not published.
 */
export const recognitionProbesSchema = v.object({
  catalogVersion: v.string(),
  /** The index these probes were checked against. */
  sha256,
  probes: v.array(
    v.object({
      trackKey: v.pipe(v.string(), v.regex(/^\d+$/)),
      /** Where the excerpt starts in the recording, and how long it is. */
      fromMs: count,
      seconds: v.pipe(v.number(), v.minValue(0)),
      snrDb: v.number(),
      /** The excerpt's signature, base64: the `data` of a match request. */
      data: v.string(),
      /** Whether the builder's own check matched it to its track. */
      matched: v.boolean(),
    }),
  ),
});
export type RecognitionProbes = v.InferOutput<typeof recognitionProbesSchema>;
