-- The consent sessions of the streaming connection's stand-in authorization server (decision 030,
-- finding 11; docs/decisions/021-streaming-connection.md): the consent page's showing of one
-- authorization request, which its Allow must present. Without one no code is issued, so a
-- direct "allow" post is refused. Kept as SHA-256 digests; spent by the one Allow that uses it.

CREATE TABLE oauth_consents (
  ticket_hash TEXT PRIMARY KEY,
  -- The request the page showed: an Allow for any other request is refused.
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  state TEXT NOT NULL,
  scope TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX oauth_consents_expiry ON oauth_consents (expires_at);
