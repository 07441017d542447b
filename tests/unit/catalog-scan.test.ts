import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { scanSource } from "#origin/catalog/scan.ts";
import type { AudioSource, Licence } from "#origin/catalog/sources.ts";
import { encodedFixtures } from "./decode-fixtures";

// An untagged Vorbis file (the fixture has no title or artist tags) in a package's music folder.
const root = fs.mkdtempSync(path.join(os.tmpdir(), "tunewave-scan-"));
const vorbis = encodedFixtures.find((f) => f.name === "vorbis_11k_mono.ogg");
if (!vorbis) throw new Error("no Vorbis fixture");
fs.mkdirSync(path.join(root, "music"));
fs.writeFileSync(path.join(root, "music/HellFortressEntrance.ogg"), Buffer.from(vorbis.base64, "base64"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function source(licence: Licence, untaggedArtist?: string): AudioSource {
  return {
    root,
    musicDir: "music",
    binaryPackage: "example-music",
    sourcePackage: "example",
    version: "1.0-1",
    licenceOf: () => licence,
    untaggedArtist,
  };
}

test.each([
  {
    case: "a package that credits its untagged music: title from the file name, artist the credit",
    licence: { licence: "GPL-2+", copyright: "2004 Example Team" },
    untaggedArtist: "Example",
    found: { title: "Hell Fortress Entrance", artist: "Example", licence: "GPL-2+" },
  },
  {
    case: "a package that credits no one: untagged music is skipped",
    licence: { licence: "GPL-2+", copyright: "2004 Example Team" },
    untaggedArtist: undefined,
    skipped: "no title or artist in tags or album.json",
  },
  {
    case: "no licence in the copyright or the tags: skipped, not guessed",
    licence: { licence: "", copyright: "" },
    untaggedArtist: "Example",
    skipped: "no licence in the package's copyright or the tags",
  },
  {
    case: "a licence that is not free: skipped",
    licence: { licence: "Drascula-License", copyright: "1996-2008, Alcachofa Soft S.L." },
    untaggedArtist: "Example",
    skipped: "licence Drascula-License is not one the catalogue publishes",
  },
])("$case", async ({ licence, untaggedArtist, found, skipped }) => {
  const scanned = await scanSource(source(licence, untaggedArtist));
  if (found) {
    expect(scanned.skipped).toEqual([]);
    expect(scanned.recordings).toHaveLength(1);
    expect(scanned.recordings[0]).toMatchObject({
      ...found,
      id: "example-music/music/HellFortressEntrance.ogg",
    });
  } else {
    expect(scanned.recordings).toEqual([]);
    expect(scanned.skipped).toEqual([{ file: "music/HellFortressEntrance.ogg", reason: skipped }]);
  }
});
