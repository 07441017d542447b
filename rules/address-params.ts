import * as v from "valibot";
import { countryCodeSchema, guidSchema, languageTagSchema } from "./cookies";

/**
 * The address parameters of spec 000 §2, read by the edge from the query and by the browser from
 * the hash (`#refid=x;stats-window-listener=1`). Kept apart from request-context.ts so the browser
 * bundle takes the schemas without the edge's request handling.
 */

/** Spec 000 §2 "device (emulate a device)": a screen size mode or a platform. */
export const emulatedDevices = ["mobile", "tablet", "desktop", "ios", "android"] as const;

/** `?flag`, `?flag=1` and `?flag=true` are on; `0` and `false` off; anything else is dropped. */
const flagSchema = v.pipe(
  v.string(),
  v.toLowerCase(),
  v.picklist(["", "1", "true", "0", "false"]),
  v.transform((value) => value === "" || value === "1" || value === "true"),
);

/**
 * Spec 000 §2 "Address parameters read". A value that fails its schema is dropped, as if absent;
 * the free-text ones (referrer, refid) are held to characters that are safe in beacons and URLs.
 */
const paramSchemas = {
  lang: languageTagSchema,
  co: countryCodeSchema,
  inid: guidSchema,
  referrer: v.pipe(v.string(), v.maxLength(128), v.regex(/^[A-Za-z0-9._,:/-]+$/)),
  refid: v.pipe(v.string(), v.maxLength(64), v.regex(/^[A-Za-z0-9._-]+$/)),
  nohf: flagSchema,
  fb_locale: v.pipe(v.string(), v.regex(/^[a-z]{2,3}_[A-Z]{2}$/)),
  device: v.pipe(v.string(), v.toLowerCase(), v.picklist(emulatedDevices)),
  preview: flagSchema,
  /** Spec 000 §2 "netlog=1 (debug logging)": only 1 turns it on. */
  netlog: v.pipe(
    v.string(),
    v.transform((value) => value === "1"),
  ),
  "stats-window-listener": flagSchema,
} as const;

type ParamSchemas = typeof paramSchemas;

export type RequestParams = {
  [Name in keyof ParamSchemas]: v.InferOutput<ParamSchemas[Name]> | undefined;
};

/** The address parameters of spec 000 §2, each validated; the first of a repeated name counts. */
export function readParams(searchParams: URLSearchParams): RequestParams {
  const params: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(paramSchemas)) {
    const raw = searchParams.get(name);
    const result = raw === null ? undefined : v.safeParse(schema, raw);
    params[name] = result?.success ? result.output : undefined;
  }
  return params as RequestParams;
}

/** The longest hash read; a longer one is not parameters. */
const hashMaxLength = 1024;

/**
 * Spec 000 §2 "Hash parameters use key=value pairs separated by semicolons": `#refid=a;nohf=1`
 * read by the same schemas as the query. A hash that is an anchor (`#lyrics`) has no pairs and
 * gives nothing; a value that is not well-encoded is dropped.
 */
export function readHashParams(hash: string): RequestParams {
  const pairs = new URLSearchParams();
  const text = hash.startsWith("#") ? hash.slice(1) : hash;
  if (text.length <= hashMaxLength) {
    for (const part of text.split(";")) {
      const equals = part.indexOf("=");
      if (equals <= 0) continue;
      const name = decoded(part.slice(0, equals));
      const value = decoded(part.slice(equals + 1));
      if (name !== undefined && value !== undefined && !pairs.has(name)) pairs.set(name, value);
    }
  }
  return readParams(pairs);
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
