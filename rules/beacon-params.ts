import { metricsBeaconPath } from "./addresses";
import { SiteError } from "./errors";
import { namesKnownSystem } from "./user-agent";

/**
 * Statistics beacons (spec 000 §3 "Statistics beacon parameters", §5 "Beacon dynamic values",
 * §7 metrics call). Pure: the browser sender (app/shell/browser/beacons.ts) and any server code that
 * records statistics build the same query from the same rules.
 */

export const beaconTypes = ["pageview", "userevent", "impression", "error", "exceptions"] as const;
export type BeaconType = (typeof beaconTypes)[number];

/** Spec 000 §5: "cut to 20 characters unless length is ignored". */
export const beaconValueMaxLength = 20;
/** Spec 000 §8: "A failed beacon sends an error beacon with id global.ue-exception." */
export const beaconFailureId = "global.ue-exception";
/** Spec 000 §7: "Impression beacon for country IE: carries timezone, screenname and default params, no webId". */
export const impressionWithoutWebIdCountry = "IE";

export type SanitizeOptions = { ignoreLength?: boolean; preserveCase?: boolean };

/**
 * Spec 000 §5: spaces become underscores; characters other than letters, digits, hyphen,
 * underscore and comma are removed; cut to 20 unless length is ignored; lowercased unless case
 * is preserved. Letters are ASCII letters: beacon values are metric dimensions, and accented or
 * non-Latin text would only multiply the distinct values without helping anyone read them.
 */
export function sanitizeBeaconValue(value: string, options: SanitizeOptions = {}): string {
  const kept = value.replace(/\s/g, "_").replace(/[^A-Za-z0-9_,-]/g, "");
  const cut = options.ignoreLength ? kept : kept.slice(0, beaconValueMaxLength);
  return options.preserveCase ? cut : cut.toLowerCase();
}

/**
 * How each parameter is made safe. `text` values pass the spec's sanitiser; `flag` and `number`
 * values are typed; `shaped` values (paths, versions, time zone) would be destroyed by the
 * sanitiser (it drops "/" and "."), so they are checked against their own pattern instead and
 * dropped when they do not match — never sent raw.
 */
type ParamRule =
  | { kind: "text"; options: SanitizeOptions }
  | { kind: "flag" }
  | { kind: "number" }
  | { kind: "shaped"; pattern: RegExp; maxLength: number };

const label: ParamRule = { kind: "text", options: {} };
// Ids are compared exactly elsewhere (UUIDs, install ids, track keys): never cut, never recased.
const identifier: ParamRule = { kind: "text", options: { ignoreLength: true, preserveCase: true } };
const version: ParamRule = { kind: "shaped", pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/, maxLength: 40 };

const paramRules = {
  trackid: identifier,
  screenname: label,
  path: { kind: "shaped", pattern: /^\/[A-Za-z0-9/._~,-]*$/, maxLength: 300 },
  timespent: { kind: "number" },
  time: { kind: "number" },
  cached: { kind: "flag" },
  providername: label,
  providerdesc: label,
  deeplinkreferrer: label,
  errorcode: label,
  errordesc: label,
  inid: identifier,
  lang: label,
  buildnum: version,
  browsername: label,
  browserver: version,
  deviceplatform: label,
  inapp: { kind: "flag" },
  newuser: { kind: "flag" },
  osver: version,
  refid: identifier,
  // The user agent keeps its case and length (it is read whole when bots and browsers are studied).
  ua: { kind: "text", options: { ignoreLength: true, preserveCase: true } },
  webId: identifier,
  amc: { kind: "flag" },
  aa: { kind: "flag" },
  ea: { kind: "flag" },
  ga: { kind: "flag" },
  exp_name: label,
  // Spec 000 §7 "beacon service, path with appname, appver, lang, country, platform, devicemodel,
  // inid, beaconType": the metrics path carries the route, and these travel beside it (decision 026).
  appname: label,
  appver: version,
  country: { kind: "shaped", pattern: /^[A-Z]{2,6}$/, maxLength: 6 },
  devicemodel: label,
  // Spec 002 §8 "Token exchange not 200: Statistic with status_code and error or 'unknown'".
  status_code: { kind: "number" },
  timezone: { kind: "shaped", pattern: /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/, maxLength: 64 },
} satisfies Record<string, ParamRule>;

export type BeaconParamName = keyof typeof paramRules;

type ValueOf<R extends ParamRule> = R extends { kind: "flag" }
  ? boolean
  : R extends { kind: "number" }
    ? number
    : string;

/** What callers hand in: the spec's parameters, all optional, plus `trackkey` (trackid's fallback). */
export type BeaconParams = {
  beaconType?: BeaconType;
  beaconId?: string;
  trackkey?: string;
} & { [K in BeaconParamName]?: ValueOf<(typeof paramRules)[K]> };

/** Code-chosen ids such as "global.ue-exception": dots allowed, as in the metric routes. */
const beaconIdPattern = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export type BuiltBeacon = {
  type: BeaconType | undefined;
  /** Parameters ready for a query string or a bridge message, in a stable order. */
  query: Record<string, string>;
};

export type BuildBeaconOptions = {
  /** Visitor country (ISO, upper case); IE impressions drop webId and carry the time zone. */
  country?: string;
};

/**
 * Checks and sanitises one beacon. Throws `invalidparam` when it has neither a beaconType nor a
 * beaconId (spec 000 §5) or when either is malformed; values that cannot be made safe are dropped.
 */
export function buildBeacon(params: BeaconParams, options: BuildBeaconOptions = {}): BuiltBeacon {
  const { beaconType, beaconId, trackkey, ...rest } = params;
  if (beaconType === undefined && beaconId === undefined) {
    throw new SiteError("invalidparam", "A beacon needs a beaconType or a beaconId");
  }
  if (beaconType !== undefined && !(beaconTypes as readonly string[]).includes(beaconType)) {
    throw new SiteError("invalidparam", `Unknown beaconType ${String(beaconType)}`);
  }
  if (beaconId !== undefined && !beaconIdPattern.test(beaconId)) {
    throw new SiteError("invalidparam", `Malformed beaconId ${beaconId}`);
  }
  const values: Partial<Record<BeaconParamName, string | number | boolean>> = { ...rest };
  if (values.trackid === undefined && trackkey !== undefined) values.trackid = trackkey;
  if (beaconType === "impression" && options.country?.toUpperCase() === impressionWithoutWebIdCountry) {
    delete values.webId;
  } else {
    delete values.timezone;
  }

  const query: Record<string, string> = {};
  if (beaconType !== undefined) query.beaconType = beaconType;
  if (beaconId !== undefined) query.beaconId = beaconId;
  for (const name of Object.keys(paramRules) as BeaconParamName[]) {
    const value = values[name];
    if (value === undefined) continue;
    const safe = safeValue(paramRules[name], value);
    if (safe !== undefined && safe !== "") query[name] = safe;
  }
  return { type: beaconType, query };
}

function safeValue(rule: ParamRule, value: string | number | boolean): string | undefined {
  switch (rule.kind) {
    case "text":
      return typeof value === "string" ? sanitizeBeaconValue(value, rule.options) : undefined;
    case "flag":
      return typeof value === "boolean" ? String(value) : undefined;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? String(Math.round(value)) : undefined;
    case "shaped":
      return typeof value === "string" && value.length <= rule.maxLength && rule.pattern.test(value)
        ? value
        : undefined;
  }
}

/**
 * The metric route of spec 000 §7: `web.error` (or `web.error.bot`) for error and exceptions
 * beacons, else a per-page metric `web.{beaconType}.{screenname}`. A beacon with only an id is
 * a user event (ids name user actions). The browser never sends `web.error.bot`, because bots have
 * beacons suppressed; the route exists for server code that counts bots itself.
 */
export function metricRoute(beacon: BuiltBeacon, options: { isBot?: boolean } = {}): string {
  if (beacon.type === "error" || beacon.type === "exceptions") {
    return options.isBot ? "web.error.bot" : "web.error";
  }
  const page = beacon.query.screenname ?? "unknown";
  return `web.${beacon.type ?? "userevent"}.${page}`;
}

/** `/services/metrics/{route}/{time}?{params}`. */
export function metricsUrl(beacon: BuiltBeacon, time: number, options: { isBot?: boolean } = {}): string {
  return metricsBeaconPath(metricRoute(beacon, options), time, beacon.query);
}

/** The error beacon of a failed beacon: id global.ue-exception, with what went wrong. */
export function beaconFailureParams(error: unknown, failed: BeaconParams): BeaconParams {
  const type = error instanceof SiteError ? error.type : "jserror";
  const message = error instanceof Error ? error.message : String(error);
  return {
    beaconType: "error",
    beaconId: beaconFailureId,
    errorcode: type,
    errordesc: message,
    screenname: failed.screenname,
    path: failed.path,
  };
}

export type RequestFacts = {
  isBot: boolean;
  /** Whether the country came from no source at all (the default of spec 000 §4). */
  countryUnknown: boolean;
  userAgent: string;
  screenname: string;
  path: string;
};

/**
 * Spec 000 §8 "Unknown platform, bot, unknown country and page timeout are reported as error
 * statistics". The edge reports the first three for each page it answers (decision 026): a bot's
 * browser sends no beacon (§6), so only the server can count it, and the server knows the
 * agent and the country before any script runs. A bot is counted once, as a bot (route
 * `web.error.bot`): its platform and country say nothing about people.
 */
export function requestErrorStatistics(facts: RequestFacts): BeaconParams[] {
  const page = { screenname: facts.screenname, path: facts.path };
  if (facts.isBot) return [{ beaconType: "error", beaconId: "global.bot", errorcode: "bot", ...page }];
  const statistics: BeaconParams[] = [];
  if (!namesKnownSystem(facts.userAgent)) {
    statistics.push({
      beaconType: "error",
      beaconId: "global.unknown-platform",
      errorcode: "unknownplatform",
      ua: facts.userAgent,
      ...page,
    });
  }
  if (facts.countryUnknown) {
    statistics.push({
      beaconType: "error",
      beaconId: "global.unknown-country",
      errorcode: "unknowncountry",
      ...page,
    });
  }
  return statistics;
}

type VisitParams = { refid?: string | undefined; referrer?: string | undefined };

/**
 * Spec 000 §2 address parameters that every beacon of the visit carries (§3): `refid` as is, and
 * `referrer` (who sent the visitor here: an app, a partner) as `deeplinkreferrer`. They come from
 * the query, else the hash's `key=value;` pairs.
 */
export function visitBeaconParams(query: VisitParams, hash: VisitParams): BeaconParams {
  return {
    refid: query.refid ?? hash.refid,
    deeplinkreferrer: query.referrer ?? hash.referrer,
  };
}
