import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { hash32 } from "#origin/catalog-rules.ts";
import {
  type RecognitionManifest,
  type RecognitionProbes,
  recognitionAssetFolder,
  recognitionManifestPath,
  recognitionPartMaxBytes,
  recognitionPartPath,
} from "#origin/recognition-index.ts";
import {
  computeSignature,
  createIndexBuilder,
  encodeSignatureBase64,
  INDEX_VERSION,
  loadIndex,
  matchSignature,
  RECORDING_CHECKPOINTS_SECONDS,
  SIGNATURE_VERSION,
  type Signature,
} from "#signature/index.ts";
import { decodeAudioFile } from "./audio-decode";
import { addNoise, seededRandom } from "./audio-degrade";
import { log, mediaDir } from "./output";

/** Probes: how many recordings, where in them, how long and how noisy (see recognitionProbesSchema). */
const probeCount = 6;
const probeStartShare = 0.4;
const probeSeconds = RECORDING_CHECKPOINTS_SECONDS[1];
const probeSnrDb = 15;

/** What the index is built from: the catalogue version and each track's recording. */
export type IndexInput = { version: string; tracks: readonly { key: number; audioFile: string }[] };

type Probe = { trackKey: string; fromMs: number; signature: Signature };

/** The index's bytes and what they hold, with the probes cut on the way. */
type BuiltIndex = {
  bytes: Uint8Array;
  trackCount: number;
  entryCount: number;
  hours: number;
  probes: Probe[];
};

/**
 * The recognition index over the catalogue's recordings (decision 013). The index is written as
 * static assets (public/media/recognition/: a manifest and parts under the 25 MiB asset limit), and
 * a few noisy excerpts' signatures are matched against it as a self-check and kept as probes in
 * `outDir` for the worker tests.
 */
export async function buildRecognitionIndex(manifest: IndexInput, outDir: string): Promise<void> {
  const started = Date.now();
  const index = await indexRecordings(manifest);
  const sha256 = createHash("sha256").update(index.bytes).digest("hex");
  const parts = writeIndexAssets(manifest.version, index, sha256);
  const checked = checkProbes(manifest.version, index, sha256);
  fs.writeFileSync(path.join(outDir, "recognition-probes.json"), `${JSON.stringify(checked, null, 2)}\n`);
  const matched = checked.probes.filter((probe) => probe.matched).length;
  log(
    `recognition index: ${index.trackCount} tracks, ${index.hours.toFixed(2)} h, ${index.entryCount} hashes, ` +
      `${(index.bytes.length / 1024 / 1024).toFixed(1)} MiB in ${parts.length} part(s); ` +
      `self-check ${matched}/${checked.probes.length} probes matched; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (matched < checked.probes.length) log("recognition index: WARNING, a probe did not match its recording");
}

/**
 * Each recording decoded and added on its own, so only one is in memory at a time; a few evenly
 * spread recordings also give a noisy excerpt as a probe.
 */
async function indexRecordings(manifest: IndexInput): Promise<BuiltIndex> {
  const builder = createIndexBuilder();
  const every = Math.max(1, Math.floor(manifest.tracks.length / probeCount));
  const probes: Probe[] = [];
  let hours = 0;
  for (const [position, track] of manifest.tracks.entries()) {
    const trackKey = String(track.key);
    const { samples, sampleRate } = await decodeAudioFile(track.audioFile);
    builder.addTrack(trackKey, samples, sampleRate);
    hours += samples.length / sampleRate / 3600;
    const length = Math.round(probeSeconds * sampleRate);
    if (position % every === 0 && probes.length < probeCount && samples.length > length) {
      const from = Math.floor((samples.length - length) * probeStartShare);
      const excerpt = addNoise(
        samples.subarray(from, from + length),
        sampleRate,
        probeSnrDb,
        "pink",
        seededRandom(hash32(`probe:${trackKey}`)),
      );
      probes.push({
        trackKey,
        fromMs: Math.round((from / sampleRate) * 1000),
        signature: computeSignature(excerpt, sampleRate),
      });
    }
  }
  const bytes = builder.finish();
  return { bytes, trackCount: builder.trackCount, entryCount: builder.entryCount, hours, probes };
}

/** The parts and their manifest under public/; parts of earlier builds are deleted. */
function writeIndexAssets(version: string, index: BuiltIndex, sha256: string): RecognitionManifest["parts"] {
  const publicDir = path.join(mediaDir, "..");
  const folder = path.join(publicDir, recognitionAssetFolder);
  fs.mkdirSync(folder, { recursive: true });
  const { bytes } = index;
  const parts: RecognitionManifest["parts"] = [];
  for (let from = 0, part = 0; from < bytes.length || part === 0; from += recognitionPartMaxBytes, part++) {
    const chunk = bytes.subarray(from, Math.min(bytes.length, from + recognitionPartMaxBytes));
    const assetPath = recognitionPartPath(sha256, part);
    fs.writeFileSync(path.join(publicDir, assetPath), chunk);
    parts.push({ path: assetPath, bytes: chunk.length });
  }
  const indexManifest: RecognitionManifest = {
    catalogVersion: version,
    signatureVersion: SIGNATURE_VERSION,
    indexVersion: INDEX_VERSION,
    sha256,
    bytes: bytes.length,
    tracks: index.trackCount,
    hours: index.hours,
    parts,
  };
  fs.writeFileSync(
    path.join(publicDir, recognitionManifestPath),
    `${JSON.stringify(indexManifest, null, 2)}\n`,
  );
  // Parts of earlier builds go: nothing refers to them any more.
  const written = new Set(parts.map((part) => path.basename(part.path)));
  for (const name of fs.readdirSync(folder)) {
    if (name.endsWith(".bin") && !written.has(name)) fs.rmSync(path.join(folder, name));
  }
  return parts;
}

/** The self-check: each probe matched against the index it was cut for. */
function checkProbes(version: string, index: BuiltIndex, sha256: string): RecognitionProbes {
  const loaded = loadIndex(index.bytes);
  return {
    catalogVersion: version,
    sha256,
    probes: index.probes.map(({ trackKey, fromMs, signature }) => ({
      trackKey,
      fromMs,
      seconds: probeSeconds,
      snrDb: probeSnrDb,
      data: encodeSignatureBase64(signature),
      matched: matchSignature(loaded, signature)?.trackKey === trackKey,
    })),
  };
}
