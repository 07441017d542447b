-- Full-text search over titles, artist names, album titles and lyric lines
-- (docs/decisions/033-full-text-search.md).
--
-- search_index: one row a song title, artist name, album title or lyric line, in the column of
-- its kind (the others NULL), so a query can ask one kind (`{artist} : …`) inside the index.
-- Case and diacritics folded (unicode61 remove_diacritics 2); prefix indexes of 1 to 3 characters
-- for search-as-you-type. The rowid says what a row is (kind = rowid % 8):
--   0 title   rowid = tracks.key * 8
--   1 artist  rowid = artists.id * 8 + 1
--   2 album   rowid = albums.rowid * 8 + 2
--   3 lyric   rowid = (lyrics.track_key * 1024 + line) * 8 + 3   (lines 0 to 1023)
-- so a trigger deletes a row by rowid, never by scanning the index.
CREATE VIRTUAL TABLE search_index USING fts5(
  title, artist, album, lyric,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2 3'
);

-- The spelling fallback's candidates: titles and names (not lyrics) as trigrams, same rowids. A
-- query with no exact hit looks up the titles and names sharing the most trigrams with its words.
CREATE VIRTUAL TABLE search_spelling USING fts5(
  text,
  tokenize = 'trigram remove_diacritics 1'
);

-- Kept in step with the catalogue by triggers: the builder's seed, a test fixture or anything else
-- that writes these tables updates the index in the same statement.
CREATE TRIGGER search_track_insert AFTER INSERT ON tracks BEGIN
  INSERT INTO search_index (rowid, title) VALUES (NEW.key * 8, NEW.title);
  INSERT INTO search_spelling (rowid, text) VALUES (NEW.key * 8, NEW.title);
END;
CREATE TRIGGER search_track_delete AFTER DELETE ON tracks BEGIN
  DELETE FROM search_index WHERE rowid = OLD.key * 8;
  DELETE FROM search_spelling WHERE rowid = OLD.key * 8;
END;
CREATE TRIGGER search_track_update AFTER UPDATE OF key, title ON tracks BEGIN
  DELETE FROM search_index WHERE rowid = OLD.key * 8;
  DELETE FROM search_spelling WHERE rowid = OLD.key * 8;
  INSERT INTO search_index (rowid, title) VALUES (NEW.key * 8, NEW.title);
  INSERT INTO search_spelling (rowid, text) VALUES (NEW.key * 8, NEW.title);
END;

CREATE TRIGGER search_artist_insert AFTER INSERT ON artists BEGIN
  INSERT INTO search_index (rowid, artist) VALUES (NEW.id * 8 + 1, NEW.name);
  INSERT INTO search_spelling (rowid, text) VALUES (NEW.id * 8 + 1, NEW.name);
END;
CREATE TRIGGER search_artist_delete AFTER DELETE ON artists BEGIN
  DELETE FROM search_index WHERE rowid = OLD.id * 8 + 1;
  DELETE FROM search_spelling WHERE rowid = OLD.id * 8 + 1;
END;
CREATE TRIGGER search_artist_update AFTER UPDATE OF id, name ON artists BEGIN
  DELETE FROM search_index WHERE rowid = OLD.id * 8 + 1;
  DELETE FROM search_spelling WHERE rowid = OLD.id * 8 + 1;
  INSERT INTO search_index (rowid, artist) VALUES (NEW.id * 8 + 1, NEW.name);
  INSERT INTO search_spelling (rowid, text) VALUES (NEW.id * 8 + 1, NEW.name);
END;

CREATE TRIGGER search_album_insert AFTER INSERT ON albums BEGIN
  INSERT INTO search_index (rowid, album) VALUES (NEW.rowid * 8 + 2, NEW.title);
  INSERT INTO search_spelling (rowid, text) VALUES (NEW.rowid * 8 + 2, NEW.title);
END;
CREATE TRIGGER search_album_delete AFTER DELETE ON albums BEGIN
  DELETE FROM search_index WHERE rowid = OLD.rowid * 8 + 2;
  DELETE FROM search_spelling WHERE rowid = OLD.rowid * 8 + 2;
END;
CREATE TRIGGER search_album_update AFTER UPDATE OF title ON albums BEGIN
  DELETE FROM search_index WHERE rowid = OLD.rowid * 8 + 2;
  DELETE FROM search_spelling WHERE rowid = OLD.rowid * 8 + 2;
  INSERT INTO search_index (rowid, album) VALUES (NEW.rowid * 8 + 2, NEW.title);
  INSERT INTO search_spelling (rowid, text) VALUES (NEW.rowid * 8 + 2, NEW.title);
END;

CREATE TRIGGER search_lyrics_insert AFTER INSERT ON lyrics BEGIN
  INSERT INTO search_index (rowid, lyric)
    SELECT (NEW.track_key * 1024 + key) * 8 + 3, value FROM json_each(NEW.lines) WHERE key < 1024;
END;
CREATE TRIGGER search_lyrics_delete AFTER DELETE ON lyrics BEGIN
  DELETE FROM search_index
    WHERE rowid BETWEEN OLD.track_key * 1024 * 8 AND (OLD.track_key * 1024 + 1023) * 8 + 3 AND rowid % 8 = 3;
END;
CREATE TRIGGER search_lyrics_update AFTER UPDATE OF track_key, lines ON lyrics BEGIN
  DELETE FROM search_index
    WHERE rowid BETWEEN OLD.track_key * 1024 * 8 AND (OLD.track_key * 1024 + 1023) * 8 + 3 AND rowid % 8 = 3;
  INSERT INTO search_index (rowid, lyric)
    SELECT (NEW.track_key * 1024 + key) * 8 + 3, value FROM json_each(NEW.lines) WHERE key < 1024;
END;

-- A database seeded before this migration: index what it holds.
INSERT INTO search_index (rowid, title) SELECT key * 8, title FROM tracks;
INSERT INTO search_spelling (rowid, text) SELECT key * 8, title FROM tracks;
INSERT INTO search_index (rowid, artist) SELECT id * 8 + 1, name FROM artists;
INSERT INTO search_spelling (rowid, text) SELECT id * 8 + 1, name FROM artists;
INSERT INTO search_index (rowid, album) SELECT rowid * 8 + 2, title FROM albums;
INSERT INTO search_spelling (rowid, text) SELECT rowid * 8 + 2, title FROM albums;
INSERT INTO search_index (rowid, lyric)
  SELECT (l.track_key * 1024 + j.key) * 8 + 3, j.value FROM lyrics l, json_each(l.lines) j WHERE j.key < 1024;
