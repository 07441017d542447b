-- Decision 028, finding 4: the sinks limit writes per client (a hash of the client's address, as the site's
-- forms do) and keep a bounded number of rows; the index serves the per-client count.
ALTER TABLE beacons ADD COLUMN client_hash TEXT;
CREATE INDEX beacons_client ON beacons (client_hash, received_at);
