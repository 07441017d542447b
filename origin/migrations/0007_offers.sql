-- Offers (spec 001 §1, §2, §4, §7, §9; rules in edge/offers.ts, reasons in
-- docs/decisions/022-offers.md): the campaigns `/campaign/data/{name}.json` serves, the codes
-- handed out to accounts, and the WebAuthn challenges a code is handed out against.

CREATE TABLE campaigns (
  -- The `/campaign/{name}` segment and the beacons' exp_name.
  name TEXT PRIMARY KEY CHECK (name GLOB '[a-z0-9]*' AND length(name) <= 20),
  service TEXT NOT NULL,
  -- Spec 001 §9 "up to 1, 3, 4 or 5 months free".
  months INTEGER NOT NULL CHECK (months IN (1, 3, 4, 5)),
  -- Store-front countries (ISO codes) and platforms (ios, android, web), comma-separated.
  countries TEXT NOT NULL,
  platforms TEXT NOT NULL,
  smartphone_only INTEGER NOT NULL CHECK (smartphone_only IN (0, 1)),
  -- Epoch ms; the offer runs from starts_at until before ends_at.
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL CHECK (ends_at > starts_at)
);

-- The campaigns the site runs. Dates: 2025-01-01 = 1735689600000, 2025-01-07 = 1736208000000,
-- 2024-11-25 = 1732492800000, 2031-01-01 = 1924992000000.
INSERT INTO campaigns VALUES
  ('first-month', 'Apple Music', 1,
   'US,GB,CA,AU,IE,NZ,DE,FR,ES,IT,NL,BR,MX,JP,IN', 'ios,android,web', 0, 1735689600000, 1924992000000),
  ('three-free', 'Apple Music', 3,
   'GB,IE,DE,AT,CH,FR,BE,NL,ES,PT,IT,PL,CZ,GR,TR', 'ios,android', 1, 1735689600000, 1924992000000),
  ('iphone-four', 'Apple Music', 4,
   'US,CA,GB,JP,KR,TW,AU', 'ios', 1, 1735689600000, 1924992000000),
  ('five-months', 'Apple Music', 5,
   'US,GB,CA', 'ios,android', 1, 1735689600000, 1924992000000),
  ('holiday-2024', 'Apple Music', 3,
   'US,GB,DE,FR,ES,IT,JP', 'ios,android,web', 0, 1732492800000, 1736208000000);

-- Spec 001 §4 "only for new users": an account is new until it is handed its first code. One code
-- per account and campaign: asking again hands out the same one. Deleted with the account.
CREATE TABLE offer_codes (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  campaign TEXT NOT NULL REFERENCES campaigns (name),
  code TEXT NOT NULL UNIQUE,
  -- What was handed out: the months for the platform, where and on what.
  months INTEGER NOT NULL,
  platform TEXT NOT NULL,
  country TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, campaign)
);

-- Spec 001 §4 "Redemption requires device authentication": the WebAuthn challenge the browser's
-- authenticator signs over, single-use, for one account, campaign and site origin, short-lived.
CREATE TABLE offer_challenges (
  challenge TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  campaign TEXT NOT NULL,
  origin TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
