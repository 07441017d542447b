-- Data downloads (spec 000 §1 "data download"; rules in edge/privacy.ts, reasons in
-- docs/decisions/020-privacy-flows.md): the ZIP archive of everything held on one account, made at
-- the request and fetched through the mailed link by the same account.
--
-- Lifetimes: a ready archive can be fetched for 7 days (edge/privacy.ts dataExportLifetimeMs):
-- long enough for a mail read after a weekend away, short enough that a full copy of someone's
-- data does not lie around. At expiry the archive bytes are deleted; the row (dates and the token's
-- hash only) stays 30 more days so that a late link answers "expired" (410), not "not found".
-- While a request is unexpired a new one is "already in process" (409, spec 000 §8).
--
-- Account deletion deletes every row of the account, and the users row itself; users.closed_at
-- (0002) is therefore not what deletion sets. It stays for an account closed by someone other than
-- its owner: spec 000 §8's sign-in 404 "…either invalid or closed".

CREATE TABLE data_exports (
  -- Random and opaque, in the link: names the request.
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- `preparing` while the archive is made (expires_at is then minutes away), `ready` once stored.
  status TEXT NOT NULL CHECK (status IN ('preparing', 'ready')),
  -- The ZIP archive; NULL while preparing and once expired.
  archive BLOB,
  -- SHA-256 of the link's random token: a copy of the database downloads nothing.
  token_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
-- "Already in process": the account's unexpired request.
CREATE INDEX data_exports_user ON data_exports (user_id, expires_at);
-- The purge of expired archives and old records.
CREATE INDEX data_exports_expiry ON data_exports (expires_at);
