-- The offers' device check on @simplewebauthn/server and its farming limits (decision 030; numbers in
-- edge/offer-state.ts `offerLimits`, reasons in docs/decisions/022-offers.md, "Device check and
-- farming limits").

-- The WebAuthn credentials offer redemption registered: verified by the library, one account each
-- (the credential ID is unique across accounts), and one code each, ever. An account that has one
-- without a code (refused by a limit) proves itself with it next time (an assertion) instead of
-- leaving another credential on the device. A deleted account's credentials stay, without it, so
-- that a credential that had its code never has another.
CREATE TABLE offer_credentials (
  -- base64url, as the browser names it.
  credential_id TEXT PRIMARY KEY,
  user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
  -- The COSE public key (base64url) and the signature counter, for assertions.
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL,
  -- What the authenticator said it is: the attestation format (`none` when it said nothing) and
  -- its AAGUID (zeros when it said nothing). Recorded, not trusted (decision 022).
  fmt TEXT NOT NULL,
  aaguid TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- Set when a code was handed out against it.
  redeemed_at INTEGER
);
CREATE INDEX offer_credentials_user ON offer_credentials (user_id);

-- The codes handed out per client address (SHA-256 of the address, or of its IPv6 /64), for the
-- per-client limit: kept for the limit's window only, and not deleted with the account.
CREATE TABLE offer_client_claims (
  client_hash TEXT NOT NULL,
  claimed_at INTEGER NOT NULL
);
CREATE INDEX offer_client_claims_client ON offer_client_claims (client_hash, claimed_at);
