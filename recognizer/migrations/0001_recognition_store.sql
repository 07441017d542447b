-- The recognition store (docs/decisions/029-recognition-store.md): the recognition index's postings
-- by hash, in a database of its own (binding RECOGNITION), loaded from
-- origin/catalog/dist/recognition-store.sql, which `npm run catalog` writes.

-- What the postings need to be read: their layout, and which index they are.
CREATE TABLE recognition_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- The index's track numbers (the high bits of an entry) and their catalogue keys.
CREATE TABLE recognition_tracks (
  track INTEGER PRIMARY KEY,
  track_key TEXT NOT NULL
);

-- One row a hash that has entries: its entries as little-endian u32 (track << time_bits | anchor
-- frame), by track, then frame. The hash is the rowid: a lookup reads one row a hash found.
CREATE TABLE recognition_postings (
  hash INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
);
