-- Decision 032: beacons and logs arrive through the beacons queue and are stored in batches
-- (origin/beacons.ts). The table is made again with the message's id as its key, so a redelivered
-- message is stored once, and with the UTC day it was received, by which raw rows are dropped
-- after a bounded window; daily_beacons keeps the counts of every day.
CREATE TABLE beacons_by_message (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  route TEXT NOT NULL,
  query TEXT NOT NULL,
  body TEXT,
  received_at INTEGER NOT NULL,
  -- The UTC day received, YYYY-MM-DD: what retention deletes by.
  day TEXT NOT NULL,
  -- The consumer batch that stored the row first: what that batch adds to daily_beacons.
  batch TEXT NOT NULL
);
INSERT INTO beacons_by_message (id, kind, route, query, body, received_at, day, batch)
  SELECT 'row-' || id, kind, route, query, body, received_at,
    strftime('%Y-%m-%d', received_at / 1000, 'unixepoch'), 'migration-0018'
  FROM beacons;
DROP TABLE beacons;
ALTER TABLE beacons_by_message RENAME TO beacons;
CREATE INDEX beacons_received ON beacons (received_at);
CREATE INDEX beacons_day ON beacons (day);
CREATE INDEX beacons_batch ON beacons (batch);

-- What the raw rows were, kept after they are gone: one row per day, kind and route.
CREATE TABLE daily_beacons (
  day TEXT NOT NULL,
  kind TEXT NOT NULL,
  route TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, kind, route)
);
INSERT INTO daily_beacons (day, kind, route, count)
  SELECT day, kind, route, COUNT(*) FROM beacons GROUP BY day, kind, route;
