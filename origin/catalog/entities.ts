import fs from "node:fs";
import path from "node:path";
import { hash32, previewSeconds, slugify } from "#origin/catalog-rules.ts";
import { avatarSvg, colourOfProfile, dominantColour, recordingArtSvg, writeArtwork } from "./art";
import { type AudioProfile, decodeOgg, freeDecoders, profileOf } from "./audio";
import { cutOggClip } from "./ogg";
import { mediaDir } from "./output";
import type { Recording } from "./scan";
import type { AudioSource } from "./sources";

// The catalogue's genres, artists, albums and tracks: drawn from the recordings, then finished
// once all are known (album details, avatars, bios).

export type Genre = { id: string; name: string; alias: string };

export type Artist = {
  id: number;
  adamid: string;
  name: string;
  alias: string;
  genreId: string;
  artId: string;
  bkgcolor: string;
};

export type Album = {
  id: string;
  title: string;
  artistName: string;
  genreId: string;
  /** Its tracks' release date too (albumRelease). */
  releaseDate: string;
  copyright: string;
  description: string;
  sourcePackage: string;
  artId: string;
  bkgcolor: string;
  isSingle: boolean;
  tracks: Track[];
};

export type Track = {
  recording: Recording;
  key: number;
  adamid: string;
  alias: string;
  artistId: number;
  albumId: string;
  genreId: string;
  /** Its album's (albumRelease): set by finishAlbums, once the album's every track is known. */
  releaseDate: string;
  releasePrecision: "year" | "day";
  addedDate: string;
  artId: string;
  bkgcolor: string;
  profile: AudioProfile;
  previewMs: number;
};

/** A recording with its source and the date its package entered the distribution. */
export type ScannedRecording = { recording: Recording; source: AudioSource; addedDate: string };

export type CatalogueEntities = {
  /** By name. */
  genres: Map<string, Genre>;
  /** By name. */
  artists: Map<string, Artist>;
  /** By package and title; a single also by its recording. */
  albums: Map<string, Album>;
  tracks: Track[];
};

/** The ids drawn so far: a seeded id already taken is drawn again. Adam ids share one space. */
type TakenIds = { genres: Set<number>; artists: Set<number>; adamIds: Set<number>; trackKeys: Set<number> };

/** Media written, in bytes, next to what a step made. */
type WithMedia<T> = T & { mediaBytes: number };

/**
 * Genres, artists, albums and tracks, with each track's preview and audio profile, and the
 * artwork of recordings and albums that carry their own. Ids come from seeded hashes in the
 * recordings' order, so the same sources give the same ids.
 */
export async function catalogueEntities(
  recordings: ScannedRecording[],
): Promise<WithMedia<CatalogueEntities>> {
  const entities: CatalogueEntities = {
    genres: new Map(),
    artists: new Map(),
    albums: new Map(),
    tracks: [],
  };
  const taken: TakenIds = { genres: new Set(), artists: new Set(), adamIds: new Set(), trackKeys: new Set() };
  let mediaBytes = 0;
  for (const scanned of recordings) mediaBytes += await addTrack(entities, taken, scanned);
  freeDecoders();
  return { ...entities, mediaBytes };
}

/** A recording's track, with its genre, artist and album added when new; answers the media bytes written. */
async function addTrack(
  entities: CatalogueEntities,
  taken: TakenIds,
  { recording, source, addedDate }: ScannedRecording,
): Promise<number> {
  // The order of the draws below is the order of the ids: changing it renumbers the catalogue.
  const genreId = genreOf(entities.genres, taken, recording, source).id;
  const artist = artistOf(entities.artists, taken, recording.artist, genreId);
  const key = uniqueNumber(`track:${recording.id}`, 10_000_000, 890_000_000, taken.trackKeys);
  const adamid = String(
    uniqueNumber(`track-adam:${recording.id}`, 1_000_000_000, 1_000_000_000, taken.adamIds),
  );
  const preview = await writePreview(recording, key);
  const { album, mediaBytes: coverBytes } = await albumOf(entities.albums, taken, recording, genreId);
  const art = await trackArtwork(recording, key, preview.profile, album);
  const track: Track = {
    recording,
    key,
    adamid,
    alias: slugify(recording.title),
    artistId: artist.id,
    albumId: album.id,
    genreId,
    releaseDate: "",
    releasePrecision: "day",
    addedDate,
    artId: art.artId,
    bkgcolor: art.bkgcolor,
    profile: preview.profile,
    previewMs: Math.round(preview.seconds * 1000),
  };
  entities.tracks.push(track);
  album.tracks.push(track);
  return preview.mediaBytes + coverBytes + art.mediaBytes;
}

/** The recording's genre, from its tags; a game-music package without genre tags is a soundtrack. */
function genreOf(
  genres: Map<string, Genre>,
  taken: TakenIds,
  recording: Recording,
  source: AudioSource,
): Genre {
  const name = recording.genre ?? (source.binaryPackage.startsWith("local:") ? "Music" : "Soundtrack");
  let genre = genres.get(name);
  if (!genre) {
    genre = {
      id: String(uniqueNumber(`genre:${name}`, 10_000, 90_000, taken.genres)),
      name,
      alias: slugify(name),
    };
    genres.set(name, genre);
  }
  return genre;
}

function artistOf(artists: Map<string, Artist>, taken: TakenIds, name: string, genreId: string): Artist {
  let artist = artists.get(name);
  if (!artist) {
    const id = uniqueNumber(`artist:${name}`, 40_000_000, 900_000_000, taken.artists);
    artist = {
      id,
      adamid: String(uniqueNumber(`artist-adam:${name}`, 100_000_000, 900_000_000, taken.adamIds)),
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

/** The preview clip of a recording, checked to decode cleanly, and the audio profile drawn from it. */
async function writePreview(
  recording: Recording,
  key: number,
): Promise<WithMedia<{ profile: AudioProfile; seconds: number }>> {
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
  return { profile: profileOf(decoded), seconds: clip.seconds, mediaBytes: clip.bytes.length };
}

/**
 * The recording's album, added with its cover when new. A recording without an album tag is a
 * single of its own; the details that need every track wait for `finishAlbums`.
 */
async function albumOf(
  albums: Map<string, Album>,
  taken: TakenIds,
  recording: Recording,
  genreId: string,
): Promise<WithMedia<{ album: Album }>> {
  const albumTitle = recording.album ?? `${recording.title} - Single`;
  const albumKey = `${recording.source.binaryPackage}\u0000${albumTitle}${recording.album ? "" : `\u0000${recording.id}`}`;
  const known = albums.get(albumKey);
  if (known) return { album: known, mediaBytes: 0 };
  const id = String(uniqueNumber(`album:${albumKey}`, 1_000_000_000, 1_000_000_000, taken.adamIds));
  const album: Album = {
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
  let mediaBytes = 0;
  if (recording.albumCover) {
    mediaBytes += await writeArtwork(recording.albumCover, mediaDir, album.artId);
    album.bkgcolor = await dominantColour(recording.albumCover);
  }
  albums.set(albumKey, album);
  return { album, mediaBytes };
}

/** A track shows its album's cover when the album has one, else artwork drawn from its sound. */
async function trackArtwork(
  recording: Recording,
  key: number,
  profile: AudioProfile,
  album: Album,
): Promise<WithMedia<{ artId: string; bkgcolor: string }>> {
  if (recording.albumCover) return { artId: album.artId, bkgcolor: album.bkgcolor, mediaBytes: 0 };
  const bkgcolor = colourOfProfile(profile, recording.id);
  const artId = `track-${key}`;
  const svg = Buffer.from(recordingArtSvg(profile, bkgcolor, recording.id));
  return { artId, bkgcolor, mediaBytes: await writeArtwork(svg, mediaDir, artId) };
}

/** Albums: track order, release date, copyright; those without a cover get one drawn from their recordings. */
export async function finishAlbums(albums: Map<string, Album>): Promise<number> {
  let mediaBytes = 0;
  for (const album of albums.values()) {
    album.tracks.sort(
      (a, b) => (a.recording.trackNumber ?? 999) - (b.recording.trackNumber ?? 999) || a.key - b.key,
    );
    const release = albumRelease(album.tracks);
    album.releaseDate = release.date;
    for (const track of album.tracks) {
      track.releaseDate = release.date;
      track.releasePrecision = release.precision;
    }
    const names = [...new Set(album.tracks.map((t) => t.recording.artist))];
    album.artistName = names.length === 1 ? (names[0] ?? "") : "Various Artists";
    // The ℗ line names when the recordings were made, which may span years the release date does not.
    const years = album.tracks
      .map((t) => t.recording.year ?? Number(t.addedDate.slice(0, 4)))
      .sort((a, b) => a - b);
    const firstYear = years[0];
    const lastYear = years.at(-1);
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

type ReleasedTrack = { recording: Pick<Recording, "year">; addedDate: string };
type Release = { date: string; precision: Track["releasePrecision"] };

/**
 * When an album and each of its tracks were released: one date, so a track page and its album page
 * never disagree. A track is released on its album (a recording without an album is a single of
 * its own), so the album's date is the track's, and a track's own year tag does not override it:
 * the tag says when that recording was made (wesnoth's OST gathers recordings tagged 2004 to 2012),
 * which the album's ℗ line keeps. The album is out once its newest recording is: the newest year
 * its tracks' tags (or warzone's album.json) give, to the year; with no year anywhere, the day its
 * package entered Debian, to the day. Decision 010.
 */
export function albumRelease(tracks: readonly ReleasedTrack[]): Release {
  const years = tracks.flatMap((t) => (t.recording.year === undefined ? [] : [t.recording.year]));
  if (years.length > 0) return { date: `${years.reduce((a, b) => Math.max(a, b))}-01-01`, precision: "year" };
  const added = tracks
    .map((t) => t.addedDate)
    .sort()
    .at(-1);
  return { date: added ?? "", precision: "day" };
}

/** Artist avatars, drawn in the colours of their recordings. */
export async function drawAvatars(artists: Map<string, Artist>, tracks: Track[]): Promise<number> {
  let mediaBytes = 0;
  for (const artist of artists.values()) {
    const colours = tracks.filter((t) => t.artistId === artist.id).map((t) => t.bkgcolor);
    artist.bkgcolor = colours[0] ?? "#555555";
    mediaBytes += await writeArtwork(Buffer.from(avatarSvg(colours, artist.name)), mediaDir, artist.artId);
  }
  return mediaBytes;
}

/** Artist bios, written from the metadata. */
export function artistBios({ genres, artists, albums, tracks }: CatalogueEntities): Map<number, string> {
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

export function albumById(albums: Map<string, Album>, id: string): Album | undefined {
  for (const album of albums.values()) if (album.id === id) return album;
  return undefined;
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
