-- The embedded origin's authorization server for the streaming-service connection
-- (rules in edge/streaming.ts, reasons in docs/decisions/021-streaming-connection.md): an OAuth 2.0
-- authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636) for the site as a public client.
-- Codes and tokens are kept only as SHA-256 digests: a copy of the table grants nothing.

CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  -- RFC 6749 §4.1.3: the code is bound to the client and the redirect URI it was issued for,
  -- RFC 7636 §4.4: and to the S256 challenge the token request's verifier must answer.
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  -- Set by the one exchange that wins; a second use is refused and revokes the tokens issued.
  used_at INTEGER,
  created_at INTEGER NOT NULL
);

CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  code_hash TEXT NOT NULL,
  client_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX oauth_tokens_code ON oauth_tokens (code_hash);
