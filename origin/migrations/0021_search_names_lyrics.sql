-- Full-text search at catalogue scale (docs/decisions/033-full-text-search.md, "Scale"): two indexes where
-- 0019 had one, and a spelling fallback that looks words up instead of ranking titles.
--
-- search_names: song titles, artist names and album titles; search_lyrics: lyric lines. A search
-- asks the names first and the lyrics only when the names do not fill the page, and a common word
-- or a three-letter prefix holds ten times more lyric lines than names: in one index, even a query
-- kept to the name columns read every lyric line's entry of its terms. Same rowids as 0019 (a
-- row's kind is its rowid % 8: 0 title, 1 artist, 2 album, 3 lyric line).
--
-- search_names' `whole` column holds each title or name with its spaces taken out, so the
-- whole of it is one phrase from the column's start: a term typed whole finds it in one lookup
-- (tier 0; its length is then compared), where 0019 compared the length of every match.
--
-- track_popularity: every song's tag count, seeded + live (tag_counts + live_tag_counts, kept
-- in step by triggers), ordered: a search whose term matches thousands of songs walks the songs
-- in this order and stops at the page's, instead of sorting every match (origin/db.ts).
--
-- spelling_variants (SymSpell): every word of the names (search_words, the names index's own
-- vocabulary, folded as it folds) and each form of it with one letter deleted. A misspelt word
-- finds its candidates by looking up itself and its own one-letter deletions: one indexed lookup,
-- where 0019's trigram table ranked every title sharing a trigram. Rebuilt from the vocabulary
-- (origin/db.ts refreshSpellingVariants) when a name changed: the triggers mark it stale in meta.
DROP TRIGGER search_track_insert;
DROP TRIGGER search_track_delete;
DROP TRIGGER search_track_update;
DROP TRIGGER search_artist_insert;
DROP TRIGGER search_artist_delete;
DROP TRIGGER search_artist_update;
DROP TRIGGER search_album_insert;
DROP TRIGGER search_album_delete;
DROP TRIGGER search_album_update;
DROP TRIGGER search_lyrics_insert;
DROP TRIGGER search_lyrics_delete;
DROP TRIGGER search_lyrics_update;
DROP TABLE search_index;
DROP TABLE search_spelling;

CREATE VIRTUAL TABLE search_names USING fts5(
  title, artist, album, whole,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2 3'
);
CREATE VIRTUAL TABLE search_lyrics USING fts5(
  lyric,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2 3'
);
CREATE VIRTUAL TABLE search_words USING fts5vocab(search_names, 'col');
CREATE TABLE spelling_variants (
  variant TEXT NOT NULL,
  word TEXT NOT NULL,
  documents INTEGER NOT NULL,
  PRIMARY KEY (variant, word)
) WITHOUT ROWID;

CREATE TABLE track_popularity (track_key INTEGER PRIMARY KEY, total INTEGER NOT NULL);
CREATE INDEX track_popularity_order ON track_popularity (total DESC, track_key);

CREATE TRIGGER search_track_insert AFTER INSERT ON tracks BEGIN
  INSERT OR REPLACE INTO track_popularity (track_key, total) VALUES (NEW.key,
    COALESCE((SELECT total FROM tag_counts WHERE track_key = NEW.key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = NEW.key), 0));
  INSERT INTO search_names (rowid, title, whole) VALUES (NEW.key * 8, NEW.title, replace(NEW.title, ' ', ''));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_track_delete AFTER DELETE ON tracks BEGIN
  DELETE FROM track_popularity WHERE track_key = OLD.key;
  DELETE FROM search_names WHERE rowid = OLD.key * 8;
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_track_update AFTER UPDATE OF key, title ON tracks BEGIN
  DELETE FROM track_popularity WHERE track_key = OLD.key;
  INSERT OR REPLACE INTO track_popularity (track_key, total) VALUES (NEW.key,
    COALESCE((SELECT total FROM tag_counts WHERE track_key = NEW.key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = NEW.key), 0));
  DELETE FROM search_names WHERE rowid = OLD.key * 8;
  INSERT INTO search_names (rowid, title, whole) VALUES (NEW.key * 8, NEW.title, replace(NEW.title, ' ', ''));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;

-- A song's tag count changed (the seed, a live identification, a cleared count): its place.
CREATE TRIGGER popularity_tag_counts_insert AFTER INSERT ON tag_counts BEGIN
  UPDATE track_popularity SET total =
    COALESCE((SELECT total FROM tag_counts WHERE track_key = NEW.track_key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = NEW.track_key), 0)
  WHERE track_key = NEW.track_key;
END;
CREATE TRIGGER popularity_tag_counts_update AFTER UPDATE ON tag_counts BEGIN
  UPDATE track_popularity SET total =
    COALESCE((SELECT total FROM tag_counts WHERE track_key = NEW.track_key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = NEW.track_key), 0)
  WHERE track_key = NEW.track_key;
END;
CREATE TRIGGER popularity_tag_counts_delete AFTER DELETE ON tag_counts BEGIN
  UPDATE track_popularity SET total =
    COALESCE((SELECT total FROM tag_counts WHERE track_key = OLD.track_key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = OLD.track_key), 0)
  WHERE track_key = OLD.track_key;
END;
CREATE TRIGGER popularity_live_tag_counts_insert AFTER INSERT ON live_tag_counts BEGIN
  UPDATE track_popularity SET total =
    COALESCE((SELECT total FROM tag_counts WHERE track_key = NEW.track_key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = NEW.track_key), 0)
  WHERE track_key = NEW.track_key;
END;
CREATE TRIGGER popularity_live_tag_counts_update AFTER UPDATE ON live_tag_counts BEGIN
  UPDATE track_popularity SET total =
    COALESCE((SELECT total FROM tag_counts WHERE track_key = NEW.track_key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = NEW.track_key), 0)
  WHERE track_key = NEW.track_key;
END;
CREATE TRIGGER popularity_live_tag_counts_delete AFTER DELETE ON live_tag_counts BEGIN
  UPDATE track_popularity SET total =
    COALESCE((SELECT total FROM tag_counts WHERE track_key = OLD.track_key), 0)
    + COALESCE((SELECT total FROM live_tag_counts WHERE track_key = OLD.track_key), 0)
  WHERE track_key = OLD.track_key;
END;

CREATE TRIGGER search_artist_insert AFTER INSERT ON artists BEGIN
  INSERT INTO search_names (rowid, artist, whole) VALUES (NEW.id * 8 + 1, NEW.name, replace(NEW.name, ' ', ''));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_artist_delete AFTER DELETE ON artists BEGIN
  DELETE FROM search_names WHERE rowid = OLD.id * 8 + 1;
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_artist_update AFTER UPDATE OF id, name ON artists BEGIN
  DELETE FROM search_names WHERE rowid = OLD.id * 8 + 1;
  INSERT INTO search_names (rowid, artist, whole) VALUES (NEW.id * 8 + 1, NEW.name, replace(NEW.name, ' ', ''));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;

CREATE TRIGGER search_album_insert AFTER INSERT ON albums BEGIN
  INSERT INTO search_names (rowid, album, whole) VALUES (NEW.rowid * 8 + 2, NEW.title, replace(NEW.title, ' ', ''));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_album_delete AFTER DELETE ON albums BEGIN
  DELETE FROM search_names WHERE rowid = OLD.rowid * 8 + 2;
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_album_update AFTER UPDATE OF title ON albums BEGIN
  DELETE FROM search_names WHERE rowid = OLD.rowid * 8 + 2;
  INSERT INTO search_names (rowid, album, whole) VALUES (NEW.rowid * 8 + 2, NEW.title, replace(NEW.title, ' ', ''));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;

CREATE TRIGGER search_lyrics_insert AFTER INSERT ON lyrics BEGIN
  INSERT INTO search_lyrics (rowid, lyric)
    SELECT (NEW.track_key * 1024 + key) * 8 + 3, value FROM json_each(NEW.lines) WHERE key < 1024;
END;
CREATE TRIGGER search_lyrics_delete AFTER DELETE ON lyrics BEGIN
  DELETE FROM search_lyrics WHERE rowid BETWEEN OLD.track_key * 8192 AND OLD.track_key * 8192 + 8191;
END;
CREATE TRIGGER search_lyrics_update AFTER UPDATE OF track_key, lines ON lyrics BEGIN
  DELETE FROM search_lyrics WHERE rowid BETWEEN OLD.track_key * 8192 AND OLD.track_key * 8192 + 8191;
  INSERT INTO search_lyrics (rowid, lyric)
    SELECT (NEW.track_key * 1024 + key) * 8 + 3, value FROM json_each(NEW.lines) WHERE key < 1024;
END;

-- A database seeded before this migration: index what it holds; its spelling variants are built at
-- the first search that needs them or the next scheduled run, whichever comes first.
INSERT INTO search_names (rowid, title, whole) SELECT key * 8, title, replace(title, ' ', '') FROM tracks;
INSERT INTO search_names (rowid, artist, whole) SELECT id * 8 + 1, name, replace(name, ' ', '') FROM artists;
INSERT INTO search_names (rowid, album, whole) SELECT rowid * 8 + 2, title, replace(title, ' ', '') FROM albums;
INSERT INTO search_lyrics (rowid, lyric)
  SELECT (l.track_key * 1024 + j.key) * 8 + 3, j.value FROM lyrics l, json_each(l.lines) j WHERE j.key < 1024;
INSERT INTO track_popularity (track_key, total)
  SELECT t.key, COALESCE(c.total, 0) + COALESCE(lc.total, 0)
  FROM tracks t LEFT JOIN tag_counts c ON c.track_key = t.key LEFT JOIN live_tag_counts lc ON lc.track_key = t.key;
INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
