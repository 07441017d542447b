import { defaultLanguageKey, languageKeys } from "#rules/languages.ts";

/**
 * robots.txt (RFC 9309) and security.txt (RFC 9116): plain text for crawlers and for people
 * reporting a vulnerability. Both name absolute URLs of the site, built from the same origin as
 * every page's canonical link (the request's), so the worker answers them rather than a static file.
 */

/**
 * Paths no crawler should fetch, without language prefix: signed-in and sign-in pages, the local
 * outbox, search results and share sheets (their pages say noindex too). A rule is a path prefix:
 * `/login` also covers `/login/google`. /amp/ stays open: AMP caches fetch it, and its pages say
 * noindex and name their canonical page. /services/ stays open: crawlers that run a page's
 * script need its calls to see what a visitor sees.
 */
export const privatePaths = [
  "/secure/",
  "/dev/",
  "/login",
  "/logout",
  "/validate-email",
  "/search",
  "/share",
];

/** robots.txt: the private paths in every language, and where the sitemap index is. */
export function robotsTxt(origin: string): string {
  const prefixes = ["", ...languageKeys.filter((key) => key !== defaultLanguageKey).map((key) => `/${key}`)];
  const disallowed = prefixes.flatMap((prefix) => privatePaths.map((path) => `Disallow: ${prefix}${path}`));
  return ["User-agent: *", ...disallowed, "", `Sitemap: ${new URL("/sitemap.xml", origin).href}`, ""].join(
    "\n",
  );
}

/** RFC 9116 §2.5.5: the expiry should be less than a year ahead; half of that leaves time to notice. */
export const securityTxtLifetimeDays = 180;

/** The path security.txt is answered at (RFC 9116 §3). */
export const securityTxtPath = "/.well-known/security.txt";

/**
 * security.txt: where to report a vulnerability, until when this file holds, in which language,
 * and where it lives. The contact is the security mailbox of the site's own domain
 * (`security@` the host, without `www.`): the site has no configured domain of its own
 * (docs/decisions/018-sitemaps-and-home-screen.md). The expiry counts from the build.
 */
export function securityTxt(origin: string, builtAt: Date): string {
  const url = new URL(origin);
  const domain = url.hostname.replace(/^www\./, "");
  const expires = new Date(builtAt.getTime() + securityTxtLifetimeDays * 24 * 60 * 60 * 1000);
  return [
    `Contact: mailto:security@${domain}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, "Z")}`,
    // The people who read the reports read English; the interface languages are not a promise of theirs.
    "Preferred-Languages: en",
    `Canonical: ${new URL(securityTxtPath, origin).href}`,
    "",
  ].join("\n");
}
