import { createHash } from "node:crypto";
import { slugify } from "#origin/catalog-rules.ts";
import type { ChartCounts } from "./chart-counts";
import type { CatalogueEntities } from "./entities";
import { featureConfigs } from "./features";
import type { Playlist, PlaylistArt } from "./playlists";
import { insertStatements, type SqlValue } from "./sql";
import type { Venue } from "./venues";

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
  "venues",
  "country_tag_counts",
  "tag_counts",
  "feature_config",
];

/** Everything the seed holds. */
export type SeedInput = CatalogueEntities &
  ChartCounts & {
    /** By artist id. */
    bios: Map<number, string>;
    /** Rows of the lyrics table. */
    lyricRows: SqlValue[][];
    playlists: Playlist[];
    /** By playlist id. */
    playlistArt: Map<string, PlaylistArt>;
    venues: Venue[];
  };

/** The D1 seed: every table's rows, with the catalogue version (a hash of the rows). */
export function seedSql(catalogue: SeedInput): { seed: string; version: string } {
  const statements: string[] = [
    ...catalogueTables.map((table) => `DELETE FROM ${table};`),
    ...entityStatements(catalogue),
    ...insertStatements(
      "lyrics",
      ["track_key", "lyrics_id", "provider", "footer", "lines", "synced"],
      catalogue.lyricRows,
    ),
    ...playlistStatements(catalogue),
    ...chartStatements(catalogue),
    ...insertStatements(
      "feature_config",
      ["app", "config"],
      Object.entries(featureConfigs).map(([app, config]) => [app, JSON.stringify(config)]),
    ),
  ];
  const body = statements.join("\n");
  const version = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const meta = insertStatements(
    "meta",
    ["key", "value"],
    [
      ["catalog_version", version],
      ["track_count", String(catalogue.tracks.length)],
    ],
  );
  const seed = `-- Tunewave catalogue seed ${version}: written by origin/catalog/build.ts, do not edit.\n${body}\n${meta.join("\n")}\n`;
  return { seed, version };
}

/** Genres, artists (with their bios), albums and tracks. */
function entityStatements({ genres, artists, albums, tracks, bios }: SeedInput): string[] {
  return [
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
    ...trackStatements(tracks),
  ];
}

function trackStatements(tracks: SeedInput["tracks"]): string[] {
  return insertStatements(
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
  );
}

/** Playlists with their artwork, and their tracks in order. */
function playlistStatements({ playlists, playlistArt }: SeedInput): string[] {
  return [
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
  ];
}

/** Chart countries and cities, and the tag counts per country and per track. */
function chartStatements({ locations, countryCounts, totals, tracks, venues }: SeedInput): string[] {
  return [
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
      "venues",
      ["id", "city_id", "country", "city", "name", "lat", "lng", "timezone"],
      venues.map((v) => [v.id, v.cityId, v.country, v.city, v.name, v.lat, v.lng, v.timezone]),
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
  ];
}
