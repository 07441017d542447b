import { isSiteErrorType, type SiteErrorType } from "./errors";
import { defaultLanguageKey, exactLanguage, type LanguageKey, languages, localizedPath } from "./languages";

export { localizedPath };

/**
 * Spec 000 §2 "Screens and routes": page types, read from the first segment after the optional
 * language prefix and the /amp prefix. Chart pages (001 §2: /charts and the chart types) are
 * `chartsview`; `unknown` is any other path (the site answers it with /error/notfound).
 */
export const pageTypes = [
  "home",
  "track",
  "artist",
  // Spec 001 §3 "Catalogue item": albums and playlists (decision 026), each a page of its own.
  "album",
  "playlist",
  "chartsview",
  "myshazam",
  "search",
  "apps",
  "company",
  "verify",
  "careers",
  "terms",
  "privacy",
  "survey",
  "event",
  "campaign",
  "share",
  "identify",
  // Spec 002 §2: the streaming-service connect flow's callback and its test-mode authorization page.
  "applemusic",
  // Spec 001 §1 "a developer page about a recognition kit".
  "developers",
  // Spec 000 §2 "Other screens: login (email entry, check-your-email, email-validation redirect,
  // wrong-device notice, data consent, sign-in deprecation notice)", and the local outbox.
  "login",
  "error",
] as const;

export type PageType = (typeof pageTypes)[number];

/**
 * The page types that also have an AMP form under /amp: the AMP table. A page type here has routes
 * that export an `ampView` (app/shell/amp-view.ts); any other page type's `/amp` address is the AMP 404.
 */
export const ampPageTypes = [
  "home",
  "track",
  "chartsview",
  "artist",
  "company",
  "terms",
  "apps",
  "careers",
  "developers",
  "event",
  "album",
  "playlist",
] as const satisfies readonly PageType[];

export type AmpPageType = (typeof ampPageTypes)[number];

export function hasAmpForm(pageType: PageType | "unknown"): pageType is AmpPageType {
  return (ampPageTypes as readonly string[]).includes(pageType);
}

/** Spec 001 §2: "{type}/{country-or-world}/{cityOrGenre}[/{include}] … types are discovery, top-200, top-50, genre". */
export const chartTypes = ["discovery", "top-200", "top-50", "genre"] as const;

export type ChartType = (typeof chartTypes)[number];

/** First path segments that name a page type other than their own word. */
const pageTypeOfSegment: ReadonlyMap<string, PageType> = new Map<string, PageType>([
  ["charts", "chartsview"],
  // Spec 001 §2 "radio spins: one page per genre": a chart too.
  ["radio-spins", "chartsview"],
  // Spec 001 §2 concert pages: the lists are event pages too (002 §2 `/event/{eventId}`).
  ["concerts", "event"],
  ["validate-email", "login"],
  ["dev", "login"],
  // Spec 002 §2 overlay addresses (/ux/dialog, /ux/debugtap) open over the home page.
  ["ux", "home"],
  // The offline page (docs/decisions/057-heard-offline.md) is the identify screen without a network.
  ["offline", "identify"],
  ...chartTypes.map((chartType) => [chartType, "chartsview"] as const),
]);

/** Spec 000 §2: "The prefix /amp is removed from the path and marks the page as a lightweight page." */
const ampSegment = "amp";
/** Spec 000 §2: "/secure/... : secure page types are loaded from a secure path". */
const secureSegment = "secure";
/** Spec 000 §2: "The root path is treated as /home." */
export const homePath = "/home";

export type ParsedPath = {
  /** The language named by the path prefix; undefined without one (English, or negotiated). */
  langKey: LanguageKey | undefined;
  /** The prefix as written, when the canonical URL has another (alias, locale, upper case, or en: none). */
  nonCanonicalPrefix: string | undefined;
  /** Under /amp: a lightweight page. */
  isAmp: boolean;
  /** Under /secure: a page loaded after the single-sign-on check. */
  isSecure: boolean;
  pageType: PageType | "unknown";
  /** Set on chart pages other than the /charts landing. */
  chartType: ChartType | undefined;
  /** Set on /error/{type}: a type of the error catalogue; notfound for /error, catchall for others. */
  errorType: SiteErrorType | "catchall" | undefined;
  /** Decoded segments after the prefixes, the page type's segment first; ["home"] for the root. */
  segments: string[];
  /** The path without language, /amp and /secure prefixes, no trailing slash; "/home" for the root. */
  canonicalPath: string;
};

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function errorTypeOf(segment: string | undefined): SiteErrorType | "catchall" {
  if (segment === undefined) return "notfound";
  const type = segment.toLowerCase();
  return isSiteErrorType(type) ? type : "catchall";
}

/**
 * Reads a URL path (`url.pathname`, still percent-encoded). The language prefix and /amp may come
 * in either order (/amp/de/track/1 and /de/amp/track/1); /secure comes after both.
 */
export function parsePath(pathname: string): ParsedPath {
  let segments = pathname.split("/").filter((segment) => segment !== "");
  let langKey: LanguageKey | undefined;
  let nonCanonicalPrefix: string | undefined;
  let isAmp = false;
  for (let pass = 0; pass < 2; pass += 1) {
    const first = segments[0];
    if (first === undefined) break;
    if (!isAmp && first.toLowerCase() === ampSegment) {
      isAmp = true;
      segments = segments.slice(1);
      continue;
    }
    const language = langKey === undefined ? exactLanguage(decodeSegment(first)) : undefined;
    if (language === undefined) break;
    langKey = language;
    if (first !== language || language === "en") nonCanonicalPrefix = first;
    segments = segments.slice(1);
  }
  let isSecure = false;
  if (segments[0]?.toLowerCase() === secureSegment) {
    isSecure = true;
    segments = segments.slice(1);
  }
  const decoded = segments.map(decodeSegment);
  const head = decoded[0]?.toLowerCase();
  const canonicalPath = segments.length === 0 ? homePath : `/${segments.join("/")}`;
  if (head === undefined) {
    return {
      langKey,
      nonCanonicalPrefix,
      isAmp,
      isSecure,
      pageType: "home",
      chartType: undefined,
      errorType: undefined,
      segments: ["home"],
      canonicalPath,
    };
  }
  const pageType =
    pageTypeOfSegment.get(head) ??
    ((pageTypes as readonly string[]).includes(head) ? (head as PageType) : "unknown");
  const chartType = (chartTypes as readonly string[]).includes(head) ? (head as ChartType) : undefined;
  const errorType = pageType === "error" ? errorTypeOf(decoded[1]) : undefined;
  return {
    langKey,
    nonCanonicalPrefix,
    isAmp,
    isSecure,
    pageType,
    chartType,
    errorType,
    segments: decoded,
    canonicalPath,
  };
}

/**
 * A chart shows its rows a page at a time (decision 056), `?page=N` for N ≥ 2 (the first page has no
 * parameter). A well-formed page number is part of the page's address (canonical URL, alternates,
 * AMP form); the chart's loader refuses a malformed one and one past the chart's end.
 */
export const chartRowsPageParam = "page";

/** The page number `?page=` names: 1 without one, undefined when it is not a number without a sign or leading zero. */
export function chartRowsPageOf(search: URLSearchParams): number | undefined {
  const value = search.get(chartRowsPageParam);
  if (value === null) return 1;
  return /^[1-9][0-9]{0,3}$/.test(value) ? Number(value) : undefined;
}

/** The query that is part of a page's address: a chart's page of rows past the first, else none. */
export function addressQuery(path: Pick<ParsedPath, "chartType">, search: URLSearchParams): string {
  if (path.chartType === undefined) return "";
  const page = chartRowsPageOf(search);
  return page !== undefined && page > 1 ? `?${chartRowsPageParam}=${page}` : "";
}

/** The AMP version of a page: /amp, then the language prefix, then the path. */
export function ampPath(langKey: LanguageKey, path: string): string {
  const localized = localizedPath(langKey, path);
  return localized === "/" ? `/${ampSegment}` : `/${ampSegment}${localized}`;
}

/**
 * The hreflang alternates of a page: every interface language, plus x-default, the unprefixed
 * URL, which answers in the visitor's negotiated language (spec 000 §4) and English otherwise.
 */
export function alternateLinks(
  origin: string,
  path: string,
  query = "",
): { hreflang: string; href: string }[] {
  const links: { hreflang: string; href: string }[] = languages.map((language) => ({
    hreflang: language.hreflang,
    href: new URL(localizedPath(language.key, path) + query, origin).href,
  }));
  links.push({
    hreflang: "x-default",
    href: new URL(localizedPath(defaultLanguageKey, path) + query, origin).href,
  });
  return links;
}

/** The canonical URL of a page as served in a language: always its prefixed (or English) URL. */
export function canonicalUrl(origin: string, langKey: LanguageKey, path: string, query = ""): string {
  return new URL(localizedPath(langKey, path) + query, origin).href;
}

/**
 * The language picker's link to a page in a language. Prefixed URLs remember their language in
 * the cookie by themselves; English has no prefix, so its link carries `lang=en` to overwrite a
 * remembered language (otherwise the unprefixed URL would answer in the remembered one).
 */
export function languagePickerHref(langKey: LanguageKey, path: string): string {
  const localized = localizedPath(langKey, path);
  return langKey === defaultLanguageKey ? `${localized}?lang=${defaultLanguageKey}` : localized;
}
