import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { nameNumberedTitles, readableTitle, scanSource } from "#origin/catalog/scan.ts";
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

test.each([
  { file: "menu.opus", title: "Menu" },
  { file: "battle-theme_02.ogg", title: "Battle Theme 02" },
  { file: "HellFortressEntrance.ogg", title: "Hell Fortress Entrance" },
  { file: "music000.ogg", title: "Music 000" },
  { file: "/usr/share/music/the_king_is_dead.oga", title: "The King Is Dead" },
  { file: "track1.opus", title: "Track 1" },
])("an untagged file's title is its name made readable: $file is $title", ({ file, title }) => {
  expect(readableTitle(file)).toBe(title);
});

test.each([
  {
    case: "a title that only numbers its recording is named after its album",
    recordings: [
      { title: "Track 1", album: "Warzone 2100 OST" },
      { title: "track02", album: "Warzone 2100 OST" },
      { title: "Untitled 3", album: "Demo Tape" },
    ],
    titles: ["Warzone 2100 OST No. 1", "Warzone 2100 OST No. 2", "Demo Tape No. 3"],
  },
  {
    case: "a version of a numbered recording is named after the album whose recording it is",
    recordings: [
      { title: "Track 3", album: "Warzone 2100 OST" },
      { title: "Track 3 - Enhanced", album: "Aftermath Soundtrack" },
      { title: "Track 4 - Enhanced", album: "Aftermath Soundtrack" },
    ],
    titles: [
      "Warzone 2100 OST No. 3",
      "Warzone 2100 OST No. 3 - Enhanced",
      "Aftermath Soundtrack No. 4 - Enhanced",
    ],
  },
  {
    case: "the same number on two albums: each names its own",
    recordings: [
      { title: "Track 1", album: "First" },
      { title: "Track 1", album: "Second" },
      { title: "Track 1 (Live)", album: "Second" },
    ],
    titles: ["First No. 1", "Second No. 1", "Second No. 1 (Live)"],
  },
  {
    case: "names that only start like a number, and numbered titles with no album, stay",
    recordings: [
      { title: "Track 3", album: undefined },
      { title: "Tracker", album: "Mods" },
      { title: "Track 7b", album: "Mods" },
      { title: "Trackside 2", album: "Mods" },
      { title: "Menu Theme - Enhanced", album: "Aftermath Soundtrack" },
      { title: "Launch Codes", album: "Aftermath Soundtrack" },
    ],
    titles: ["Track 3", "Tracker", "Track 7b", "Trackside 2", "Menu Theme - Enhanced", "Launch Codes"],
  },
])("$case", ({ recordings, titles }) => {
  expect(nameNumberedTitles(recordings)).toEqual(titles);
});
