import * as v from "valibot";
import type { CloudKitConfig } from "./account";
import { defaultClientId, mockActivatePath, type StreamingConfig } from "./streaming";

/** The Worker's bindings (wrangler.toml). */
export type Env = {
  ASSETS: Fetcher;
  DB: D1Database;
  /** The recognition store (origin/recognition-store.ts), read by the embedded origin's match service. */
  RECOGNITION: D1Database;
  SERVICES_ORIGIN?: string;
  SERVICES_TIMEOUT_MS?: string;
  SITE_ENV?: string;
  SITE_ORIGIN?: string;
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
};

const configSchema = v.object({
  /** Remote origin of `/services`; empty means the embedded origin. */
  SERVICES_ORIGIN: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())]), ""),
  /** Upstream timeout in ms. Default 8000. */
  SERVICES_TIMEOUT_MS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(100), v.maxValue(60_000)),
    "8000",
  ),
  /**
   * The site's own origin (https://host), from which canonical, og:url, hreflang, sitemaps and
   * robots.txt are built, never from the request's Host (issue 28). Empty: the request's origin,
   * for development and tests only.
   */
  SITE_ORIGIN: v.optional(
    v.union([v.literal(""), v.pipe(v.string(), v.url(), v.regex(/^https?:\/\/[^/]+$/))]),
    "",
  ),
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
    ICLOUD_CONTAINER: env.ICLOUD_CONTAINER,
    ICLOUD_API_TOKEN: env.ICLOUD_API_TOKEN,
    ICLOUD_ENVIRONMENT: env.ICLOUD_ENVIRONMENT,
    STREAMING_CLIENT_ID: env.STREAMING_CLIENT_ID,
    STREAMING_AUTHORIZE_URL: env.STREAMING_AUTHORIZE_URL,
  });
  if (!parsed.success) throw new Error(`Invalid environment: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}

/** The origin absolute URLs of the site are built from: SITE_ORIGIN, never the request's Host. */
export function siteOriginOf(config: Pick<SiteConfig, "SITE_ORIGIN">, request: Request): string {
  return config.SITE_ORIGIN || new URL(request.url).origin;
}
