import { isbot } from "isbot";
import * as v from "valibot";
import { type RequestParams, readParams } from "#rules/address-params.ts";
import {
  countryCodeSchema,
  installIdCookie,
  languageCookie,
  readCookies,
  webIdCookie,
} from "#rules/cookies.ts";
import { type CountrySource, chooseCountry } from "#rules/countries.ts";
import { asksNotToBeTracked } from "#rules/global-privacy-control.ts";
import {
  chooseLanguage,
  type LanguageKey,
  type LanguageSource,
  languageOf,
  type TextDirection,
} from "#rules/languages.ts";
import { type ParsedPath, parsePath } from "#rules/path.ts";

/**
 * What the edge knows about one request, resolved once in worker/ and handed to Remix loaders
 * (load context `edge`), amp/ and the services proxy.
 */
export type RequestContext = {
  /** Interface language key as used in path prefixes ("en", "de", "pt-br"). */
  lang: LanguageKey;
  /** BCP 47 locale for Intl and `<html lang>` ("en-US", "de-DE"). */
  locale: string;
  dir: TextDirection;
  /** Which step of the language choice decided (spec 000 §4). */
  languageSource: LanguageSource;
  /** Country code from the table, upper case (ISO 3166, historic codes, WORLD, GLOBAL). */
  country: string;
  countrySource: CountrySource;
  path: ParsedPath;
  /** A lightweight page under the /amp prefix. */
  isAmp: boolean;
  isBot: boolean;
  /** The native app's webview: a valid `appconfig` cookie (rules/cookies.ts). */
  inApp: boolean;
  /** Spec 000 §6: bots and lightweight pages have beacons suppressed. */
  beaconsSuppressed: boolean;
  /** `nohf`: hide header and footer. */
  hideHeaderFooter: boolean;
  params: RequestParams;
  /** Install id: the `inid` parameter, else the cookie it was remembered in. */
  inid: string | undefined;
  /** Visitor id; undefined on answers that write no cookies (bots, AMP) for a visitor without one. */
  webId: string | undefined;
  /**
   * The `webIdSig` cookie the browser brought (rules/visitor-voucher.ts), unchecked; undefined when
   * `webId` is new or undefined. Only the services step verifies it, for the calls that count.
   */
  webIdVoucher: string | undefined;
  /** Spec 000 §4 "A visitor is new when no web id exists." */
  newVisitor: boolean;
  /** The request came over https (cookies are then Secure). */
  secure: boolean;
  /** Set-Cookie values the edge adds to the answer. */
  setCookies: string[];
};

export type ResolveOptions = {
  /** Makes a new visitor id; default `crypto.randomUUID`. */
  newWebId?: () => string;
};

/**
 * The page a request is for. Remix's client navigations fetch a page's data as `{path}.data`
 * (`/_root.data` for the root): those resolve as the page itself, so canonical and hreflang
 * links stay the page's own after an in-app navigation.
 */
export function documentPathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

export function resolveRequest(
  request: Request,
  cf: { readonly country?: unknown } | null | undefined,
  options: ResolveOptions = {},
): RequestContext {
  const url = new URL(request.url);
  const path = parsePath(documentPathOf(url.pathname));
  const params = readParams(url.searchParams);
  const secure = url.protocol === "https:";
  const isAmp = path.isAmp;
  // An AMP page is one document per URL, kept by AMP caches and served to every visitor (decision
  // 016), so nothing about the visitor that is not in the URL may change it: its language is the
  // path's prefix, `lang` or `fb_locale` (else English; never the cookie or the browser's
  // languages), its country the `co` parameter (else the default; never the app's config or the
  // IP), and there is no visitor: no ids, no app, no cookies, beacons suppressed (spec 000 §6).
  // Resolved here, once, the AMP and the React renderers see one request context.
  const visitor = isAmp
    ? { cookies: readCookies(null), acceptLanguage: null, cfCountry: undefined }
    : {
        cookies: readCookies(request.headers.get("cookie")),
        acceptLanguage: request.headers.get("accept-language"),
        cfCountry: cf?.country,
      };
  const { cookies } = visitor;

  const language = chooseLanguage({
    prefix: path.langKey,
    langParam: params.lang,
    fbLocale: params.fb_locale,
    cookie: cookies.lang,
    acceptLanguage: visitor.acceptLanguage,
  });
  const { locale, dir } = languageOf(language.key);
  const cfCountry = v.safeParse(countryCodeSchema, visitor.cfCountry);
  const country = chooseCountry({
    coParam: params.co,
    appConfigCountry: cookies.appConfig?.country,
    cfCountry: cfCountry.success ? cfCountry.output : undefined,
  });

  const isBot = isbot(request.headers.get("user-agent"));
  // Bots keep no cookies, and an AMP document is everyone's: neither answer carries per-visitor cookies.
  const writesCookies = !isBot && !isAmp;
  const setCookies: string[] = [];

  // Global Privacy Control: no visitor id, neither the cookie it brings nor a new one.
  const untracked = asksNotToBeTracked({ header: request.headers.get("sec-gpc") });
  const newVisitor = cookies.webId === undefined;
  let webId = untracked ? undefined : cookies.webId;
  if (webId === undefined && writesCookies && !untracked) {
    webId = (options.newWebId ?? (() => crypto.randomUUID()))();
    setCookies.push(webIdCookie(webId, secure));
  }

  const inid = isAmp ? undefined : (params.inid ?? cookies.inid);
  if (writesCookies && params.inid !== undefined && params.inid !== cookies.inid) {
    setCookies.push(installIdCookie(params.inid, secure));
  }

  const chosenByVisitor = language.source === "prefix" || language.source === "lang";
  if (writesCookies && chosenByVisitor && cookies.lang !== language.key) {
    setCookies.push(languageCookie(language.key, secure));
  }

  return {
    lang: language.key,
    locale,
    dir,
    languageSource: language.source,
    country: country.code,
    countrySource: country.source,
    path,
    isAmp,
    isBot,
    inApp: cookies.appConfig !== undefined,
    beaconsSuppressed: isBot || isAmp,
    hideHeaderFooter: params.nohf === true,
    params,
    inid,
    webId,
    webIdVoucher: webId !== undefined && webId === cookies.webId ? cookies.webIdVoucher : undefined,
    newVisitor,
    secure,
    setCookies,
  };
}

/** Methods that change nothing (RFC 9110 §9.2.1): any site may send them. */
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one cross-site rule (decision 030): whether a request that may change data (a page's form, a
 * `/services` write, sign-in and sign-out included) was made by another site. Its `Origin` must be
 * exactly the site's origin (SITE_ORIGIN: scheme, host and port; "null", a sibling subdomain or
 * another port are other sites), and a browser that says where the request came from
 * (`Sec-Fetch-Site`) must say same-origin. A request with neither header is no browser's form (a
 * script, the native app): the session cookie it would need is SameSite=Lax anyway.
 */
export function isCrossSiteRequest(request: Request, siteOrigin: string): boolean {
  if (safeMethods.has(request.method)) return false;
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== siteOrigin) return true;
  const site = request.headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin";
}
