import * as db from "./db";

// The catalogue's search, shared by the catalogue API's search and the search service: which
// songs and artists match a term, and how well.

/** Case-insensitive search: prefix matches before inner matches, then by identifications. */
export function searchRank(name: string, term: string): number {
  const n = name.toLowerCase();
  if (n === term) return 0;
  if (n.startsWith(term)) return 1;
  if (n.split(/\s+/).some((word) => word.startsWith(term))) return 2;
  return 3;
}

/** How well a song matches a lowercased term: its title, else its artist one step behind. */
export function songRank(row: db.TrackRow, term: string): number {
  return Math.min(searchRank(row.title, term), searchRank(row.artist_name, term) + 1);
}

/** Songs whose title, artist or album holds the lowercased term, best first (both search calls). */
export async function searchSongs(d1: D1Database, term: string): Promise<db.TrackRow[]> {
  const rows = await db.tracksMatching(d1, term);
  return rows.sort((x, y) => songRank(x, term) - songRank(y, term) || y.total - x.total || x.key - y.key);
}

/** Artists whose name holds the lowercased term, best first. */
export async function searchArtists(d1: D1Database, term: string): Promise<db.ArtistRow[]> {
  const rows = await db.artistsMatching(d1, term);
  return rows.sort(
    (x, y) => searchRank(x.name, term) - searchRank(y.name, term) || (x.name < y.name ? -1 : 1),
  );
}
