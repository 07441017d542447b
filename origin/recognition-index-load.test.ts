import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type RecognitionManifest,
  recognitionManifestPath,
  recognitionPartPath,
} from "#origin/recognition-index.ts";
import { loadRecognitionIndex, type ReadAsset } from "#origin/recognition-index-load.ts";
import { SiteError } from "#rules/errors.ts";
import { INDEX_VERSION, SIGNATURE_VERSION } from "#signature/index.ts";
import { buildIndex, composeTrack, renderTrack } from "#tests/unit/signature-music.ts";
import { main } from "#tools/recognize/recognize.ts";
import { diskAssets } from "#tools/recognize/services.ts";

// The recognition index from its static assets (a manifest and parts), as the Worker's match service
// reads them through ASSETS and the command line's --local reads them from public/ on disk.

let index: Uint8Array;

beforeAll(() => {
  const track = (seed: number) =>
    renderTrack(composeTrack(seed, 4), { fromSecond: 0, seconds: 4, sampleRate: 8000 });
  index = buildIndex([
    { trackKey: "11", samples: track(1), sampleRate: 8000 },
    { trackKey: "22", samples: track(2), sampleRate: 8000 },
  ]);
});

/** The assets the builder would write for `bytes`, cut into `count` parts. */
function assetsOf(
  bytes: Uint8Array,
  count: number,
  edit: (manifest: RecognitionManifest) => void = () => {},
) {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const size = Math.ceil(bytes.length / count);
  const files = new Map<string, Uint8Array>();
  const parts: RecognitionManifest["parts"] = [];
  for (let part = 0; part < count; part++) {
    const chunk = bytes.subarray(part * size, Math.min(bytes.length, (part + 1) * size));
    const path = recognitionPartPath(sha256, part);
    files.set(path, chunk);
    parts.push({ path, bytes: chunk.length });
  }
  const manifest: RecognitionManifest = {
    catalogVersion: "c0ffee",
    signatureVersion: SIGNATURE_VERSION,
    indexVersion: INDEX_VERSION,
    sha256,
    bytes: bytes.length,
    tracks: 2,
    hours: 8 / 3600,
    parts,
  };
  edit(manifest);
  files.set(recognitionManifestPath, new TextEncoder().encode(JSON.stringify(manifest)));
  return files;
}

function reader(files: Map<string, Uint8Array>): ReadAsset {
  return async (path) => {
    const bytes = files.get(path);
    return bytes ? new Response(new Uint8Array(bytes)) : new Response(null, { status: 404 });
  };
}

async function failure(files: Map<string, Uint8Array>): Promise<SiteError> {
  const error = await loadRecognitionIndex(reader(files)).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SiteError);
  expect((error as SiteError).type).toBe("serviceerror");
  return error as SiteError;
}

describe("loadRecognitionIndex", () => {
  test.each([1, 3])("reads an index from %d part(s), its SHA-256 checked", async (count) => {
    const files = assetsOf(index, count);
    const loaded = await loadRecognitionIndex(reader(files));
    expect(loaded.index.trackKeys).toEqual(["11", "22"]);
    expect(loaded.catalogVersion).toBe("c0ffee");
    expect(loaded.sha256).toBe(createHash("sha256").update(index).digest("hex"));
  });

  test("no manifest", async () => {
    const files = assetsOf(index, 1);
    files.delete(recognitionManifestPath);
    expect((await failure(files)).message).toBe(
      "Recognition index unavailable: /media/recognition/manifest.json answered 404",
    );
  });

  test("a manifest whose parts do not add up", async () => {
    const files = assetsOf(index, 2, (manifest) => {
      manifest.bytes += 1;
    });
    expect((await failure(files)).message).toMatch(/bad manifest \(.*do not add up/);
  });

  test("a missing part", async () => {
    const files = assetsOf(index, 2);
    const [, second] = [...files.keys()];
    files.delete(second ?? "");
    expect((await failure(files)).message).toMatch(/index-[0-9a-f]{16}\.1\.bin answered 404$/);
  });

  test.each([
    ["longer", (bytes: Uint8Array) => Uint8Array.from([...bytes, 0])],
    ["shorter", (bytes: Uint8Array) => bytes.subarray(0, -1)],
  ])("a part %s than the manifest says", async (word, change) => {
    const files = assetsOf(index, 2);
    const [first] = [...files.keys()];
    files.set(first ?? "", change(files.get(first ?? "") ?? new Uint8Array(0)));
    expect((await failure(files)).message).toContain(`is ${word} than the manifest says`);
  });

  test("a changed byte fails the SHA-256", async () => {
    const files = assetsOf(index, 1);
    const [first] = [...files.keys()];
    const changed = (files.get(first ?? "") ?? new Uint8Array(0)).slice();
    changed[100] = (changed[100] ?? 0) ^ 1;
    files.set(first ?? "", changed);
    expect((await failure(files)).message).toContain("do not hash to the manifest's SHA-256");
  });

  test("an index that is not one", async () => {
    const files = assetsOf(new TextEncoder().encode("not an index at all"), 1);
    expect((await failure(files)).message).toContain("Recognition index unavailable: ");
  });
});

describe("from public/ on disk (npm run recognize -- --local)", () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "tunewave-index-load-"));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  test("diskAssets answers asset paths from the folder, 404 when missing", async () => {
    for (const [path, bytes] of assetsOf(index, 2)) {
      mkdirSync(dirname(join(root, "public", path)), { recursive: true });
      writeFileSync(join(root, "public", path), bytes);
    }
    const loaded = await loadRecognitionIndex(diskAssets(join(root, "public")));
    expect(loaded.index.trackKeys).toEqual(["11", "22"]);
    expect((await diskAssets(join(root, "public"))("/media/recognition/nothing.bin")).status).toBe(404);
  });

  test("--local without a built index or catalogue says so and exits with 3", async () => {
    const err: string[] = [];
    const status = await main(["--local", "a.wav"], {
      stdout: { write: () => {} },
      stderr: { write: (text: string) => err.push(text) },
      root: join(root, "nothing-built"),
    });
    expect(status).toBe(3);
    expect(err.join("")).toBe(
      "recognize: Recognition index unavailable: /media/recognition/manifest.json answered 404 " +
        "(npm run catalog or npm start builds it)\n",
    );
  });

  test("--local with an index but no catalogue", async () => {
    const err: string[] = [];
    const status = await main(["--local", "a.wav"], {
      stdout: { write: () => {} },
      stderr: { write: (text: string) => err.push(text) },
      root,
    });
    expect(status).toBe(3);
    expect(err.join("")).toMatch(/^recognize: Cannot read the catalogue .*catalog\.json: npm run catalog/);
  });
});
