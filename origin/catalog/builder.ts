import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
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
} from "../../signature/index";
import { decodeAudioFile } from "../../tools/audio/decode";
import { addNoise, seededRandom } from "../../tools/audio/degrade";
import { hash32, previewSeconds, previewUrl, slugify, unitHash } from "../catalog-rules";
import {
  type RecognitionManifest,
  type RecognitionProbes,
  recognitionAssetFolder,
  recognitionManifestPath,
  recognitionPartMaxBytes,
  recognitionPartPath,
} from "../recognition-index";
import {
  avatarSvg,
  colourOfProfile,
  dominantColour,
  playlistArtSvg,
  recordingArtSvg,
  writeArtwork,
} from "./art";
import { type AudioProfile, decodeOgg, detectOnsets, freeDecoders, profileOf } from "./audio";
import { featureConfigs } from "./features";
import { chartLocations } from "./locations";
import { demoLyrics, demoLyricsFooter, demoLyricsProvider, timeLyrics } from "./lyrics";
import { cutOggClip } from "./ogg";
import { type Recording, type Skipped, scanSource } from "./scan";
import { type AudioSource, debianSource, folderSource, musicPackages } from "./sources";
import { insertStatements, type SqlValue } from "./sql";

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

type Track = {
  recording: Recording;
  key: number;
  adamid: string;
  alias: string;
  artistId: number;
  albumId: string;
  genreId: string;
  releaseDate: string;
  releasePrecision: "year" | "day";
  addedDate: string;
  artId: string;
  bkgcolor: string;
  profile: AudioProfile;
  previewMs: number;
};

type Artist = {
  id: number;
  adamid: string;
  name: string;
  alias: string;
  genreId: string;
  artId: string;
  bkgcolor: string;
};
type Album = {
  id: string;
  title: string;
  artistName: string;
  genreId: string;
  releaseDate: string;
  copyright: string;
  description: string;
  sourcePackage: string;
  artId: string;
  bkgcolor: string;
  isSingle: boolean;
  tracks: Track[];
};
type Playlist = {
  id: string;
  name: string;
  description: string;
  artistId: number | null;
  genreId: string | null;
  tracks: Track[];
};

/** Tables the seed replaces (everything but the beacons the sinks received). */
const catalogueTables = [
  "meta",
  "genres",
  "artists",
  "albums",
  "tracks",
  "lyrics",
  "playlists",
  "playlist_tracks",
  "countries",
  "cities",
  "country_tag_counts",
  "tag_counts",
  "feature_config",
];

const repoRoot = path.resolve(import.meta.dirname, "../..");
export const distDir = path.join(repoRoot, "origin/catalog/dist");
export const mediaDir = path.join(repoRoot, "public/media");

function log(message: string) {
  process.stderr.write(`catalog: ${message}\n`);
}

/** A number in [min, min + span) from a seed, re-seeded until it is not taken. */
function uniqueNumber(seed: string, min: number, span: number, taken: Set<number>): number {
  for (let attempt = 0; ; attempt++) {
    const n = min + (hash32(`${seed}#${attempt}`) % span);
    if (!taken.has(n)) {
      taken.add(n);
      return n;
    }
  }
}

function sourcesFromEnvironment(): AudioSource[] {
  const dir = process.env.CATALOG_AUDIO_DIR;
  if (dir) return [folderSource(dir)];
  return musicPackages.map(debianSource);
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

/** Probes: how many recordings, where in them, how long and how noisy (see recognitionProbesSchema). */
const probeCount = 6;
const probeStartShare = 0.4;
const probeSeconds = RECORDING_CHECKPOINTS_SECONDS[1];
const probeSnrDb = 15;

/**
 * The recognition index over the catalogue's recordings (issue 11): each recording is decoded and
 * added to the index on its own, so only one is in memory at a time. The index is written as
 * static assets (public/media/recognition/: a manifest and parts under the 25 MiB asset limit), and
 * a few noisy excerpts' signatures are matched against it as a self-check and kept as probes in
 * `outDir` for the worker tests.
 */
export async function buildRecognitionIndex(
  manifest: { version: string; tracks: readonly Pick<ManifestTrack, "key" | "audioFile">[] },
  outDir: string,
): Promise<void> {
  const started = Date.now();
  const publicDir = path.join(mediaDir, "..");
  const folder = path.join(publicDir, recognitionAssetFolder);
  fs.mkdirSync(folder, { recursive: true });
  const builder = createIndexBuilder();
  const every = Math.max(1, Math.floor(manifest.tracks.length / probeCount));
  const probes: { trackKey: string; fromMs: number; signature: Signature }[] = [];
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
  const sha256 = createHash("sha256").update(bytes).digest("hex");

  const parts: RecognitionManifest["parts"] = [];
  for (let from = 0, part = 0; from < bytes.length || part === 0; from += recognitionPartMaxBytes, part++) {
    const chunk = bytes.subarray(from, Math.min(bytes.length, from + recognitionPartMaxBytes));
    const assetPath = recognitionPartPath(sha256, part);
    fs.writeFileSync(path.join(publicDir, assetPath), chunk);
    parts.push({ path: assetPath, bytes: chunk.length });
  }
  const indexManifest: RecognitionManifest = {
    catalogVersion: manifest.version,
    signatureVersion: SIGNATURE_VERSION,
    indexVersion: INDEX_VERSION,
    sha256,
    bytes: bytes.length,
    tracks: builder.trackCount,
    hours,
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

  const index = loadIndex(bytes);
  const checked: RecognitionProbes = {
    catalogVersion: manifest.version,
    sha256,
    probes: probes.map(({ trackKey, fromMs, signature }) => ({
      trackKey,
      fromMs,
      seconds: probeSeconds,
      snrDb: probeSnrDb,
      data: encodeSignatureBase64(signature),
      matched: matchSignature(index, signature)?.trackKey === trackKey,
    })),
  };
  fs.writeFileSync(path.join(outDir, "recognition-probes.json"), `${JSON.stringify(checked, null, 2)}\n`);
  const matched = checked.probes.filter((probe) => probe.matched).length;
  log(
    `recognition index: ${builder.trackCount} tracks, ${hours.toFixed(2)} h, ${builder.entryCount} hashes, ` +
      `${(bytes.length / 1024 / 1024).toFixed(1)} MiB in ${parts.length} part(s); ` +
      `self-check ${matched}/${checked.probes.length} probes matched; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (matched < checked.probes.length) log("recognition index: WARNING, a probe did not match its recording");
}

type Genre = { id: string; name: string; alias: string };
type ScannedRecording = { recording: Recording; source: AudioSource; addedDate: string };
type CountryCount = { country: string; track: Track; total: number; recent: number };

/** The tagged recordings of every source, in id order (skipped files are logged). */
async function scanRecordings(sources: AudioSource[]): Promise<ScannedRecording[]> {
  const recordings: { recording: Recording; source: AudioSource; addedDate: string }[] = [];
  const skipped: Skipped[] = [];
  for (const source of sources) {
    const scanned = await scanSource(source);
    const addedDate = packageDate(source);
    recordings.push(...scanned.recordings.map((recording) => ({ recording, source, addedDate })));
    skipped.push(...scanned.skipped.map((s) => ({ ...s, file: `${source.binaryPackage}/${s.file}` })));
  }
  recordings.sort((a, b) => (a.recording.id < b.recording.id ? -1 : 1));
  for (const s of skipped) log(`skipped ${s.file}: ${s.reason}`);
  if (recordings.length === 0) throw new Error("no recordings found");
  log(`${recordings.length} recordings from ${sources.map((s) => s.binaryPackage).join(", ")}`);
  return recordings;
}

/**
 * Genres, artists, albums and tracks, with each track's preview and audio profile, and the
 * artwork of recordings and albums that carry their own. Ids come from seeded hashes in the
 * recordings' order, so the same sources give the same ids.
 */
async function catalogueEntities(recordings: ScannedRecording[]): Promise<{
  genres: Map<string, Genre>;
  artists: Map<string, Artist>;
  albums: Map<string, Album>;
  tracks: Track[];
  mediaBytes: number;
}> {
  let mediaBytes = 0;
  // Genres (from tags; a game-music package without genre tags is a soundtrack).
  const genres = new Map<string, Genre>();
  const takenGenres = new Set<number>();
  function genreOf(recording: Recording, source: AudioSource): string {
    const name = recording.genre ?? (source.binaryPackage.startsWith("local:") ? "Music" : "Soundtrack");
    let genre = genres.get(name);
    if (!genre) {
      genre = {
        id: String(uniqueNumber(`genre:${name}`, 10_000, 90_000, takenGenres)),
        name,
        alias: slugify(name),
      };
      genres.set(name, genre);
    }
    return genre.id;
  }

  // Artists.
  const artists = new Map<string, Artist>();
  const takenArtistIds = new Set<number>();
  const takenAdamIds = new Set<number>();
  function artistOf(name: string, genreId: string): Artist {
    let artist = artists.get(name);
    if (!artist) {
      const id = uniqueNumber(`artist:${name}`, 40_000_000, 900_000_000, takenArtistIds);
      artist = {
        id,
        adamid: String(uniqueNumber(`artist-adam:${name}`, 100_000_000, 900_000_000, takenAdamIds)),
        name,
        alias: slugify(name),
        genreId,
        artId: `artist-${id}`,
        bkgcolor: "#000000",
      };
      artists.set(name, artist);
    }
    return artist;
  }

  // Tracks, previews and their audio profiles.
  const takenKeys = new Set<number>();
  const tracks: Track[] = [];
  const albums = new Map<string, Album>();
  for (const { recording, source, addedDate } of recordings) {
    const genreId = genreOf(recording, source);
    const artist = artistOf(recording.artist, genreId);
    const key = uniqueNumber(`track:${recording.id}`, 10_000_000, 890_000_000, takenKeys);
    const adamid = String(
      uniqueNumber(`track-adam:${recording.id}`, 1_000_000_000, 1_000_000_000, takenAdamIds),
    );

    const original = new Uint8Array(fs.readFileSync(recording.file));
    const clip = cutOggClip(original, previewSeconds);
    const decoded = await decodeOgg(clip.bytes, clip.codec.codec);
    const decodedSeconds = decoded.mono.length / decoded.sampleRate;
    if (decoded.errors > 0 || Math.abs(decodedSeconds - clip.seconds) > 0.25) {
      throw new Error(
        `preview of ${recording.id} does not decode cleanly (${decodedSeconds}s vs ${clip.seconds}s)`,
      );
    }
    fs.writeFileSync(path.join(mediaDir, "previews", `${key}.ogg`), clip.bytes);
    mediaBytes += clip.bytes.length;
    const profile = profileOf(decoded);

    const albumTitle = recording.album ?? `${recording.title} - Single`;
    const albumKey = `${recording.source.binaryPackage}\u0000${albumTitle}${recording.album ? "" : `\u0000${recording.id}`}`;
    let album = albums.get(albumKey);
    if (!album) {
      const id = String(uniqueNumber(`album:${albumKey}`, 1_000_000_000, 1_000_000_000, takenAdamIds));
      album = {
        id,
        title: albumTitle,
        artistName: recording.artist,
        genreId,
        releaseDate: "",
        copyright: "",
        description: recording.albumDescription ?? "",
        sourcePackage: recording.source.sourcePackage,
        artId: `album-${id}`,
        bkgcolor: "",
        isSingle: !recording.album,
        tracks: [],
      };
      if (recording.albumCover) {
        mediaBytes += await writeArtwork(recording.albumCover, mediaDir, album.artId);
        album.bkgcolor = await dominantColour(recording.albumCover);
      }
      albums.set(albumKey, album);
    }

    const generated = !recording.albumCover;
    const bkgcolor = generated ? colourOfProfile(profile, recording.id) : album.bkgcolor;
    const artId = generated ? `track-${key}` : album.artId;
    if (generated) {
      mediaBytes += await writeArtwork(
        Buffer.from(recordingArtSvg(profile, bkgcolor, recording.id)),
        mediaDir,
        artId,
      );
    }
    const track: Track = {
      recording,
      key,
      adamid,
      alias: slugify(recording.title),
      artistId: artist.id,
      albumId: album.id,
      genreId,
      releaseDate: recording.year ? `${recording.year}-01-01` : addedDate,
      releasePrecision: recording.year ? "year" : "day",
      addedDate,
      artId,
      bkgcolor,
      profile,
      previewMs: Math.round(clip.seconds * 1000),
    };
    tracks.push(track);
    album.tracks.push(track);
  }
  freeDecoders();
  return { genres, artists, albums, tracks, mediaBytes };
}

/** Albums: track order, release date, copyright; those without a cover get one drawn from their recordings. */
async function finishAlbums(albums: Map<string, Album>): Promise<number> {
  let mediaBytes = 0;
  for (const album of albums.values()) {
    album.tracks.sort(
      (a, b) => (a.recording.trackNumber ?? 999) - (b.recording.trackNumber ?? 999) || a.key - b.key,
    );
    const years = album.tracks.map((t) => t.releaseDate).sort();
    album.releaseDate = years.at(-1) ?? "";
    const names = [...new Set(album.tracks.map((t) => t.recording.artist))];
    album.artistName = names.length === 1 ? (names[0] ?? "") : "Various Artists";
    const firstYear = years[0]?.slice(0, 4);
    const lastYear = years.at(-1)?.slice(0, 4);
    album.copyright = `℗ ${firstYear === lastYear ? firstYear : `${firstYear}–${lastYear}`} ${album.artistName}`;
    if (!album.bkgcolor) {
      const first = album.tracks[0];
      if (!first) continue;
      const profile = averageProfile(album.tracks.map((t) => t.profile));
      album.bkgcolor = first.bkgcolor;
      if (album.isSingle) album.artId = first.artId;
      else
        mediaBytes += await writeArtwork(
          Buffer.from(recordingArtSvg(profile, album.bkgcolor, album.id)),
          mediaDir,
          album.artId,
        );
    }
  }
  return mediaBytes;
}

/** Artist avatars, drawn in the colours of their recordings. */
async function drawAvatars(artists: Map<string, Artist>, tracks: Track[]): Promise<number> {
  let mediaBytes = 0;
  for (const artist of artists.values()) {
    const colours = tracks.filter((t) => t.artistId === artist.id).map((t) => t.bkgcolor);
    artist.bkgcolor = colours[0] ?? "#555555";
    mediaBytes += await writeArtwork(Buffer.from(avatarSvg(colours, artist.name)), mediaDir, artist.artId);
  }
  return mediaBytes;
}

/** Charts: per-country tag counts, seeded by track × country, and each track's total. */
function chartCounts(tracks: Track[]) {
  const locations = chartLocations();
  const countryCounts: CountryCount[] = [];
  for (const country of locations.countries) {
    for (const track of tracks) {
      const base = 400 + 6000 * unitHash(`base:${track.key}`) ** 2;
      const affinity = 0.5 + unitHash(`genre:${country.id}:${track.genreId}`);
      const total = Math.round(
        base * country.weight * affinity * (0.3 + 1.4 * unitHash(`count:${country.id}:${track.key}`)),
      );
      if (total === 0) continue;
      const recent = Math.round(total * (0.01 + 0.25 * unitHash(`recent:${country.id}:${track.key}`) ** 2));
      countryCounts.push({ country: country.id, track, total, recent });
    }
  }
  const totals = new Map<number, number>();
  for (const c of countryCounts) totals.set(c.track.key, (totals.get(c.track.key) ?? 0) + c.total);
  return { locations, countryCounts, totals };
}

/** Editorial playlists: each genre's and each artist's essentials, and the longest pieces. */
function editorialPlaylists(
  genres: Map<string, Genre>,
  artists: Map<string, Artist>,
  tracks: Track[],
  totals: Map<number, number>,
): Playlist[] {
  const byTotal = (a: Track, b: Track) =>
    (totals.get(b.key) ?? 0) - (totals.get(a.key) ?? 0) || a.key - b.key;
  const playlists: Playlist[] = [];
  for (const genre of genres.values()) {
    const genreTracks = tracks
      .filter((t) => t.genreId === genre.id)
      .sort(byTotal)
      .slice(0, 25);
    if (genreTracks.length < 3) continue;
    playlists.push({
      id: `pl.tw-genre-${genre.id}`,
      name: `${genre.name} Essentials`,
      description: `The most identified ${genre.name.toLowerCase()} recordings on Tunewave.`,
      artistId: null,
      genreId: genre.id,
      tracks: genreTracks,
    });
  }
  for (const artist of artists.values()) {
    const artistTracks = tracks.filter((t) => t.artistId === artist.id).sort(byTotal);
    if (artistTracks.length < 3) continue;
    playlists.push({
      id: `pl.tw-artist-${artist.id}`,
      name: `${artist.name}: Essentials`,
      description: `The recordings of ${artist.name} that Tunewave listeners identify most.`,
      artistId: artist.id,
      genreId: artist.genreId,
      tracks: artistTracks.slice(0, 25),
    });
  }
  const longest = [...tracks].sort(
    (a, b) => b.recording.durationMs - a.recording.durationMs || a.key - b.key,
  );
  playlists.push({
    id: "pl.tw-long-listens",
    name: "Long Listens",
    description: "The longest pieces in the catalogue, for an uninterrupted hour.",
    artistId: null,
    genreId: null,
    tracks: longest.slice(0, 15),
  });
  return playlists;
}

/** Each playlist's artwork, drawn from its first tracks. */
async function drawPlaylistArt(playlists: Playlist[]) {
  let mediaBytes = 0;
  const playlistArt = new Map<string, { artId: string; bkgcolor: string }>();
  for (const playlist of playlists) {
    const artId = `playlist-${slugify(playlist.id)}`;
    const colours = playlist.tracks.slice(0, 4).map((t) => t.bkgcolor);
    const envelope = playlist.tracks[0]?.profile.envelope ?? [];
    mediaBytes += await writeArtwork(Buffer.from(playlistArtSvg(colours, envelope)), mediaDir, artId);
    playlistArt.set(playlist.id, { artId, bkgcolor: colours[0] ?? "#555555" });
  }
  return { playlistArt, mediaBytes };
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

/** Artist bios, written from the metadata. */
function artistBios(
  artists: Map<string, Artist>,
  tracks: Track[],
  albums: Map<string, Album>,
  genres: Map<string, Genre>,
): Map<number, string> {
  const bios = new Map<number, string>();
  for (const artist of artists.values()) {
    const own = tracks.filter((t) => t.artistId === artist.id);
    const albumTitles = [...new Set(own.map((t) => albumById(albums, t.albumId)?.title ?? ""))].filter(
      Boolean,
    );
    const years = own
      .map((t) => t.recording.year)
      .filter((y): y is number => y !== undefined)
      .sort();
    const licences = [...new Set(own.map((t) => t.recording.licence))];
    const packages = [...new Set(own.map((t) => t.recording.source.binaryPackage))];
    const genreNames = [
      ...new Set(own.map((t) => [...genres.values()].find((g) => g.id === t.genreId)?.name)),
    ];
    const span = years.length
      ? years[0] === years.at(-1)
        ? ` in ${years[0]}`
        : ` between ${years[0]} and ${years.at(-1)}`
      : "";
    const notes = own
      .map((t) => t.recording.comment)
      .filter((c): c is string => !!c && !c.startsWith("http"));
    bios.set(
      artist.id,
      [
        `${artist.name} composed ${own.length === 1 ? "one recording" : `${own.length} recordings`} in the Tunewave catalogue${span}, on ${albumTitles.join(", ")}.`,
        `Genre: ${genreNames.join(", ")}.`,
        notes.length ? `${notes[0]}.` : "",
        `Free music: released under ${licences.join("; ")} and distributed in Debian's ${packages.join(", ")} package${packages.length > 1 ? "s" : ""}.`,
      ]
        .filter(Boolean)
        .join(" "),
    );
  }
  return bios;
}

/** The D1 seed: every table's rows, with the catalogue version (a hash of the rows). */
function seedSql(catalogue: {
  genres: Map<string, Genre>;
  artists: Map<string, Artist>;
  albums: Map<string, Album>;
  tracks: Track[];
  bios: Map<number, string>;
  lyricRows: SqlValue[][];
  playlists: Playlist[];
  playlistArt: Map<string, { artId: string; bkgcolor: string }>;
  locations: ReturnType<typeof chartLocations>;
  countryCounts: CountryCount[];
  totals: Map<number, number>;
}): { seed: string; version: string } {
  const {
    genres,
    artists,
    albums,
    tracks,
    bios,
    lyricRows,
    playlists,
    playlistArt,
    locations,
    countryCounts,
    totals,
  } = catalogue;
  const statements: string[] = catalogueTables.map((table) => `DELETE FROM ${table};`);
  statements.push(
    ...insertStatements(
      "genres",
      ["id", "name", "alias"],
      [...genres.values()].map((g) => [g.id, g.name, g.alias]),
    ),
    ...insertStatements(
      "artists",
      ["id", "adamid", "name", "alias", "genre_id", "bio", "origin", "born_or_formed", "art_id", "bkgcolor"],
      [...artists.values()].map((a) => [
        a.id,
        a.adamid,
        a.name,
        a.alias,
        a.genreId,
        bios.get(a.id) ?? "",
        null,
        null,
        a.artId,
        a.bkgcolor,
      ]),
    ),
    ...insertStatements(
      "albums",
      [
        "id",
        "title",
        "alias",
        "artist_name",
        "genre_id",
        "release_date",
        "copyright",
        "description",
        "source_package",
        "art_id",
        "bkgcolor",
        "is_single",
      ],
      [...albums.values()].map((a) => [
        a.id,
        a.title,
        slugify(a.title),
        a.artistName,
        a.genreId,
        a.releaseDate,
        a.copyright,
        a.description,
        a.sourcePackage,
        a.artId,
        a.bkgcolor,
        a.isSingle,
      ]),
    ),
    ...insertStatements(
      "tracks",
      [
        "key",
        "adamid",
        "title",
        "alias",
        "artist_id",
        "album_id",
        "track_number",
        "genre_id",
        "release_date",
        "release_precision",
        "added_date",
        "duration_ms",
        "licence",
        "copyright",
        "source_package",
        "binary_package",
        "package_version",
        "source_file",
        "comment",
        "bpm",
        "art_id",
        "bkgcolor",
        "preview_ms",
      ],
      tracks.map((t) => [
        t.key,
        t.adamid,
        t.recording.title,
        t.alias,
        t.artistId,
        t.albumId,
        t.recording.trackNumber ?? null,
        t.genreId,
        t.releaseDate,
        t.releasePrecision,
        t.addedDate,
        t.recording.durationMs,
        t.recording.licence,
        t.recording.copyright,
        t.recording.source.sourcePackage,
        t.recording.source.binaryPackage,
        t.recording.source.version,
        `/${t.recording.relativePath}`,
        t.recording.comment ?? null,
        t.recording.bpm ?? null,
        t.artId,
        t.bkgcolor,
        t.previewMs,
      ]),
    ),
    ...insertStatements(
      "lyrics",
      ["track_key", "lyrics_id", "provider", "footer", "lines", "synced"],
      lyricRows,
    ),
    ...insertStatements(
      "playlists",
      [
        "id",
        "name",
        "description",
        "curator",
        "artist_id",
        "genre_id",
        "art_id",
        "bkgcolor",
        "last_modified",
      ],
      playlists.map((p) => [
        p.id,
        p.name,
        p.description,
        "Tunewave",
        p.artistId,
        p.genreId,
        playlistArt.get(p.id)?.artId ?? "",
        playlistArt.get(p.id)?.bkgcolor ?? "#555555",
        p.tracks
          .map((t) => t.addedDate)
          .sort()
          .at(-1) ?? "",
      ]),
    ),
    ...insertStatements(
      "playlist_tracks",
      ["playlist_id", "position", "track_key"],
      playlists.flatMap((p) => p.tracks.map((t, i) => [p.id, i + 1, t.key])),
    ),
    ...insertStatements(
      "countries",
      ["id", "url_name", "loc_name", "position"],
      locations.countries.map((c, i) => [c.id, c.urlName, c.locName, i + 1]),
    ),
    ...insertStatements(
      "cities",
      ["id", "country", "name", "url_name", "population"],
      locations.cities.map((c) => [c.id, c.country, c.name, c.urlName, c.population]),
    ),
    ...insertStatements(
      "country_tag_counts",
      ["country", "track_key", "total", "recent"],
      countryCounts.map((c) => [c.country, c.track.key, c.total, c.recent]),
      400,
    ),
    ...insertStatements(
      "tag_counts",
      ["track_key", "total"],
      tracks.map((t) => [t.key, totals.get(t.key) ?? 0]),
    ),
    ...insertStatements(
      "feature_config",
      ["app", "config"],
      Object.entries(featureConfigs).map(([app, config]) => [app, JSON.stringify(config)]),
    ),
  );
  const body = statements.join("\n");
  const version = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const seed = `-- Tunewave catalogue seed ${version}: written by origin/catalog/build.ts, do not edit.\n${body}\n${insertStatements(
    "meta",
    ["key", "value"],
    [
      ["catalog_version", version],
      ["track_count", String(tracks.length)],
    ],
  ).join("\n")}\n`;
  return { seed, version };
}

export async function buildCatalog(): Promise<{
  manifest: CatalogManifest;
  seedBytes: number;
  mediaBytes: number;
}> {
  const started = Date.now();
  const sources = sourcesFromEnvironment();
  const recordings = await scanRecordings(sources);
  fs.rmSync(path.join(mediaDir, "art"), { recursive: true, force: true });
  fs.rmSync(path.join(mediaDir, "previews"), { recursive: true, force: true });
  fs.mkdirSync(path.join(mediaDir, "previews"), { recursive: true });
  fs.mkdirSync(distDir, { recursive: true });
  let mediaBytes = 0;

  const { genres, artists, albums, tracks, mediaBytes: entityBytes } = await catalogueEntities(recordings);
  log(`previews and track artwork written (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  mediaBytes += entityBytes;
  mediaBytes += await finishAlbums(albums);
  mediaBytes += await drawAvatars(artists, tracks);
  const { locations, countryCounts, totals } = chartCounts(tracks);
  const playlists = editorialPlaylists(genres, artists, tracks, totals);
  const drawn = await drawPlaylistArt(playlists);
  mediaBytes += drawn.mediaBytes;
  const lyricRows = await timedLyrics(tracks);
  const bios = artistBios(artists, tracks, albums, genres);
  const { seed, version } = seedSql({
    genres,
    artists,
    albums,
    tracks,
    bios,
    lyricRows,
    playlists,
    playlistArt: drawn.playlistArt,
    locations,
    countryCounts,
    totals,
  });
  fs.writeFileSync(path.join(distDir, "seed.sql"), seed);

  const manifest: CatalogManifest = {
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
  fs.writeFileSync(path.join(distDir, "catalog.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await buildRecognitionIndex(manifest, distDir);

  log(
    `${tracks.length} tracks, ${artists.size} artists, ${albums.size} albums, ${playlists.length} playlists, ` +
      `${lyricRows.length} with lyrics, ${locations.countries.length} countries, ${locations.cities.length} cities; ` +
      `seed ${(Buffer.byteLength(seed) / 1024).toFixed(0)} KiB, media ${(mediaBytes / 1024 / 1024).toFixed(1)} MiB, ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { manifest, seedBytes: Buffer.byteLength(seed), mediaBytes };
}

function albumById(albums: Map<string, Album>, id: string): Album | undefined {
  for (const album of albums.values()) if (album.id === id) return album;
  return undefined;
}

function averageProfile(profiles: AudioProfile[]): AudioProfile {
  const n = profiles.length || 1;
  const first = profiles[0];
  const bins = first?.envelope.length ?? 0;
  return {
    envelope: Array.from(
      { length: bins },
      (_, i) => profiles.reduce((s, p) => s + (p.envelope[i] ?? 0), 0) / n,
    ),
    bands: [0, 1, 2].map((i) => profiles.reduce((s, p) => s + (p.bands[i] ?? 0), 0) / n) as [
      number,
      number,
      number,
    ],
    dynamics: profiles.reduce((s, p) => s + p.dynamics, 0) / n,
  };
}
