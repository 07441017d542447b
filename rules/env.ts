import * as v from "valibot";
import type { RecognizerBinding } from "#rules/schemas/recognizer.ts";
import type { CloudKitConfig } from "./account";
import { defaultClientId, mockActivatePath, type StreamingConfig } from "./streaming";
import { type VoucherKey, voucherKeysSchema } from "./visitor-voucher";

/** The Worker's bindings (wrangler.toml). */
export type Env = {
  ASSETS: Fetcher;
  DB: D1Database;
  /**
   * The recognizer Worker (recognizer/index.ts), which the embedded origin's match service calls;
   * required when SERVICES_ORIGIN is unset.
   */
  RECOGNIZER?: RecognizerBinding;
  SERVICES_ORIGIN?: string;
  SERVICES_TIMEOUT_MS?: string;
  SITE_ENV?: string;
  SITE_ORIGIN?: string;
  /**
   * How mail leaves: "send_email" (the MAIL binding, from MAIL_FROM) or "outbox" (the local outbox
   * that /dev/outbox shows, asked for by `npm start` and the tests). Required: a deployment that
   * names none fails its first request instead of publishing every sign-in link (decision 030, finding 13).
   */
  MAIL_TRANSPORT?: string;
  /** Cloudflare's `send_email` binding (wrangler.toml `[[send_email]]`), used by the embedded origin. */
  MAIL?: { send(message: unknown): Promise<unknown> };
  /** The sender of the sign-in mail; without it (or MAIL) mail goes to the local outbox. */
  MAIL_FROM?: string;
  /** The web sign-in provider's OAuth client (Google), read by the account service. */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  OIDC_ISSUER?: string;
  /** The device maker's cloud (CloudKit): container, API token and environment, for the browser. */
  ICLOUD_CONTAINER?: string;
  ICLOUD_API_TOKEN?: string;
  ICLOUD_ENVIRONMENT?: string;
  /** The streaming-service connection: the site's client id and the provider's authorization page. */
  STREAMING_CLIENT_ID?: string;
  STREAMING_AUTHORIZE_URL?: string;
  /** The e-mail sign-in's robot check (Cloudflare Turnstile): both keys, or neither for none. */
  TURNSTILE_SITE_KEY?: string;
  TURNSTILE_SECRET_KEY?: string;
  /** Identification events (decision 032; wrangler.toml queues), consumed by this worker's `queue`. */
  IDENTIFICATIONS: Queue;
  /** Beacons and logs (decision 032), stored in batches by this worker's `queue`. */
  BEACONS: Queue;
  /** The sinks' per-address limit against abuse (wrangler.toml `[[ratelimits]]`). */
  SINK_LIMIT: RateLimit;
  /** New vouched visitor ids an address may be given a minute (worker/steps/visitor-voucher.ts). */
  VISITOR_ID_LIMIT: RateLimit;
  /** Match requests an address may make a minute (origin/routes/webrec.ts). */
  MATCH_LIMIT: RateLimit;
  /**
   * The keys of the visitor vouchers (rules/visitor-voucher.ts), `id:secret,…`, the signing key
   * first; a secret (`wrangler secret put`). Unset: no visitor is vouched for, and every
   * identification counts under the day's address hash.
   */
  VISITOR_ID_KEYS?: string;
};

/** The recognition store's shards past the first (recognizer/wrangler.toml explains how to add them). */
export type RecognitionShardBindings = { [binding: `RECOGNITION_${number}`]: D1Database | undefined };

/** Databases the recognition index may be split over (docs/decisions/029-recognition-store.md). */
export const MAX_RECOGNITION_SHARDS = 16;

const recognitionShardsSchema = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, "RECOGNITION_SHARDS is a whole number"),
    v.transform(Number),
    v.integer(),
    v.minValue(1),
    v.maxValue(MAX_RECOGNITION_SHARDS),
  ),
  "1",
);

/** RECOGNITION_SHARDS read: 1 when unset; anything but a whole number 1..16 throws the configuration error. */
export function recognitionShardCount(value: string | undefined): number {
  const count = v.safeParse(recognitionShardsSchema, value);
  if (!count.success)
    throw new Error(`Invalid environment: RECOGNITION_SHARDS: ${v.summarize(count.issues)}`);
  return count.output;
}

/**
 * The recognition store's databases, in shard order: RECOGNITION, then RECOGNITION_1 … up to
 * RECOGNITION_SHARDS - 1, the recognizer's bindings. A bad count or a missing binding throws the
 * configuration error (the recognizer builds its store from it at every match).
 */
export function recognitionShards(
  env: { RECOGNITION?: D1Database; RECOGNITION_SHARDS?: string } & RecognitionShardBindings,
): D1Database[] {
  const count = recognitionShardCount(env.RECOGNITION_SHARDS);
  return Array.from({ length: count }, (_, shard) => {
    const name = shard === 0 ? "RECOGNITION" : `RECOGNITION_${shard}`;
    const db = shard === 0 ? env.RECOGNITION : env[`RECOGNITION_${shard}`];
    if (!db) throw new Error(`Invalid environment: RECOGNITION_SHARDS=${count} needs the D1 binding ${name}`);
    return db;
  });
}

const siteOriginSchema = v.pipe(
  v.string("SITE_ORIGIN is required: the site's own origin, https://host"),
  v.url(),
  v.regex(/^https?:\/\/[^/]+$/, "SITE_ORIGIN is an origin: scheme and host, no path"),
);

const mailTransportSchema = v.picklist(
  ["send_email", "outbox"],
  'MAIL_TRANSPORT is required: "send_email" (the MAIL binding and MAIL_FROM) or "outbox" (local only)',
);

/** Turnstile's keys: "0x4AAAA…", or its testing keys "1x00000000000000000000AA" and the like. */
const turnstileKey = /^[0-9]x[\w-]{10,100}$/;

const configSchema = v.object({
  /** Remote origin of `/services`; empty means the embedded origin. */
  SERVICES_ORIGIN: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())]), ""),
  /** Upstream timeout in ms. Default 8000. */
  SERVICES_TIMEOUT_MS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(100), v.maxValue(60_000)),
    "8000",
  ),
  /**
   * The site's own origin (https://host): every absolute URL (canonical, og:url, hreflang, sitemaps,
   * mail links, redirect URIs, the WebAuthn origin) and every origin check is built from it, never
   * from the request's Host or X-Forwarded-* (decisions 028 and 030). Required: no fallback to the request.
   */
  SITE_ORIGIN: siteOriginSchema,
  MAIL_TRANSPORT: mailTransportSchema,
  /** Feature-flag environment (spec 000 §6). Default www. */
  SITE_ENV: v.optional(v.picklist(["www", "cisd", "betasd", "dev"]), "www"),
  /** CloudKit container of the device maker's cloud sign-in ("iCloud.…"); unset: not available. */
  ICLOUD_CONTAINER: v.optional(
    v.union([v.literal(""), v.pipe(v.string(), v.regex(/^iCloud\.[\w.-]+$/))]),
    "",
  ),
  /** The container's API token (public: made for web pages). */
  ICLOUD_API_TOKEN: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/i))]), ""),
  ICLOUD_ENVIRONMENT: v.optional(v.picklist(["development", "production"]), "production"),
  /** The site's OAuth client id at the streaming service (the embedded origin registers the same default). */
  STREAMING_CLIENT_ID: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]{1,200}$/)), defaultClientId),
  /**
   * The streaming service's authorization page; empty means the spec's test-mode stand-in,
   * /applemusic/signin/mockactivate, backed by the embedded origin's authorization server.
   */
  STREAMING_AUTHORIZE_URL: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())]), ""),
  /** Turnstile's widget key (public, in the login page) and its secret (for siteverify); unset: no check. */
  TURNSTILE_SITE_KEY: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.regex(turnstileKey))]), ""),
  TURNSTILE_SECRET_KEY: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.regex(turnstileKey))]), ""),
  /** The visitor vouchers' keys, signing key first (rules/visitor-voucher.ts); unset: none. */
  VISITOR_ID_KEYS: v.optional(
    v.union([
      v.pipe(
        v.literal(""),
        v.transform((): VoucherKey[] => []),
      ),
      voucherKeysSchema,
    ]),
    "",
  ),
});

export type SiteConfig = v.InferOutput<typeof configSchema>;

export function cloudKitConfigOf(config: SiteConfig): CloudKitConfig | null {
  if (!config.ICLOUD_CONTAINER || !config.ICLOUD_API_TOKEN) return null;
  return {
    container: config.ICLOUD_CONTAINER,
    apiToken: config.ICLOUD_API_TOKEN,
    environment: config.ICLOUD_ENVIRONMENT,
  };
}

/** The robot check of the e-mail sign-in (decision 042), or null where Turnstile is not configured. */
export function robotCheckOf(config: SiteConfig): { siteKey: string; secretKey: string } | null {
  if (!config.TURNSTILE_SITE_KEY || !config.TURNSTILE_SECRET_KEY) return null;
  return { siteKey: config.TURNSTILE_SITE_KEY, secretKey: config.TURNSTILE_SECRET_KEY };
}

/** The keys visitors are vouched for with, signing key first, or null where none is configured. */
export function visitorVoucherKeysOf(config: SiteConfig): readonly [VoucherKey, ...VoucherKey[]] | null {
  const [signing, ...others] = config.VISITOR_ID_KEYS;
  return signing ? [signing, ...others] : null;
}

export function streamingConfigOf(config: SiteConfig): StreamingConfig {
  return {
    clientId: config.STREAMING_CLIENT_ID,
    authorizeUrl: config.STREAMING_AUTHORIZE_URL || mockActivatePath,
  };
}

/** Parses the environment once per isolate; a bad value fails loudly at the first request. */
export function readConfig(env: Env): SiteConfig {
  const parsed = v.safeParse(configSchema, {
    SERVICES_ORIGIN: env.SERVICES_ORIGIN,
    SERVICES_TIMEOUT_MS: env.SERVICES_TIMEOUT_MS,
    SITE_ENV: env.SITE_ENV,
    SITE_ORIGIN: env.SITE_ORIGIN,
    MAIL_TRANSPORT: env.MAIL_TRANSPORT,
    ICLOUD_CONTAINER: env.ICLOUD_CONTAINER,
    ICLOUD_API_TOKEN: env.ICLOUD_API_TOKEN,
    ICLOUD_ENVIRONMENT: env.ICLOUD_ENVIRONMENT,
    STREAMING_CLIENT_ID: env.STREAMING_CLIENT_ID,
    STREAMING_AUTHORIZE_URL: env.STREAMING_AUTHORIZE_URL,
    TURNSTILE_SITE_KEY: env.TURNSTILE_SITE_KEY,
    TURNSTILE_SECRET_KEY: env.TURNSTILE_SECRET_KEY,
    VISITOR_ID_KEYS: env.VISITOR_ID_KEYS,
  });
  if (!parsed.success) throw new Error(`Invalid environment: ${v.summarize(parsed.issues)}`);
  if (parsed.output.MAIL_TRANSPORT === "send_email" && (!env.MAIL || !env.MAIL_FROM)) {
    throw new Error("Invalid environment: MAIL_TRANSPORT send_email needs the MAIL binding and MAIL_FROM");
  }
  // Half a robot check would either show a widget nobody verifies or verify tokens nobody can make.
  if (!parsed.output.TURNSTILE_SITE_KEY !== !parsed.output.TURNSTILE_SECRET_KEY) {
    throw new Error("Invalid environment: TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY go together");
  }
  // The embedded origin's match service is answered by the recognizer Worker.
  if (!parsed.output.SERVICES_ORIGIN && !env.RECOGNIZER) {
    throw new Error("Invalid environment: the embedded origin needs the RECOGNIZER service binding");
  }
  return parsed.output;
}

const checkedOrigins = new Map<string, string>();

/**
 * The one origin absolute URLs and origin checks are built from: SITE_ORIGIN, never the request's
 * Host, X-Forwarded-Host or URL (decision 030). Takes the parsed config or the raw bindings (the
 * embedded origin reads its env); an unset or malformed value throws the configuration error.
 */
export function siteOriginOf(config: { SITE_ORIGIN?: string }): string {
  const raw = config.SITE_ORIGIN ?? "";
  const known = checkedOrigins.get(raw);
  if (known) return known;
  const parsed = v.safeParse(siteOriginSchema, config.SITE_ORIGIN);
  if (!parsed.success) throw new Error(`Invalid environment: ${v.summarize(parsed.issues)}`);
  const origin = new URL(parsed.output).origin;
  if (checkedOrigins.size < 16) checkedOrigins.set(raw, origin);
  return origin;
}

/** Whether the site's cookies are `Secure`: SITE_ORIGIN is https, whatever the request says. */
export function secureCookiesOf(config: { SITE_ORIGIN?: string }): boolean {
  return siteOriginOf(config).startsWith("https:");
}

/** An absolute URL of this site: `path` (with its query) on SITE_ORIGIN. */
export function siteUrl(config: { SITE_ORIGIN?: string }, path: string): URL {
  if (!path.startsWith("/") || path.startsWith("//")) throw new Error(`Not a path of this site: ${path}`);
  return new URL(path, siteOriginOf(config));
}
