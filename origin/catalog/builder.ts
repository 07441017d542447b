import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { artTrackPosterUrl, artTrackUrl, artworkUrl, previewUrl } from "#origin/catalog-rules.ts";
import { artTrack } from "./art-track";
import { decodeOgg, detectOnsets, freeDecoders } from "./audio";
import { chartCounts } from "./chart-counts";
import {
  albumById,
  artistBios,
  type CatalogueEntities,
  catalogueEntities,
  drawAvatars,
  finishAlbums,
  type ScannedRecording,
  type Track,
} from "./entities";
import { demoLyrics, demoLyricsFooter, demoLyricsProvider, timeLyrics } from "./lyrics";
import { distDir, log, mediaDir } from "./output";
import { drawPlaylistArt, editorialPlaylists } from "./playlists";
import { buildRecognitionIndex } from "./recognition";
import { type Skipped, scanSource } from "./scan";
import { seedSql } from "./seed";
import { type AudioSource, chosenPackages, debianSource, folderSource } from "./sources";
import type { SqlValue } from "./sql";
import { chartVenues, drawEventMedia } from "./venues";

// `npm run catalog`: the catalogue built from freely licensed recordings, phase by phase (see
// buildCatalog). Every phase is deterministic: the same sources give the same bytes.

/** The manifest other build steps (the recognition index) read: every track and its audio file. */
export type CatalogManifest = {
  version: string;
  tracks: ManifestTrack[];
};

export type ManifestTrack = {
  key: number;
  adamid: string;
  title: string;
  artist: string;
  album: string;
  /** Absolute path of the original recording. */
  audioFile: string;
  codec: "vorbis" | "opus";
  durationMs: number;
  previewUrl: string;
  licence: string;
  sourcePackage: string;
};

/**
 * Scans the recordings, builds the entities and their media, the charts' counts, the editorial
 * playlists, the lyrics and bios, then writes the D1 seed, the manifest and the recognition index.
 */
export async function buildCatalog(): Promise<{
  manifest: CatalogManifest;
  seedBytes: number;
  mediaBytes: number;
}> {
  const started = Date.now();
  const recordings = await scanRecordings(sourcesFromEnvironment());
  clearOutputs();
  const { mediaBytes: entityBytes, ...entities } = await catalogueEntities(recordings);
  log(`previews and track artwork written (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  let mediaBytes = entityBytes;
  mediaBytes += await writeArtTracks(entities.tracks);
  log(`art tracks written (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  mediaBytes += await finishAlbums(entities.albums);
  mediaBytes += await drawAvatars(entities.artists, entities.tracks);
  const counts = chartCounts(entities.tracks);
  const playlists = editorialPlaylists(entities.genres, entities.artists, entities.tracks, counts.totals);
  const drawn = await drawPlaylistArt(playlists);
  mediaBytes += drawn.mediaBytes;
  const lyricRows = await timedLyrics(entities.tracks);
  const bios = artistBios(entities);
  const venues = chartVenues(counts.locations.cities);
  mediaBytes += await drawEventMedia(mediaDir);
  const { seed, version } = seedSql({
    ...entities,
    ...counts,
    bios,
    lyricRows,
    playlists,
    playlistArt: drawn.playlistArt,
    venues,
  });
  fs.writeFileSync(path.join(distDir, "seed.sql"), seed);
  const manifest = catalogManifest(version, entities);
  fs.writeFileSync(path.join(distDir, "catalog.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await buildRecognitionIndex(manifest, distDir);

  const { locations } = counts;
  log(
    `${entities.tracks.length} tracks, ${entities.artists.size} artists, ${entities.albums.size} albums, ${playlists.length} playlists, ` +
      `${lyricRows.length} with lyrics, ${locations.countries.length} countries, ${locations.cities.length} cities; ` +
      `seed ${(Buffer.byteLength(seed) / 1024).toFixed(0)} KiB, media ${(mediaBytes / 1024 / 1024).toFixed(1)} MiB, ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { manifest, seedBytes: Buffer.byteLength(seed), mediaBytes };
}

function sourcesFromEnvironment(): AudioSource[] {
  const dir = process.env.CATALOG_AUDIO_DIR;
  if (dir) return [folderSource(dir)];
  return chosenPackages(process.env.CATALOG_PACKAGES).map(debianSource);
}

/** The date of the newest Debian changelog entry: when the recordings entered the distribution. */
function packageDate(source: AudioSource): string {
  const changelog = path.join(source.root, "usr/share/doc", source.binaryPackage, "changelog.Debian.gz");
  if (fs.existsSync(changelog)) {
    const text = gunzipSync(fs.readFileSync(changelog)).toString("utf8");
    const date = /^ -- .*?>\s+(.+)$/m.exec(text)?.[1];
    if (date && !Number.isNaN(Date.parse(date))) return new Date(date).toISOString().slice(0, 10);
  }
  const newest = fs
    .readdirSync(path.join(source.root, source.musicDir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.statSync(path.join(e.parentPath, e.name)).mtimeMs)
    .reduce((a, b) => Math.max(a, b), 0);
  return new Date(newest).toISOString().slice(0, 10);
}

/** The tagged recordings of every source, in id order (skipped files are logged). */
async function scanRecordings(sources: AudioSource[]): Promise<ScannedRecording[]> {
  const recordings: ScannedRecording[] = [];
  const skipped: Skipped[] = [];
  for (const source of sources) {
    const scanned = await scanSource(source);
    const addedDate = packageDate(source);
    for (const recording of scanned.recordings) recordings.push({ recording, source, addedDate });
    for (const s of scanned.skipped) skipped.push({ ...s, file: `${source.binaryPackage}/${s.file}` });
  }
  recordings.sort((a, b) => (a.recording.id < b.recording.id ? -1 : 1));
  for (const s of skipped) log(`skipped ${s.file}: ${s.reason}`);
  if (recordings.length === 0) throw new Error("no recordings found");
  log(`${recordings.length} recordings from ${sources.map((s) => s.binaryPackage).join(", ")}`);
  return recordings;
}

/** Artwork and previews of an earlier build go: every file is written again. */
function clearOutputs() {
  fs.rmSync(path.join(mediaDir, "art"), { recursive: true, force: true });
  fs.rmSync(path.join(mediaDir, "previews"), { recursive: true, force: true });
  fs.mkdirSync(path.join(mediaDir, "previews"), { recursive: true });
  fs.rmSync(path.join(mediaDir, "videos"), { recursive: true, force: true });
  fs.mkdirSync(path.join(mediaDir, "videos"), { recursive: true });
  fs.mkdirSync(distDir, { recursive: true });
}

/** Every preview's art track (its cover over its sound) and the art track's poster. */
async function writeArtTracks(tracks: Track[]): Promise<number> {
  let bytes = 0;
  for (const track of tracks) {
    const cover = path.join(mediaDir, artworkUrl(track.artId, 300).replace("/media/", ""));
    const preview = fs.readFileSync(path.join(mediaDir, previewUrl(track.key).replace("/media/", "")));
    const made = await artTrack(cover, track.bkgcolor, new Uint8Array(preview));
    fs.writeFileSync(path.join(mediaDir, artTrackUrl(track.key).replace("/media/", "")), made.webm);
    fs.writeFileSync(path.join(mediaDir, artTrackPosterUrl(track.key).replace("/media/", "")), made.poster);
    bytes += made.webm.length + made.poster.length;
  }
  return bytes;
}

/** Demo lyrics, timed against the full recording. */
async function timedLyrics(tracks: Track[]): Promise<SqlValue[][]> {
  const lyricRows: SqlValue[][] = [];
  for (const track of tracks) {
    const lines =
      demoLyrics[`${track.recording.source.binaryPackage}/${path.basename(track.recording.file)}`];
    if (!lines) continue;
    const audio = await decodeOgg(
      new Uint8Array(fs.readFileSync(track.recording.file)),
      track.recording.codec,
    );
    const synced = timeLyrics(lines, track.recording.durationMs, detectOnsets(audio));
    lyricRows.push([
      track.key,
      `tw-lyrics-${track.key}`,
      demoLyricsProvider,
      demoLyricsFooter,
      JSON.stringify(lines),
      JSON.stringify(synced),
    ]);
  }
  freeDecoders();
  return lyricRows;
}

/** Every track and its recording, for the recognition index and the tools. */
function catalogManifest(version: string, { albums, tracks }: CatalogueEntities): CatalogManifest {
  return {
    version,
    tracks: tracks.map((t) => ({
      key: t.key,
      adamid: t.adamid,
      title: t.recording.title,
      artist: t.recording.artist,
      album: albumById(albums, t.albumId)?.title ?? "",
      audioFile: t.recording.file,
      codec: t.recording.codec,
      durationMs: t.recording.durationMs,
      previewUrl: previewUrl(t.key),
      licence: t.recording.licence,
      sourcePackage: t.recording.source.sourcePackage,
    })),
  };
}
