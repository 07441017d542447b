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
 * The client headers each kind of call forwards, by path prefix (decision 028): the upstream reads
 * these and nothing else. Every other path is a shared call that forwards no client header, so
 * its answer depends on its URL alone, which is the key of the caches and of the failure memory.
 */
const forwardedByPrefix: readonly (readonly [string, readonly string[]])[] = [
  ["/services/account/", [...visitorHeaders, ...locationHeaders, ...identificationHeaders]],
  ["/services/webrec/", [...visitorHeaders, ...locationHeaders, ...identificationHeaders]],
  ["/services/survey/", visitorHeaders],
  ["/services/verify/", visitorHeaders],
  // The streaming consent's Allow: a connection allowed signed in is the account's (decision 020).
  ["/services/partner/oauth/commerce/oauth2/authorize", visitorHeaders],
  ["/services/log", visitorHeaders],
  ["/services/metrics/", visitorHeaders],
  ["/services/event/", locationHeaders],
];

/** The calls that make identifications: those the edge tells who and where their caller is. */
export function makesIdentifications(pathname: string): boolean {
  const allowed = forwardedByPrefix.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? [];
  return allowed.includes(vouchedVisitorHeader);
}

/**
 * Request headers sent upstream: the call type's allow-list. A GET or HEAD that carries none of
 * them is shared (cacheable) and carries nothing else either; a call that does, or has a body,
 * also says what it accepts and what its body is.
 */
export function forwardedHeaders(method: string, pathname: string, incoming: Headers): Headers {
  const headers = new Headers();
  const allowed = forwardedByPrefix.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? [];
  for (const name of allowed) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  if ([...headers].length > 0 || !["GET", "HEAD"].includes(method)) {
    for (const name of contentHeaders) {
      const value = incoming.get(name);
      if (value !== null) headers.set(name, value);
    }
  }
  return headers;
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
  return allowedPrefixes.some((prefix) =>
    prefix.endsWith("/")
      ? pathname.startsWith(prefix)
      : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}
