import { describe, expect, test } from "vitest";
import {
  chooseLanguage,
  exactLanguage,
  languageKeys,
  languageOf,
  languages,
  matchLanguage,
  parseAcceptLanguage,
} from "#rules/languages.ts";

describe("the language table", () => {
  test("22 interface languages with the spec's locales", () => {
    expect(languages.map((language) => language.locale).sort()).toEqual(
      [
        "cs-CZ",
        "de-DE",
        "el-GR",
        "en-US",
        "en-GB",
        "es",
        "es-ES",
        "es-MX",
        "fr-FR",
        "hi-IN",
        "id-ID",
        "it-IT",
        "ja-JP",
        "ko-KR",
        "nl-NL",
        "pl-PL",
        "pt-PT",
        "pt-BR",
        "ru-RU",
        "tr-TR",
        "zh-CN",
        "zh-TW",
      ].sort(),
    );
  });

  test("keys are unique, lower case and valid path segments", () => {
    expect(new Set(languageKeys).size).toBe(22);
    for (const key of languageKeys) expect(key).toMatch(/^[a-z]{2}(-[a-z]{2})?$/);
  });

  test("every locale and hreflang is a valid BCP 47 tag Intl accepts", () => {
    for (const language of languages) {
      expect(Intl.getCanonicalLocales(language.locale)).toEqual([language.locale]);
      expect(Intl.getCanonicalLocales(language.hreflang)).toEqual([language.hreflang]);
      expect(language.dir).toBe("ltr");
    }
  });

  test("hreflang values are unique", () => {
    expect(new Set(languages.map((language) => language.hreflang)).size).toBe(22);
  });

  test("languageOf refuses a value outside the table", () => {
    expect(() => languageOf("xx" as never)).toThrow();
  });
});

describe("exactLanguage", () => {
  test.each([
    ["de", "de"],
    ["DE", "de"],
    ["de-DE", "de"],
    ["de_de", "de"],
    ["gb", "gb"],
    ["en-GB", "gb"],
    ["en", "en"],
    ["en-US", "en"],
    ["pt", "pt"],
    ["pt-PT", "pt"],
    ["pt-BR", "pt-br"],
    ["es", "es"],
    ["es-ES", "es-es"],
    ["es-mx", "es-mx"],
    ["zh-hant", "zh-tw"],
    ["zh-TW", "zh-tw"],
    ["zh-mo", "zh-tw"],
    ["zh-HK", "zh-tw"],
    ["zh-CN", "zh-cn"],
    ["de-AT", undefined],
    ["en-AU", undefined],
    ["xx", undefined],
    ["", undefined],
  ])("%s → %s", (name, expected) => {
    expect(exactLanguage(name)).toBe(expected);
  });
});

describe("matchLanguage: exactly, then by the part before the dash", () => {
  test.each([
    ["de-AT", "de"],
    ["de-CH-1996", "de"],
    ["en-AU", "en"],
    ["en-GB", "gb"],
    ["en-gb-oxendict", "gb"],
    ["fr-CA", "fr"],
    ["es-AR", "es"],
    ["es-419", "es"],
    ["pt-AO", "pt"],
    ["zh-Hant-TW", "zh-tw"],
    ["zh-Hant", "zh-tw"],
    ["zh-Hans-CN", "zh-cn"],
    ["zh-SG", "zh-cn"],
    ["zh", "zh-cn"],
    ["ja", "ja"],
    ["sv-SE", undefined],
    ["sv", undefined],
    ["x-klingon", undefined],
    ["de DE", undefined],
    ["de--DE", undefined],
    ["*", undefined],
    ["<script>", undefined],
    ["", undefined],
  ])("%s → %s", (tag, expected) => {
    expect(matchLanguage(tag)).toBe(expected);
  });
});

describe("parseAcceptLanguage", () => {
  test.each([
    [null, []],
    ["", []],
    ["de", ["de"]],
    ["de-DE,de;q=0.9,en;q=0.8", ["de-DE", "de", "en"]],
    ["en;q=0.5, fr;q=0.9, ja", ["ja", "fr", "en"]],
    ["fr;q=0.8, it;q=0.8, de;q=0.9", ["de", "fr", "it"]],
    ["*;q=0.5, nl", ["nl"]],
    ["sv, de;q=0", ["sv"]],
    ["de;q=2, fr;q=abc, it;q=0.7", ["it"]],
    ["de;q=1.0, fr;q=1.000", ["de", "fr"]],
    ["de;q=1.5, fr;q=0.1234", []],
    ["de;x=1, fr", ["fr"]],
    ["de-DE;Q=0.3, pl", ["pl", "de-DE"]],
    [";;;,,,de", ["de"]],
    ["12, de_DE, de-DE", ["de-DE"]],
    ["toolongsubtag-x, ko", ["ko"]],
    [" pt-BR ; q=0.9 , es", ["es", "pt-BR"]],
  ])("%j → %j", (header, expected) => {
    expect(parseAcceptLanguage(header)).toEqual(expected);
  });

  test("a very long header is read only up to its limit", () => {
    const header = `${"sv;q=0.5,".repeat(500)}de`;
    expect(parseAcceptLanguage(header)).not.toContain("de");
  });
});

type Sources = Parameters<typeof chooseLanguage>[0];

describe("chooseLanguage", () => {
  const cases: [name: string, sources: Sources, key: string, source: string][] = [
    ["nothing: en", {}, "en", "default"],
    ["prefix", { prefix: "de" }, "de", "prefix"],
    ["prefix wins over lang", { prefix: "de", langParam: "fr" }, "de", "prefix"],
    ["prefix wins over cookie", { prefix: "ja", cookie: "ko" }, "ja", "prefix"],
    ["prefix wins over Accept-Language", { prefix: "it", acceptLanguage: "nl" }, "it", "prefix"],
    ["prefix alias", { prefix: "zh-hk" }, "zh-tw", "prefix"],
    ["prefix is matched exactly only", { prefix: "de-AT", langParam: "fr" }, "fr", "lang"],
    ["lang", { langParam: "fr" }, "fr", "lang"],
    ["lang over cookie", { langParam: "fr", cookie: "de" }, "fr", "lang"],
    ["lang over Accept-Language", { langParam: "fr", acceptLanguage: "de" }, "fr", "lang"],
    ["lang by the part before the dash", { langParam: "fr-CA" }, "fr", "lang"],
    ["fb_locale, a scraper's locale", { fbLocale: "de_DE" }, "de", "fb_locale"],
    ["fb_locale with a country of its own", { fbLocale: "pt_BR" }, "pt-br", "fb_locale"],
    ["lang over fb_locale", { langParam: "fr", fbLocale: "de_DE" }, "fr", "lang"],
    ["fb_locale over cookie", { fbLocale: "ja_JP", cookie: "ko" }, "ja", "fb_locale"],
    ["fb_locale over Accept-Language", { fbLocale: "it_IT", acceptLanguage: "nl" }, "it", "fb_locale"],
    ["an unknown fb_locale asks the next source", { fbLocale: "xx_XX", cookie: "ko" }, "ko", "cookie"],
    ["lang alias gb", { langParam: "gb" }, "gb", "lang"],
    ["lang alias en", { langParam: "en" }, "en", "lang"],
    ["lang with underscore", { langParam: "pt_BR" }, "pt-br", "lang"],
    ["unknown lang is refused, cookie next", { langParam: "sv", cookie: "de" }, "de", "cookie"],
    ["malformed lang is refused", { langParam: "<b>", cookie: "de" }, "de", "cookie"],
    ["empty lang is ignored", { langParam: "", cookie: "de" }, "de", "cookie"],
    ["cookie", { cookie: "ko" }, "ko", "cookie"],
    ["cookie over Accept-Language", { cookie: "ko", acceptLanguage: "ja" }, "ko", "cookie"],
    ["unknown cookie is refused", { cookie: "sv", acceptLanguage: "ja" }, "ja", "accept-language"],
    ["Accept-Language first tag", { acceptLanguage: "ru-RU,ru;q=0.9" }, "ru", "accept-language"],
    ["Accept-Language later tag", { acceptLanguage: "sv-SE,sv;q=0.9,de;q=0.8" }, "de", "accept-language"],
    ["Accept-Language by q, not order", { acceptLanguage: "fr;q=0.2,pl;q=0.9" }, "pl", "accept-language"],
    ["Accept-Language en-GB", { acceptLanguage: "en-GB,en;q=0.9" }, "gb", "accept-language"],
    ["Accept-Language zh-Hant-HK", { acceptLanguage: "zh-Hant-HK" }, "zh-tw", "accept-language"],
    ["Accept-Language nothing known", { acceptLanguage: "sv,da;q=0.5" }, "en", "default"],
    ["Accept-Language malformed", { acceptLanguage: "de;q=x,;;," }, "en", "default"],
    ["all unknown", { langParam: "xx", cookie: "yy", acceptLanguage: "zz" }, "en", "default"],
  ];
  test.each(cases)("%s", (_name, sources, key, source) => {
    expect(chooseLanguage(sources)).toEqual({ key, source });
  });
});
