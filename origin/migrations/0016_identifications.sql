-- Identifications counted live (docs/decisions/032-live-numbers.md). Events arrive through the identifications queue and
-- are folded in batches (origin/identifications.ts); the seeded counts stay as the baseline.

-- Every event once: a redelivered message finds its id and is not counted again. Kept for a
-- bounded window (the consumer deletes older days), long enough for any redelivery.
CREATE TABLE identification_events (
  id TEXT PRIMARY KEY,
  track_key INTEGER NOT NULL,
  country TEXT NOT NULL,
  -- cities.id where the edge knew the visitor's city, else 0.
  city_id INTEGER NOT NULL,
  -- The UTC day of the identification, YYYY-MM-DD.
  day TEXT NOT NULL,
  visitor_hash TEXT NOT NULL,
  -- When it happened (ms): a visitor's first identification of the day is the one charts count.
  at INTEGER NOT NULL,
  -- The consumer batch that stored the event first: what that batch counts.
  batch TEXT NOT NULL
);
CREATE INDEX identification_events_batch ON identification_events (batch);
CREATE INDEX identification_events_day ON identification_events (day);

-- A visitor counts once per track per day toward charts: the first identification of the day,
-- at the place of that identification (its row of daily_identifications gets the visitor).
CREATE TABLE chart_visits (
  day TEXT NOT NULL,
  track_key INTEGER NOT NULL,
  visitor_hash TEXT NOT NULL,
  country TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  batch TEXT NOT NULL,
  PRIMARY KEY (day, track_key, visitor_hash)
);
CREATE INDEX chart_visits_batch ON chart_visits (batch);

-- The counters charts are computed from: one row per (day, track, place).
-- identifications: every identification; visitors: distinct visitors of the day (the chart rule).
CREATE TABLE daily_identifications (
  day TEXT NOT NULL,
  track_key INTEGER NOT NULL,
  country TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  identifications INTEGER NOT NULL DEFAULT 0,
  visitors INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, track_key, country, city_id)
);
CREATE INDEX daily_identifications_country ON daily_identifications (country, day);

-- The live part of a track's running total (tag_counts is the seeded baseline): every
-- identification counts, as the spec's tag count does.
CREATE TABLE live_tag_counts (track_key INTEGER PRIMARY KEY, total INTEGER NOT NULL);

-- The salt of the day's visitor hash for visitors without a webId or with Sec-GPC
-- (rules/visitor-hash.ts): one row, today's; older ones are deleted, so yesterday's hashes can no
-- longer be recomputed from an address and a user agent.
CREATE TABLE daily_salts (day TEXT PRIMARY KEY, salt TEXT NOT NULL);
