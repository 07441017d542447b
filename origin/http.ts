import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import * as v from "valibot";
import { findCountry } from "#rules/countries.ts";
import { SiteError, statusOfError } from "#rules/errors.ts";
import { isJsonContentType } from "#rules/http-body.ts";
import type { AnswerContext } from "./shapes";

/**
 * Cache-Control of every kind of answer. Catalogue answers change only with a new catalogue (and
 * isNewRelease once a day); counts and charts move with tags; sinks and errors are never cached,
 * except a not-found, which is cheap to remember briefly.
 */
export const cachePolicy = {
  catalogue: "public, max-age=3600, s-maxage=86400",
  charts: "public, max-age=1800",
  // A new identification shows on a track page within 65 s: one queue batch (max_batch_timeout,
  // 5 s) plus these 60 s, which the services caches keep a count and the document cache a page
  // showing it (a page lives no longer than its data, edge/document-cache.ts). Past that, the one
  // request that finds the page stale still gets the old copy while it re-renders.
  counts: "public, max-age=60",
  features: "public, max-age=300",
  notFound: "public, max-age=60",
  never: "no-store",
} as const;

export function json(c: Context, body: unknown, cacheControl: string, status: 200 | 201 = 200): Response {
  return c.json(body, status, { "Cache-Control": cacheControl });
}

/** The JSON error answer: {error, message} with the catalogue's status. */
export function errorResponse(error: SiteError, status = statusOfError(error.type, error.status)): Response {
  return new Response(JSON.stringify({ error: error.type, message: error.message }), {
    status,
    headers: {
      "Content-Type": "application/json; charset=UTF-8",
      "Cache-Control": status === 404 ? cachePolicy.notFound : cachePolicy.never,
    },
  });
}

export function notFound(message: string): SiteError {
  return new SiteError("notfound", message);
}

export function invalidParam(message: string): SiteError {
  return new SiteError("invalidparam", message);
}

/** Parses path or query parameters; a failure is an invalidparam error with the first issue. */
export function parseParams<const S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) throw invalidParam(parsed.issues[0]?.message ?? "Invalid parameters");
  return parsed.output;
}

/** A storefront or chart country: an ISO code of the edge's country table, any case. */
export const countrySchema = v.pipe(
  v.string(),
  v.check((code) => /^[a-z]{2}$/i.test(code) && findCountry(code) !== undefined, "Unknown country"),
  v.toUpperCase(),
);

/** An interface language key or locale ("en", "pt-br", "en-US"). */
export const languageSchema = v.pipe(
  v.string(),
  v.regex(/^[a-z]{2}(-[a-z0-9]{2,4})?$/i, "Unknown language"),
  v.toLowerCase(),
);

export const platformSchema = v.picklist(["web", "iphone"], "Unknown platform");

/** A catalogue id: digits only. */
export function numericId(message: string) {
  return v.pipe(v.string(message), v.regex(/^\d{1,15}$/, message));
}

/** An optional integer query parameter within bounds. */
export function intParam(name: string, min: number, max: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
  );
}

/** A comma-separated list parameter whose items must come from a fixed list. */
export function listParam<const T extends readonly string[]>(name: string, allowed: T) {
  return v.optional(
    v.pipe(
      v.string(),
      v.transform((text) =>
        text
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
      v.array(v.picklist(allowed, `${name} must be among ${allowed.join(", ")}`)),
    ),
  );
}

export function answerContext(
  country: string,
  lang: string,
  platform: "web" | "iphone" = "web",
): AnswerContext {
  return { country, lang, platform, now: new Date() };
}

/** An account-service answer: JSON that belongs to one browser, so no cache keeps it. */
export function noStoreJson(body: unknown, status: number, cookies: readonly string[] = []): Response {
  const headers = new Headers({
    "Content-Type": "application/json; charset=UTF-8",
    "Cache-Control": cachePolicy.never,
  });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(body === null ? null : JSON.stringify(body), { status, headers });
}

/** A JSON request body; anything else is an invalidparam error. */
export async function jsonBody(c: Context): Promise<unknown> {
  // JSON only when it says so (decision 030): a form can post text/plain that parses as JSON, but only
  // a script of the page's own origin can send application/json without a CORS preflight.
  if (!isJsonContentType(c.req.header("content-type"))) {
    throw new HTTPException(415, {
      res: errorResponse(new SiteError("invalidparam", "The body must be sent as application/json"), 415),
    });
  }
  try {
    return await c.req.json();
  } catch {
    throw invalidParam("The body is not JSON");
  }
}

/** 429 with the catalogue's limitexceeded and when to ask again (a limit's period, in seconds). */
export function limitExceeded(message: string, retryAfterSeconds: number): Response {
  const response = errorResponse(new SiteError("limitexceeded", message));
  response.headers.set("Retry-After", String(retryAfterSeconds));
  return response;
}

/**
 * The client's address for rate limits: `CF-Connecting-IP`, which Cloudflare sets from the
 * connection and the site passes on from the visitor's request. X-Real-IP is not read: nothing in
 * front of the site sets it, so any client could. Where the site is not behind Cloudflare
 * (`npm start`), Miniflare sets the header from the connection unless the client sent one
 * (docs/decisions/030-account-security.md says what that leaves).
 */
export function clientAddressOf(c: Context): string {
  return c.req.header("cf-connecting-ip") ?? "unknown";
}
