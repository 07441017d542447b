import { slugify } from "#origin/catalog-rules.ts";
import { playlistArtSvg, writeArtwork } from "./art";
import type { Artist, Genre, Track } from "./entities";
import { mediaDir } from "./output";

export type Playlist = {
  id: string;
  name: string;
  description: string;
  artistId: number | null;
  genreId: string | null;
  tracks: Track[];
};

export type PlaylistArt = { artId: string; bkgcolor: string };

/** Editorial playlists: each genre's and each artist's essentials, and the longest pieces. */
export function editorialPlaylists(
  genres: Map<string, Genre>,
  artists: Map<string, Artist>,
  tracks: Track[],
  totals: Map<number, number>,
): Playlist[] {
  const byTotal = (a: Track, b: Track) =>
    (totals.get(b.key) ?? 0) - (totals.get(a.key) ?? 0) || a.key - b.key;
  return [
    ...genreEssentials(genres, tracks, byTotal),
    ...artistEssentials(artists, tracks, byTotal),
    longListens(tracks),
  ];
}

/** The 25 most identified tracks of each genre with at least 3. */
function genreEssentials(
  genres: Map<string, Genre>,
  tracks: Track[],
  byTotal: (a: Track, b: Track) => number,
): Playlist[] {
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
  return playlists;
}

/** The 25 most identified tracks of each artist with at least 3. */
function artistEssentials(
  artists: Map<string, Artist>,
  tracks: Track[],
  byTotal: (a: Track, b: Track) => number,
): Playlist[] {
  const playlists: Playlist[] = [];
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
  return playlists;
}

function longListens(tracks: Track[]): Playlist {
  const longest = [...tracks].sort(
    (a, b) => b.recording.durationMs - a.recording.durationMs || a.key - b.key,
  );
  return {
    id: "pl.tw-long-listens",
    name: "Long Listens",
    description: "The longest pieces in the catalogue, for an uninterrupted hour.",
    artistId: null,
    genreId: null,
    tracks: longest.slice(0, 15),
  };
}

/** Each playlist's artwork, drawn from its first tracks. */
export async function drawPlaylistArt(
  playlists: Playlist[],
): Promise<{ playlistArt: Map<string, PlaylistArt>; mediaBytes: number }> {
  let mediaBytes = 0;
  const playlistArt = new Map<string, PlaylistArt>();
  for (const playlist of playlists) {
    const artId = `playlist-${slugify(playlist.id)}`;
    const colours = playlist.tracks.slice(0, 4).map((t) => t.bkgcolor);
    const envelope = playlist.tracks[0]?.profile.envelope ?? [];
    mediaBytes += await writeArtwork(Buffer.from(playlistArtSvg(colours, envelope)), mediaDir, artId);
    playlistArt.set(playlist.id, { artId, bkgcolor: colours[0] ?? "#555555" });
  }
  return { playlistArt, mediaBytes };
}
