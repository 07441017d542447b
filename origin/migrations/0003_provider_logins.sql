-- Sign-in with the web provider (Google, OpenID Connect; docs/decisions/017-sign-in.md): the
-- SHA-256 of each ID token that signed in, so that one token never signs in twice.
CREATE TABLE provider_logins (
  token_hash TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);
