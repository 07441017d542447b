-- Decision 030, findings 6, 7 and 13 (reasons in docs/decisions/020-privacy-flows.md and
-- 019-library.md): every row an account makes names the account, so that its data download holds
-- it and its deletion removes it; a survey answer is read back only with the receipt its browser
-- was given, never by a browser id; tags hold sane times and rough positions.

-- A verification request sent while signed in belongs to that account (NULL: sent signed out).
ALTER TABLE verification_requests ADD COLUMN user_id TEXT REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX verification_requests_user ON verification_requests (user_id);

-- A streaming connection granted while signed in belongs to that account: its codes and tokens
-- are deleted with it, and a deleted token grants nothing.
ALTER TABLE oauth_codes ADD COLUMN user_id TEXT REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE oauth_tokens ADD COLUMN user_id TEXT REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX oauth_codes_user ON oauth_codes (user_id);
CREATE INDEX oauth_tokens_user ON oauth_tokens (user_id);

-- Survey answers are keyed by the SHA-256 of a random receipt the service hands the browser that
-- answered (kept there in an HttpOnly cookie), not by the browser's webId, which the page's
-- statistics carry and anyone who saw it could name. Answers sent signed in name the account:
-- one per account. Earlier answers keep their webId hash as their key: no receipt reads them.
CREATE TABLE survey_answers_by_receipt (
  receipt_hash TEXT PRIMARY KEY,
  user_id TEXT UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 of the client's IP address: the per-client rate limit.
  client_hash TEXT NOT NULL,
  satisfaction INTEGER NOT NULL CHECK (satisfaction BETWEEN 1 AND 5),
  found TEXT NOT NULL CHECK (found IN ('always', 'mostly', 'rarely')),
  comment TEXT NOT NULL,
  lang TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
INSERT INTO survey_answers_by_receipt
  (receipt_hash, user_id, client_hash, satisfaction, found, comment, lang, created_at)
  SELECT visitor_hash, NULL, client_hash, satisfaction, found, comment, lang, created_at FROM survey_answers;
DROP TABLE survey_answers;
ALTER TABLE survey_answers_by_receipt RENAME TO survey_answers;
CREATE INDEX survey_answers_client ON survey_answers (client_hash, created_at);

-- Tags stored before the service bounded them: a time outside [2000-01-01, stored + 5 minutes]
-- becomes the moment the tag was stored; positions are rounded to two decimals (about 1 km).
UPDATE tags SET tag_time = created_at
  WHERE typeof(tag_time) <> 'integer' OR tag_time < 946684800000 OR tag_time > created_at + 300000;
UPDATE tags SET lat = round(lat, 2), lng = round(lng, 2) WHERE lat IS NOT NULL AND lng IS NOT NULL;
UPDATE tags SET lat = NULL, lng = NULL WHERE lat IS NULL OR lng IS NULL;
