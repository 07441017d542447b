import type { RequestContext } from "../edge/request-context";
import { chooseCountry } from "../rules/countries";
import { chooseLanguage, languageOf } from "../rules/languages";

/**
 * The request as an AMP document sees it. An AMP page is one document per URL, kept by AMP caches
 * and served to every visitor, so nothing about the visitor that is not in the URL may change it:
 * the language is the path's prefix, the `lang` or `fb_locale` parameter (else English, never the cookie or
 * the browser's language), the country the `co` parameter (else the default, never the IP), and
 * there is no visitor: no ids, no app, no cookies, beacons suppressed (spec 000 §6).
 */
export function ampEdge(edge: RequestContext): RequestContext {
  const language = chooseLanguage({
    prefix: edge.path.langKey,
    langParam: edge.params.lang,
    fbLocale: edge.params.fb_locale,
  });
  const { locale, dir } = languageOf(language.key);
  const country = chooseCountry({ coParam: edge.params.co });
  return {
    ...edge,
    lang: language.key,
    locale,
    dir,
    languageSource: language.source,
    country: country.code,
    countrySource: country.source,
    inApp: false,
    beaconsSuppressed: true,
    inid: undefined,
    webId: undefined,
    newVisitor: true,
    setCookies: [],
  };
}

/** The request without the visitor's headers (cookies, user agent, languages): only its URL counts. */
export function ampRequest(request: Request): Request {
  return new Request(request.url, { method: request.method });
}
