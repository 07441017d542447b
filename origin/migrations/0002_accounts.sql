-- Accounts, e-mail sign-in links, sessions and the local outbox (rules in
-- edge/account.ts, reasons in docs/decisions/017-sign-in.md). Secrets are stored as SHA-256
-- hashes only: a copy of the database signs nobody in.

CREATE TABLE users (
  -- Opaque and random: never the address, so it can be shown in logs and statistics.
  id TEXT PRIMARY KEY,
  -- Lowercased: one account per mailbox.
  email TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  -- Set when the account is deleted (privacy flow); a sign-in request for it then answers 404.
  closed_at INTEGER
);

CREATE TABLE email_logins (
  -- In the link, names the request.
  key TEXT PRIMARY KEY,
  -- SHA-256 of the link's customtoken, of the requesting browser's device cookie, of the client's
  -- IP address (the per-client rate limit).
  token_hash TEXT NOT NULL,
  device_hash TEXT NOT NULL,
  client_hash TEXT NOT NULL,
  email TEXT NOT NULL,
  locale TEXT NOT NULL,
  inid TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX email_logins_email ON email_logins (email, created_at);
CREATE INDEX email_logins_client ON email_logins (client_hash, created_at);

CREATE TABLE sessions (
  -- SHA-256 of the session cookie's value.
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  method TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Mail written while no mail transport is configured (npm start): read at /dev/outbox.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
