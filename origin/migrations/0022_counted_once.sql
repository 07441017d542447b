-- Numbers one client cannot rig (docs/decisions/032-live-numbers.md): what an address is, which
-- recording an event was, and whether it was the same recording sent again.

-- The client address's hash of the day (rules/visitor-hash.ts addressHashOf); '' for events
-- stored before it, counted as one address.
ALTER TABLE identification_events ADD COLUMN address_hash TEXT NOT NULL DEFAULT '';
-- A web match's place in the track (ms) and its signature's sketch (JSON, signature/sketch.ts);
-- NULL for a tag.
ALTER TABLE identification_events ADD COLUMN offset_ms INTEGER;
ALTER TABLE identification_events ADD COLUMN sketch TEXT;
-- 1: the same recording as an earlier event of the day; counted nowhere.
ALTER TABLE identification_events ADD COLUMN replay INTEGER NOT NULL DEFAULT 0;
-- The replay check looks for a track's events of the day near one offset.
CREATE INDEX identification_events_offset ON identification_events (day, track_key, offset_ms);

-- The cap of visitors one address counts toward a track and day.
ALTER TABLE chart_visits ADD COLUMN address_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX chart_visits_address ON chart_visits (day, track_key, address_hash);
