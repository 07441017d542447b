-- The embedded origin's catalogue. Rows are written by the catalogue builder's seed
-- (origin/catalog/dist/seed.sql); answers are composed from them by origin/.
-- Later issues add their own tables (concerts, accounts, sessions, tags) in new migrations;
-- tag_counts is the running total that recorded tags will increment.

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE genres (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  alias TEXT NOT NULL UNIQUE
);

CREATE TABLE artists (
  id INTEGER PRIMARY KEY,
  adamid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  alias TEXT NOT NULL,
  genre_id TEXT NOT NULL,
  bio TEXT NOT NULL,
  origin TEXT,
  born_or_formed TEXT,
  art_id TEXT NOT NULL,
  bkgcolor TEXT NOT NULL
);

CREATE TABLE albums (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  alias TEXT NOT NULL,
  artist_name TEXT NOT NULL,
  genre_id TEXT NOT NULL,
  release_date TEXT NOT NULL,
  copyright TEXT NOT NULL,
  description TEXT NOT NULL,
  source_package TEXT NOT NULL,
  art_id TEXT NOT NULL,
  bkgcolor TEXT NOT NULL,
  is_single INTEGER NOT NULL
);

CREATE TABLE tracks (
  key INTEGER PRIMARY KEY,
  adamid TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  alias TEXT NOT NULL,
  artist_id INTEGER NOT NULL,
  album_id TEXT NOT NULL,
  track_number INTEGER,
  genre_id TEXT NOT NULL,
  -- Stored, never a flag: isNewRelease is computed from it when answering.
  release_date TEXT NOT NULL,
  release_precision TEXT NOT NULL,
  added_date TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  licence TEXT NOT NULL,
  copyright TEXT NOT NULL,
  source_package TEXT NOT NULL,
  binary_package TEXT NOT NULL,
  package_version TEXT NOT NULL,
  source_file TEXT NOT NULL,
  comment TEXT,
  bpm INTEGER,
  art_id TEXT NOT NULL,
  bkgcolor TEXT NOT NULL,
  preview_ms INTEGER NOT NULL
);
CREATE INDEX tracks_artist ON tracks (artist_id);
CREATE INDEX tracks_album ON tracks (album_id, track_number);
CREATE INDEX tracks_genre ON tracks (genre_id);

CREATE TABLE lyrics (
  track_key INTEGER PRIMARY KEY,
  lyrics_id TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL,
  footer TEXT NOT NULL,
  -- JSON: string[] and {offset, text}[] (offset in ms from the start of the recording).
  lines TEXT NOT NULL,
  synced TEXT NOT NULL
);

CREATE TABLE playlists (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  curator TEXT NOT NULL,
  artist_id INTEGER,
  genre_id TEXT,
  art_id TEXT NOT NULL,
  bkgcolor TEXT NOT NULL,
  last_modified TEXT NOT NULL
);
CREATE TABLE playlist_tracks (
  playlist_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  track_key INTEGER NOT NULL,
  PRIMARY KEY (playlist_id, position)
);
CREATE INDEX playlist_tracks_track ON playlist_tracks (track_key);

-- Chart locations (spec 001 §3 Chart) and the per-country tag counts charts are ranked from.
CREATE TABLE countries (
  id TEXT PRIMARY KEY,
  url_name TEXT NOT NULL UNIQUE,
  loc_name TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE TABLE cities (
  id INTEGER PRIMARY KEY,
  country TEXT NOT NULL,
  name TEXT NOT NULL,
  url_name TEXT NOT NULL,
  population INTEGER NOT NULL,
  UNIQUE (country, url_name)
);
CREATE TABLE country_tag_counts (
  country TEXT NOT NULL,
  track_key INTEGER NOT NULL,
  total INTEGER NOT NULL,
  -- Tags of the last seven days: the momentum the discovery chart ranks by.
  recent INTEGER NOT NULL,
  PRIMARY KEY (country, track_key)
);

CREATE TABLE tag_counts (track_key INTEGER PRIMARY KEY, total INTEGER NOT NULL);

CREATE TABLE feature_config (app TEXT PRIMARY KEY, config TEXT NOT NULL);

-- What the /services/metrics and /services/log sinks received.
CREATE TABLE beacons (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  route TEXT NOT NULL,
  query TEXT NOT NULL,
  body TEXT,
  received_at INTEGER NOT NULL
);
CREATE INDEX beacons_received ON beacons (received_at);
