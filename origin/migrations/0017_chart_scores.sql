-- Decision 032: chart scores recomputed every ten minutes (worker/schedule.ts, origin/chart-recompute.ts)
-- from the seeded counts (country_tag_counts, the baseline, unchanged) and the live
-- daily_identifications. Only the pairs with live counts are stored: a chart request reads its
-- scope's rows and keeps the seeded score for every other track.

-- scope: 'WORLD', a country code, or 'city:<cities.id>' (a city past the live threshold).
-- score: what top, city and genre charts rank by; momentum: what discovery ranks by.
CREATE TABLE chart_scores (
  scope TEXT NOT NULL,
  track_key INTEGER NOT NULL,
  score REAL NOT NULL,
  momentum REAL NOT NULL,
  PRIMARY KEY (scope, track_key)
);

-- When the charts' numbers were computed: one row. Before any recompute, the moment the
-- database was created and seeded — the seeded numbers date from then.
CREATE TABLE chart_runs (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  computed_at TEXT NOT NULL
);
INSERT INTO chart_runs (id, computed_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
