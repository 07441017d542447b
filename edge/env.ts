import * as v from "valibot";

/** The Worker's bindings (wrangler.toml). */
export type Env = {
  ASSETS: Fetcher;
  DB: D1Database;
  SERVICES_ORIGIN?: string;
  SERVICES_TIMEOUT_MS?: string;
  SITE_ENV?: string;
  /** Cloudflare's `send_email` binding (wrangler.toml `[[send_email]]`), used by the embedded origin. */
  MAIL?: { send(message: unknown): Promise<unknown> };
  /** The sender of the sign-in mail; without it (or MAIL) mail goes to the local outbox. */
  MAIL_FROM?: string;
};

const configSchema = v.object({
  /** Remote origin of `/services`; empty means the embedded origin. */
  SERVICES_ORIGIN: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())]), ""),
  /** Upstream timeout in ms. Default 8000. */
  SERVICES_TIMEOUT_MS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(100), v.maxValue(60_000)),
    "8000",
  ),
  /** Feature-flag environment (spec 000 §6). Default www. */
  SITE_ENV: v.optional(v.picklist(["www", "cisd", "betasd", "dev"]), "www"),
});

export type SiteConfig = v.InferOutput<typeof configSchema>;

/** Parses the environment once per isolate; a bad value fails loudly at the first request. */
export function readConfig(env: Env): SiteConfig {
  const parsed = v.safeParse(configSchema, {
    SERVICES_ORIGIN: env.SERVICES_ORIGIN,
    SERVICES_TIMEOUT_MS: env.SERVICES_TIMEOUT_MS,
    SITE_ENV: env.SITE_ENV,
  });
  if (!parsed.success) throw new Error(`Invalid environment: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}
