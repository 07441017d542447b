import type { Context, Hono } from "hono";
import type { RecognizerBinding } from "#rules/schemas/recognizer.ts";
import type { MailBinding } from "./mail";

/** Bindings the embedded origin uses. */
export type OriginEnv = {
  DB: D1Database;
  /** The recognizer Worker (recognizer/index.ts): decodes and matches signatures (origin/routes/webrec.ts). */
  RECOGNIZER: RecognizerBinding;
  ASSETS: Fetcher;
  /** Identification events (decision 032), folded into the counters in batches (origin/identifications.ts). */
  IDENTIFICATIONS: Queue;
  /** Beacons and logs (decision 032), stored in batches (origin/beacons.ts). */
  BEACONS: Queue;
  /** The sinks' per-address limit against abuse (wrangler.toml `[[ratelimits]]`, origin/routes/sinks.ts). */
  SINK_LIMIT: RateLimit;
  /** Match requests per address a minute (wrangler.toml `[[ratelimits]]`, origin/routes/webrec.ts). */
  MATCH_LIMIT: RateLimit;
  /** Cloudflare's `send_email` binding; with MAIL_FROM set, sign-in mail is really sent. */
  MAIL?: MailBinding;
  MAIL_FROM?: string;
  /** "send_email" or "outbox" (origin/mail.ts); required. */
  MAIL_TRANSPORT?: string;
  /** The site's own origin, from which every absolute URL and origin check is built (rules/env.ts siteOriginOf). */
  SITE_ORIGIN?: string;
  /** The web sign-in provider's OAuth client (Google); without both, it is not available. */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** The OpenID Connect issuer of that client. Default https://accounts.google.com. */
  OIDC_ISSUER?: string;
  /** The site's OAuth client id at the streaming service's authorization server. Default tunewave-web. */
  STREAMING_CLIENT_ID?: string;
};

/** The origin's Hono environment: its bindings, and the request's D1 session its routes query. */
export type OriginHonoEnv = {
  Bindings: OriginEnv;
  Variables: {
    /** origin/d1-session.ts: every route's reads and writes go through it, never `c.env.DB`. */
    db: D1DatabaseSession;
  };
};

export type OriginApp = Hono<OriginHonoEnv>;

/** One request's context in an origin route. */
export type OriginContext = Context<OriginHonoEnv>;
