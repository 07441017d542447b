import { edgePlaceHeaders, vouchedVisitorHeader } from "#rules/schemas/identification.ts";

// The HTTP plumbing of the proxy: which headers cross it, what a no-cache request is, request bodies.

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded in either direction. */
const hopByHopHeaders = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/**
 * A visitor's identity and where the request came from (the account service refuses cross-site
 * writes): they reach only the calls that act for the visitor, which are never stored.
 */
const visitorHeaders = [
  "cookie",
  "authorization",
  "user-agent",
  "cf-connecting-ip",
  "origin",
  "sec-fetch-site",
];
/** Spec 002 §3: the caller's location, which events and tags use. */
const locationHeaders = ["x-shz-lat", "x-shz-lng"];
/**
 * What an identification event needs besides (origin/identifications.ts): where the edge placed
 * the caller and which visitor it vouched for (set by the edge alone, worker/steps/services.ts),
 * and whether they asked not to be tracked (Global Privacy Control).
 */
const identificationHeaders = [
  edgePlaceHeaders.country,
  edgePlaceHeaders.city,
  vouchedVisitorHeader,
  "sec-gpc",
];
/** What a body is and what the answer should be: on calls that are not shared. */
const contentHeaders = ["accept", "content-type"];

/**
 * What a services call is, declared per call rather than inferred from the headers a request
 * happens to carry (decision 028):
 * - `shared`: a shared read. No client header crosses; its answer depends on its URL alone, which
 *   is the key of the caches, of coalescing and of the failure memory.
 * - `located`: a shared read unless the caller gives its location (spec 002 §3 x-shz-lat/lng), when
 *   it is that caller's own and is neither stored nor shared.
 * - `visitor`: acts for the visitor, reads and writes alike: the visitor's identity crosses, and
 *   the answer is never stored or shared, whether or not this request carried a cookie.
 * A request with a body (POST, PUT, DELETE) is a write whatever its call: never stored.
 */
export type CallKind = "shared" | "located" | "visitor";

type ServiceCall = { prefix: string; kind: CallKind; forwards: readonly string[] };

const shared = (prefix: string): ServiceCall => ({ prefix, kind: "shared", forwards: [] });
const visitor = (prefix: string, forwards: readonly string[] = visitorHeaders): ServiceCall => ({
  prefix,
  kind: "visitor",
  forwards,
});

/**
 * Every upstream call the site makes (spec 000 §7, 001 §7, 002 §7), by path prefix: its kind and
 * the client headers it forwards, the only ones the upstream reads. A path under none answers 404.
 * A prefix ending in `/` holds every path under it; one without, the path itself and its subpaths.
 */
export const serviceCalls: readonly ServiceCall[] = [
  visitor("/services/account/", [...visitorHeaders, ...locationHeaders, ...identificationHeaders]),
  visitor("/services/webrec/", [...visitorHeaders, ...locationHeaders, ...identificationHeaders]),
  // The site's own pages (decision 024): survey answers and verification requests.
  visitor("/services/survey/"),
  visitor("/services/verify/"),
  // The streaming consent's Allow: a connection allowed signed in is the account's (decision 020).
  visitor("/services/partner/oauth/commerce/oauth2/authorize"),
  visitor("/services/log"),
  visitor("/services/metrics/"),
  { prefix: "/services/event/", kind: "located", forwards: locationHeaders },
  shared("/services/amapi/"),
  shared("/services/catalogue/"),
  shared("/services/charts/"),
  shared("/services/track/"),
  shared("/services/tracks/"),
  shared("/services/lyrics/"),
  shared("/services/artist/"),
  shared("/services/config/"),
  shared("/services/search/"),
  shared("/services/tagcount/"),
  shared("/services/count/"),
  shared("/services/qr/"),
  shared("/services/health"),
  shared("/services/musicevents/"),
  shared("/services/sd/"),
  shared("/services/partner/oauth/"),
  // Spec 001 §7: the offers' campaign data, the one call the spec names outside /services.
  shared("/campaign/data/"),
  // The site's open roles (decision 024).
  shared("/services/careers/"),
  // The video site (spec 002 §2): the art tracks' watch and embed pages.
  shared("/services/video/"),
];

function underPrefix(pathname: string, prefix: string): boolean {
  return prefix.endsWith("/")
    ? pathname.startsWith(prefix)
    : pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** The call a path is (the longest prefix that holds it), or undefined for one the site does not make. */
export function serviceCallOf(pathname: string): ServiceCall | undefined {
  let found: ServiceCall | undefined;
  for (const call of serviceCalls)
    if (underPrefix(pathname, call.prefix) && call.prefix.length > (found?.prefix.length ?? -1)) found = call;
  return found;
}

/** The calls that make identifications: those the edge tells who and where their caller is. */
export function makesIdentifications(pathname: string): boolean {
  return serviceCallOf(pathname)?.forwards.includes(vouchedVisitorHeader) ?? false;
}

/**
 * Request headers sent upstream: the call's allow-list. A shared read carries nothing else
 * either; a call that is not, or has a body, also says what it accepts and what its body is.
 */
export function forwardedHeaders(method: string, pathname: string, incoming: Headers): Headers {
  const headers = new Headers();
  for (const name of serviceCallOf(pathname)?.forwards ?? []) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  if ([...headers].length > 0 || !isSharedRead(method, pathname, incoming)) {
    for (const name of contentHeaders) {
      const value = incoming.get(name);
      if (value !== null) headers.set(name, value);
    }
  }
  return headers;
}

/** Whether a request is a shared read: a GET or HEAD of a shared call (a located one without a location). */
export function isSharedRead(method: string, pathname: string, incoming: Headers): boolean {
  if (!["GET", "HEAD"].includes(method)) return false;
  const call = serviceCallOf(pathname);
  if (call?.kind === "shared") return true;
  return call?.kind === "located" && locationHeaders.every((name) => !incoming.has(name));
}

/** Upstream headers kept with an answer: the body is held decoded, so no encoding or length. */
export function answerHeadersOf(incoming: Headers): [string, string][] {
  const dropped = new Set([
    ...hopByHopHeaders,
    ...connectionListed(incoming),
    "content-length",
    "content-encoding",
  ]);
  return [...incoming].filter(([name]) => !dropped.has(name));
}

function connectionListed(headers: Headers): string[] {
  return (headers.get("connection") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

/** Whether a path is one of the upstream's, by the allowed prefixes. */
export function isAllowedPath(pathname: string, allowedPrefixes: readonly string[]): boolean {
  // Encoded separators could reach another path once an upstream decodes them.
  if (/%2f|%5c|\\/i.test(pathname)) return false;
  return allowedPrefixes.some((prefix) => underPrefix(pathname, prefix));
}
