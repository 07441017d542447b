-- My Library (rules in edge/library.ts, reasons in docs/decisions/019-library.md):
-- each song a signed-in person identified. A tag belongs to one account and is deleted with it.

CREATE TABLE tags (
  -- Random and opaque: what a removal (and its undo) names.
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The recognition that made it (the web recognition's sessionId, or the app's tag): one
  -- recognition tags once, so a retried request never doubles a tag.
  recognition_id TEXT NOT NULL,
  track_key INTEGER NOT NULL,
  -- When the song was identified, epoch ms.
  tag_time INTEGER NOT NULL,
  -- Where: the country of the recognition, and the position the browser or app sent (spec 002
  -- §3 maploc, headers x-shz-lat and x-shz-lng) when the person shared it; each may be unknown.
  country TEXT,
  lat REAL,
  lng REAL,
  -- Spec 002 §3 "HIDDEN": removed by the person, kept for the undo until hidden_at + 1 day.
  hidden_at INTEGER,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, recognition_id)
);
-- The library, newest first: every page is a range of this index.
CREATE INDEX tags_user_time ON tags (user_id, tag_time DESC, id DESC);
