-- The spelling fallback for lyric lines (docs/decisions/033-full-text-search.md, "Lyric lines"):
-- a misspelt word of a line is matched by the lyrics' words close to it, as one of a name is
-- corrected to a word of the names. 0021's spelling_variants holds the names' words only: a
-- line's typo was corrected to a name's word or not at all, and a word only the lyrics hold
-- ("dust") was "corrected" to a name's ("just"), so the line was not found.
--
-- lyric_spelling_variants: every word of the lyrics (search_lyric_words, the lyrics index's own
-- vocabulary, folded as it folds) and each form of it with letters deleted, as spelling_variants
-- files the names' (origin/db/search-index.ts rebuildSpellingVariants). Apart from it: a name's
-- typo is corrected to a name's word, not to a commoner word of the lyrics.
CREATE VIRTUAL TABLE search_lyric_words USING fts5vocab(search_lyrics, 'col');
CREATE TABLE lyric_spelling_variants (
  variant TEXT NOT NULL,
  word TEXT NOT NULL,
  documents INTEGER NOT NULL,
  PRIMARY KEY (variant, word)
) WITHOUT ROWID;

-- 0021's lyrics triggers, now also marking the spelling variants stale.
DROP TRIGGER search_lyrics_insert;
DROP TRIGGER search_lyrics_delete;
DROP TRIGGER search_lyrics_update;
CREATE TRIGGER search_lyrics_insert AFTER INSERT ON lyrics BEGIN
  INSERT INTO search_lyrics (rowid, lyric)
    SELECT (NEW.track_key * 1024 + key) * 8 + 3, value FROM json_each(NEW.lines) WHERE key < 1024;
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_lyrics_delete AFTER DELETE ON lyrics BEGIN
  DELETE FROM search_lyrics WHERE rowid BETWEEN OLD.track_key * 8192 AND OLD.track_key * 8192 + 8191;
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;
CREATE TRIGGER search_lyrics_update AFTER UPDATE OF track_key, lines ON lyrics BEGIN
  DELETE FROM search_lyrics WHERE rowid BETWEEN OLD.track_key * 8192 AND OLD.track_key * 8192 + 8191;
  INSERT INTO search_lyrics (rowid, lyric)
    SELECT (NEW.track_key * 1024 + key) * 8 + 3, value FROM json_each(NEW.lines) WHERE key < 1024;
  INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
END;

-- The lyrics a database already holds: filed at the first search that needs them or the next
-- scheduled run.
INSERT OR REPLACE INTO meta (key, value) VALUES ('spelling_stale', '1');
