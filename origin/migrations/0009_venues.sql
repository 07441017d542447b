-- Concert venues (spec 001 §1 "Concert and event pages"): one invented venue in each chart city,
-- with the city's coordinates and IANA time zone. Rows come from the catalogue seed; the events
-- themselves are scheduled from the catalogue and the request's clock (origin/events.ts).
CREATE TABLE venues (
  id INTEGER PRIMARY KEY,
  city_id INTEGER NOT NULL,
  country TEXT NOT NULL,
  city TEXT NOT NULL,
  name TEXT NOT NULL,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  timezone TEXT NOT NULL
);
CREATE INDEX venues_country ON venues (country);
