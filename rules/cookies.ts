import * as v from "valibot";

/**
 * The cookies the edge reads and writes. Every value is parsed with a schema; a value that fails
 * is treated as absent, never echoed back.
 */

/** Spec 000 §9 "cookie default max age 180 days". */
export const cookieMaxAgeSeconds = 180 * 24 * 60 * 60;
/** Spec 000 §9 "Web id lifetime 31536000000 ms (about one year)". */
export const webIdMaxAgeSeconds = 31_536_000_000 / 1000;
/** Spec 000 §9 "path /, SameSite Strict". */
export const cookieDefaults = { path: "/", sameSite: "Strict" } as const;

export const cookieNames = {
  /** Spec 000 §3 storage key webId: the visitor id. */
  webId: "webId",
  /** The site's voucher for the webId beside it (rules/visitor-voucher.ts): what makes it a visitor that counts. */
  webIdVoucher: "webIdSig",
  /** Spec 000 §4 "language cookie": the interface language key chosen by `lang` or a prefix. */
  lang: "lang",
  /** Spec 000 §3 storage key inid: the native app's install id, from the `inid` parameter. */
  inid: "inid",
  /** The native app's web config, set by the app in its webview (see `appConfigSchema`). */
  appConfig: "appconfig",
} as const;

/** Spec 000 §5 "Guid: 8-4-4-4-12 hexadecimal characters". */
export const guidSchema = v.pipe(
  v.string(),
  v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  v.toLowerCase(),
);

/** A webId's voucher as the cookie may hold it (rules/visitor-voucher.ts); whether it is right is asked of the keys. */
export const voucherSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,8}\.[A-Za-z0-9_-]{22}$/));

/** A language key, locale or tag as the cookie may hold it; whether it is supported is asked later. */
export const languageTagSchema = v.pipe(
  v.string(),
  v.maxLength(35),
  v.regex(/^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$/),
);

/** A country code as a source may give it: two letters, or WORLD / GLOBAL. */
export const countryCodeSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z]{2}$|^world$|^global$/i),
  v.toUpperCase(),
);

/**
 * The native app's web config. The app's webview sets the cookie `appconfig` to URL-encoded JSON,
 * for example `appconfig=%7B%22country%22%3A%22DE%22%7D` ({"country":"DE"}), before it loads the
 * site. Its presence marks the request as coming from the app; `country` is the app's store
 * country (spec 000 §4, second in the country choice). Other fields are ignored.
 */
export const appConfigSchema = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.parseJson(),
  // valibot's object schemas take arrays too; the config is a JSON object.
  v.check((value) => !Array.isArray(value)),
  v.looseObject({ country: v.optional(v.unknown()) }),
  v.transform((config) => {
    const country = v.safeParse(countryCodeSchema, config.country);
    return { country: country.success ? country.output : undefined };
  }),
);

export type AppConfig = v.InferOutput<typeof appConfigSchema>;

export type EdgeCookies = {
  webId: string | undefined;
  webIdVoucher: string | undefined;
  lang: string | undefined;
  inid: string | undefined;
  appConfig: AppConfig | undefined;
};

function decode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** All name=value pairs of a Cookie header, values URL-decoded; the first of a repeated name wins. */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals < 0) continue;
    const name = pair.slice(0, equals).trim();
    let raw = pair.slice(equals + 1).trim();
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    const value = decode(raw);
    if (name === "" || value === undefined || cookies.has(name)) continue;
    cookies.set(name, value);
  }
  return cookies;
}

function valid<TSchema extends v.GenericSchema<string, unknown>>(
  schema: TSchema,
  value: string | undefined,
): v.InferOutput<TSchema> | undefined {
  if (value === undefined) return undefined;
  const result = v.safeParse(schema, value);
  return result.success ? result.output : undefined;
}

/** The cookies the edge uses, each validated. */
export function readCookies(header: string | null | undefined): EdgeCookies {
  const cookies = parseCookieHeader(header);
  return {
    webId: valid(guidSchema, cookies.get(cookieNames.webId)),
    webIdVoucher: valid(voucherSchema, cookies.get(cookieNames.webIdVoucher)),
    lang: valid(languageTagSchema, cookies.get(cookieNames.lang)),
    inid: valid(guidSchema, cookies.get(cookieNames.inid)),
    appConfig: valid(appConfigSchema, cookies.get(cookieNames.appConfig)),
  };
}

export type CookieOptions = {
  /** Seconds; default 180 days (spec 000 §9). */
  maxAge?: number;
  /** Default "/". */
  path?: string;
  /** Default "Strict". */
  sameSite?: "Strict" | "Lax" | "None";
  /** Set on https answers. */
  secure: boolean;
  /** Default false: the browser runtime reads webId and inid for its beacons (spec 000 §3). */
  httpOnly?: boolean;
};

const cookieNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** One Set-Cookie header value; the value is URL-encoded. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!cookieNamePattern.test(name)) throw new Error(`invalid cookie name: ${name}`);
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${Math.floor(options.maxAge ?? cookieMaxAgeSeconds)}`,
    `Path=${options.path ?? cookieDefaults.path}`,
    `SameSite=${options.sameSite ?? cookieDefaults.sameSite}`,
  ];
  if (options.secure) parts.push("Secure");
  if (options.httpOnly) parts.push("HttpOnly");
  return parts.join("; ");
}

/**
 * The visitor id cookie. SameSite Lax, not the Strict default: a Strict cookie is not sent when a
 * visitor arrives by a link from another site (a search result), so every such arrival would look
 * like a new visitor and overwrite the id.
 */
export function webIdCookie(webId: string, secure: boolean): string {
  return serializeCookie(cookieNames.webId, webId, { maxAge: webIdMaxAgeSeconds, sameSite: "Lax", secure });
}

/** The webId's voucher lives as long as the webId; no script reads it (only the edge does). */
export function webIdVoucherCookie(voucher: string, secure: boolean): string {
  return serializeCookie(cookieNames.webIdVoucher, voucher, {
    maxAge: webIdMaxAgeSeconds,
    sameSite: "Lax",
    secure,
    httpOnly: true,
  });
}

export function languageCookie(langKey: string, secure: boolean): string {
  return serializeCookie(cookieNames.lang, langKey, { secure });
}

export function installIdCookie(inid: string, secure: boolean): string {
  return serializeCookie(cookieNames.inid, inid, { secure });
}
