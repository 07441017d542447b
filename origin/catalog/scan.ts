import fs from "node:fs";
import path from "node:path";
import { parseFile } from "music-metadata";
import * as v from "valibot";
import { type AudioSource, isFreeLicence, tagLicence } from "./sources";

/** One recording found in a source, with everything its tags and package say about it. */
export type Recording = {
  /** Stable identity: source package and path inside it. */
  id: string;
  file: string;
  relativePath: string;
  codec: "vorbis" | "opus";
  title: string;
  artist: string;
  album: string | undefined;
  albumDescription: string | undefined;
  albumCover: string | undefined;
  trackNumber: number | undefined;
  year: number | undefined;
  genre: string | undefined;
  comment: string | undefined;
  bpm: number | undefined;
  durationMs: number;
  licence: string;
  copyright: string;
  source: { binaryPackage: string; sourcePackage: string; version: string };
};

const audioExtensions = new Set([".ogg", ".oga", ".opus"]);

/** Warzone 2100's per-album metadata, parsed like any other input. */
const albumJsonSchema = v.object({
  title: v.string(),
  author: v.string(),
  date: v.optional(v.string()),
  description: v.optional(v.string()),
  album_cover_filename: v.optional(v.string()),
  tracks: v.array(
    v.object({ filename: v.string(), title: v.string(), author: v.string(), bpm: v.optional(v.number()) }),
  ),
});
type AlbumJson = v.InferOutput<typeof albumJsonSchema>;

function listAudio(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      for (const file of listAudio(full)) out.push(file);
    } else if (audioExtensions.has(path.extname(entry.name).toLowerCase())) out.push(full);
  }
  return out;
}

function readAlbumJson(dir: string): AlbumJson | undefined {
  const file = path.join(dir, "album.json");
  if (!fs.existsSync(file)) return undefined;
  return v.parse(albumJsonSchema, JSON.parse(fs.readFileSync(file, "utf8")));
}

export type Skipped = { file: string; reason: string };

/**
 * Reads every Ogg recording of a source. Files without a title and an artist are skipped, unless
 * the source names an artist for untagged music; so are files whose licence is not established
 * and free (isFreeLicence).
 */
export async function scanSource(
  source: AudioSource,
): Promise<{ recordings: Recording[]; skipped: Skipped[] }> {
  const recordings: Recording[] = [];
  const skipped: Skipped[] = [];
  for (const file of listAudio(path.join(source.root, source.musicDir))) {
    const relativePath = path.relative(source.root, file);
    const meta = await parseFile(file, { duration: true });
    const albumJson = readAlbumJson(path.dirname(file));
    const listed = albumJson?.tracks.find((t) => t.filename === path.basename(file));
    const fromPackage = source.licenceOf(relativePath);
    const untagged = source.untaggedArtist;
    const title =
      (listed ? listed.title.trim() : nameTag(meta.common.title)) ||
      (untagged ? readableTitle(file) : undefined);
    const artist = (listed ? listed.author.trim() : nameTag(meta.common.artist)) || untagged;
    const codec = /opus/i.test(meta.format.codec ?? "")
      ? "opus"
      : /vorbis/i.test(meta.format.codec ?? "")
        ? "vorbis"
        : undefined;
    if (!title || !artist) {
      skipped.push({ file: relativePath, reason: "no title or artist in tags or album.json" });
      continue;
    }
    if (!codec || !meta.format.duration) {
      skipped.push({ file: relativePath, reason: `unsupported codec ${meta.format.codec ?? "unknown"}` });
      continue;
    }
    const licence = fromPackage.licence || tagLicence(meta.common.license);
    if (!isFreeLicence(licence)) {
      skipped.push({
        file: relativePath,
        reason: licence
          ? `licence ${licence} is not one the catalogue publishes`
          : "no licence in the package's copyright or the tags",
      });
      continue;
    }
    const yearText = listed ? albumJson?.date : (meta.common.year?.toString() ?? meta.common.date);
    const year = yearText ? Number.parseInt(yearText, 10) : undefined;
    const coverFile =
      albumJson?.album_cover_filename && path.join(path.dirname(file), albumJson.album_cover_filename);
    recordings.push({
      id: `${source.binaryPackage}/${relativePath}`,
      file,
      relativePath,
      codec,
      title,
      artist,
      album: (listed ? albumJson?.title?.trim() : nameTag(meta.common.album)) || undefined,
      albumDescription: listed ? albumJson?.description : undefined,
      albumCover: coverFile && fs.existsSync(coverFile) ? coverFile : undefined,
      trackNumber: listed
        ? (albumJson?.tracks.indexOf(listed) ?? 0) + 1
        : (meta.common.track.no ?? undefined),
      year: year && Number.isFinite(year) ? year : undefined,
      genre: meta.common.genre?.[0]?.trim() || undefined,
      comment: meta.common.comment?.[0]?.text?.trim() || undefined,
      bpm: listed?.bpm,
      durationMs: Math.round(meta.format.duration * 1000),
      licence,
      copyright: meta.common.copyright?.trim() || fromPackage.copyright || artist,
      source: {
        binaryPackage: source.binaryPackage,
        sourcePackage: source.sourcePackage,
        version: source.version,
      },
    });
  }
  const titles = nameNumberedTitles(recordings);
  return { recordings: recordings.map((r, i) => ({ ...r, title: titles[i] ?? r.title })), skipped };
}

/** A tag that names something: not blank, not a web address ("http://www.kahvi.org" as an album). */
function nameTag(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text && !/^(?:https?:\/\/|www\.)/i.test(text) ? text : undefined;
}

/** A file's name made readable as a title: "HellFortressEntrance.ogg" is "Hell Fortress Entrance". */
export function readableTitle(file: string): string {
  return path
    .basename(file, path.extname(file))
    .replace(/([a-z])(?=[A-Z])|([A-Za-z])(?=\d)|(\d)(?=[A-Za-z])/g, "$1$2$3 ")
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/**
 * A title that only numbers its recording ("Track 1", "track02", "Untitled 3"), alone or before what
 * sets a version apart ("Track 3 - Enhanced"): group 1 is the number, group 2 the rest.
 */
const numberedTitle = /^(?:track|untitled)[\s_-]*(\d+)(?![\p{L}\p{N}])(.*)$/iu;

/**
 * The titles of a source's recordings, a title that only numbers its recording named after the
 * album it numbers: "Track 1" on "Warzone 2100 OST" is "Warzone 2100 OST No. 1". Warzone's
 * album.json calls its original soundtrack "Track 1" to "Track 3" and the files are track1.opus to
 * track3.opus, so neither the package nor the file name names the music, and "Track 1" by Martin
 * Severn tells a listener nothing a search or a recognition can tell apart. The album is what the
 * number counts in, so it names the recording; a version of a numbered recording on another album
 * ("Track 3 - Enhanced" on the Aftermath Soundtrack) is named after the album whose recording it
 * is a version of, when the source has one. A numbered title with no album to name stays as it is.
 * Decision 010.
 */
export function nameNumberedTitles(
  recordings: readonly { title: string; album: string | undefined }[],
): string[] {
  const bare = new Map<number, string[]>();
  for (const { title, album } of recordings) {
    const match = numberedTitle.exec(title);
    if (!match || match[2]?.trim() || !album) continue;
    const number = Number(match[1]);
    bare.set(number, [...(bare.get(number) ?? []), album]);
  }
  return recordings.map(({ title, album }) => {
    const match = numberedTitle.exec(title);
    if (!match) return title;
    const number = Number(match[1]);
    const albums = bare.get(number) ?? [];
    const numbered = album && albums.includes(album) ? album : (albums[0] ?? album);
    return numbered ? `${numbered} No. ${number}${match[2] ?? ""}` : title;
  });
}
