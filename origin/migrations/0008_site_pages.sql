-- The site's own pages (rules in edge/forms.ts and edge/careers.ts, reasons in
-- docs/decisions/024-remaining-pages.md): satisfaction survey answers, artist verification
-- requests, and the open roles the careers page lists.

-- Spec 000 §1 "a satisfaction survey": one answer per visitor.
CREATE TABLE survey_answers (
  -- SHA-256 of the visitor's webId (spec 000 §3): one answer per visitor, and a copy of the
  -- database does not tie an answer to a browser.
  visitor_hash TEXT PRIMARY KEY,
  -- SHA-256 of the client's IP address: the per-client rate limit.
  client_hash TEXT NOT NULL,
  satisfaction INTEGER NOT NULL CHECK (satisfaction BETWEEN 1 AND 5),
  found TEXT NOT NULL CHECK (found IN ('always', 'mostly', 'rarely')),
  comment TEXT NOT NULL,
  lang TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX survey_answers_client ON survey_answers (client_hash, created_at);

-- Spec 000 §2 page type `verify` (artist accounts): a request to verify an artist's account.
CREATE TABLE verification_requests (
  -- Random and opaque, in the confirmation page's address.
  id TEXT PRIMARY KEY,
  artist_name TEXT NOT NULL,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('artist', 'manager', 'label')),
  link TEXT NOT NULL,
  message TEXT NOT NULL,
  lang TEXT NOT NULL,
  -- `received` until someone reviews it (the review is not part of the site).
  status TEXT NOT NULL DEFAULT 'received',
  client_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX verification_requests_client ON verification_requests (client_hash, created_at);

-- Spec 000 §2 page type `careers`: open roles. Written in English, the team's working language.
CREATE TABLE careers_roles (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  team TEXT NOT NULL,
  location TEXT NOT NULL,
  summary TEXT NOT NULL,
  posted_on TEXT NOT NULL,
  -- NULL while the role is open.
  closed_on TEXT
);

INSERT INTO careers_roles (id, title, team, location, summary, posted_on) VALUES
  ('audio-signal-engineer', 'Audio signal engineer', 'Recognition', 'Remote (Europe)',
   'Make the audio signature hold up in noisy rooms and through phone lines: spectral peaks, hashing and the matcher behind POST /services/webrec/match.',
   '2026-10-01'),
  ('edge-web-engineer', 'Web engineer, edge rendering', 'Web', 'Remote (Europe or Americas)',
   'Build the pages people use in 22 languages: Remix at the edge, AMP from the same views, and the services proxy that keeps them fast.',
   '2026-10-15'),
  ('catalogue-curator', 'Catalogue curator', 'Catalogue', 'Lisbon or remote',
   'Grow the catalogue of freely licensed recordings: licences, credits, lyrics and the genre charts built on them.',
   '2026-11-02'),
  ('accessibility-designer', 'Product designer, accessibility', 'Design', 'Remote',
   'Keep every page usable with a keyboard and a screen reader, in light and dark, from a small phone to a desktop.',
   '2026-11-10');
