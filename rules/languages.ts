/**
 * The interface languages (spec 000 §3) and the language choice (spec 000 §4).
 *
 * A language is known by its key, the lower-case path prefix ("de", "pt-br"); English (en-US) is
 * the unprefixed language. The key is also the i18next language code, the locales/ folder name and
 * the value of the language cookie.
 */

export type TextDirection = "ltr" | "rtl";

export type Language = {
  /** Path prefix, locales/ folder, i18next code, cookie value. */
  key: string;
  /** BCP 47 locale for Intl and `<html lang>`. */
  locale: string;
  /** hreflang of the alternate link: the bare language where the site has one variant of it. */
  hreflang: string;
  /** The language's own name, shown in the language picker. */
  nativeName: string;
  dir: TextDirection;
};

/** Spec 000 §3 "Interface languages and their locales". */
export const languages = [
  { key: "cs", locale: "cs-CZ", hreflang: "cs", nativeName: "Čeština", dir: "ltr" },
  { key: "de", locale: "de-DE", hreflang: "de", nativeName: "Deutsch", dir: "ltr" },
  { key: "el", locale: "el-GR", hreflang: "el", nativeName: "Ελληνικά", dir: "ltr" },
  { key: "en", locale: "en-US", hreflang: "en", nativeName: "English (US)", dir: "ltr" },
  { key: "gb", locale: "en-GB", hreflang: "en-GB", nativeName: "English (UK)", dir: "ltr" },
  { key: "es", locale: "es", hreflang: "es", nativeName: "Español", dir: "ltr" },
  { key: "es-es", locale: "es-ES", hreflang: "es-ES", nativeName: "Español (España)", dir: "ltr" },
  { key: "es-mx", locale: "es-MX", hreflang: "es-MX", nativeName: "Español (México)", dir: "ltr" },
  { key: "fr", locale: "fr-FR", hreflang: "fr", nativeName: "Français", dir: "ltr" },
  { key: "hi", locale: "hi-IN", hreflang: "hi", nativeName: "हिन्दी", dir: "ltr" },
  { key: "id", locale: "id-ID", hreflang: "id", nativeName: "Bahasa Indonesia", dir: "ltr" },
  { key: "it", locale: "it-IT", hreflang: "it", nativeName: "Italiano", dir: "ltr" },
  { key: "ja", locale: "ja-JP", hreflang: "ja", nativeName: "日本語", dir: "ltr" },
  { key: "ko", locale: "ko-KR", hreflang: "ko", nativeName: "한국어", dir: "ltr" },
  { key: "nl", locale: "nl-NL", hreflang: "nl", nativeName: "Nederlands", dir: "ltr" },
  { key: "pl", locale: "pl-PL", hreflang: "pl", nativeName: "Polski", dir: "ltr" },
  { key: "pt", locale: "pt-PT", hreflang: "pt-PT", nativeName: "Português (Portugal)", dir: "ltr" },
  { key: "pt-br", locale: "pt-BR", hreflang: "pt-BR", nativeName: "Português (Brasil)", dir: "ltr" },
  { key: "ru", locale: "ru-RU", hreflang: "ru", nativeName: "Русский", dir: "ltr" },
  { key: "tr", locale: "tr-TR", hreflang: "tr", nativeName: "Türkçe", dir: "ltr" },
  { key: "zh-cn", locale: "zh-CN", hreflang: "zh-CN", nativeName: "简体中文", dir: "ltr" },
  { key: "zh-tw", locale: "zh-TW", hreflang: "zh-TW", nativeName: "繁體中文", dir: "ltr" },
] as const satisfies readonly Language[];

export type LanguageKey = (typeof languages)[number]["key"];

/** Spec 000 §9 "Defaults: … language en". */
export const defaultLanguageKey = "en" satisfies LanguageKey;

export const languageKeys: readonly LanguageKey[] = languages.map((language) => language.key);

/**
 * Spec 000 §3 "Mappings": names that are not a key or a locale of the table. `zh` and `zh-hans`
 * are ours: the part before the dash of zh-Hans-CN and a bare `zh` would otherwise find nothing.
 */
export const languageAliases: Readonly<Record<string, LanguageKey>> = {
  "en-gb": "gb",
  "en-us": "en",
  "zh-hant": "zh-tw",
  "zh-mo": "zh-tw",
  "zh-hk": "zh-tw",
  "zh-hans": "zh-cn",
  zh: "zh-cn",
};

const byKey = new Map<string, Language>(languages.map((language) => [language.key, language]));

/** Every exact name a language is known by, lower case: keys, locales and aliases. */
const byName = new Map<string, LanguageKey>([
  ...languages.map((language) => [language.locale.toLowerCase(), language.key] as const),
  ...Object.entries(languageAliases),
  ...languages.map((language) => [language.key, language.key] as const),
]);

export function isLanguageKey(value: string): value is LanguageKey {
  return byKey.has(value);
}

export function languageOf(key: LanguageKey): Language {
  const language = byKey.get(key);
  if (!language) throw new Error(`not an interface language: ${key}`);
  return language;
}

/** A key, locale or alias, spelled in any case, with `-` or `_`; no partial matching. */
export function exactLanguage(name: string): LanguageKey | undefined {
  return byName.get(name.trim().toLowerCase().replaceAll("_", "-"));
}

/**
 * Spec 000 §4: "matched exactly, then by the part before the dash". A longer tag is shortened one
 * subtag at a time, so zh-Hant-TW finds zh-hant and de-CH-1996 finds de. Unknown values: undefined.
 */
export function matchLanguage(tag: string): LanguageKey | undefined {
  let candidate = tag.trim().toLowerCase().replaceAll("_", "-");
  if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(candidate)) return undefined;
  for (;;) {
    const found = byName.get(candidate);
    if (found) return found;
    const dash = candidate.lastIndexOf("-");
    if (dash < 0) return undefined;
    candidate = candidate.slice(0, dash);
  }
}

/** Longest Accept-Language header we read; anything past it is ignored (RFC 9110 sets no limit). */
const acceptLanguageMaxLength = 1024;

/**
 * The language tags of an Accept-Language header, best first: q-order, ties in header order.
 * Malformed entries, `*` and q=0 are left out.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; index: number }[] = [];
  header
    .slice(0, acceptLanguageMaxLength)
    .split(",")
    .forEach((part, index) => {
      const [rawTag = "", ...rawParams] = part.split(";");
      const tag = rawTag.trim();
      if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return;
      let q = 1;
      for (const rawParam of rawParams) {
        const param = rawParam.trim();
        const weight = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i.exec(param);
        if (weight?.[1] !== undefined) q = Number(weight[1]);
        else return;
      }
      if (q > 0) entries.push({ tag, q, index });
    });
  entries.sort((a, b) => b.q - a.q || a.index - b.index);
  return entries.map((entry) => entry.tag);
}

export type LanguageSource = "prefix" | "lang" | "fb_locale" | "cookie" | "accept-language" | "default";

export type LanguageChoice = { key: LanguageKey; source: LanguageSource };

/**
 * Spec 000 §4 "Language choice order: lang parameter, language cookie, browser language, else en".
 *
 * A language prefix in the path wins over all of these: a prefixed URL always answers in its
 * language, whatever `lang` says, so every prefixed URL is one stable document for caches and
 * search engines. On an unprefixed URL the order of the spec applies: `lang=de` on /track/1
 * answers in German there (and the edge remembers it in the language cookie). The prefix is
 * matched exactly (key, locale or alias); the other values exactly, then by the part before the
 * dash. A value outside the table is refused and the next source is asked.
 *
 * `fb_locale` (spec 000 §2) is the locale a social-card scraper asks for (`de_DE`): an address
 * parameter naming a language, read right after `lang`, so a shared card comes in the language
 * its reader asked for. `lang` wins when both are given.
 */
export function chooseLanguage(sources: {
  prefix?: string | undefined;
  langParam?: string | null | undefined;
  fbLocale?: string | null | undefined;
  cookie?: string | null | undefined;
  acceptLanguage?: string | null | undefined;
}): LanguageChoice {
  const fromPrefix = sources.prefix === undefined ? undefined : exactLanguage(sources.prefix);
  if (fromPrefix) return { key: fromPrefix, source: "prefix" };
  const fromParam = sources.langParam ? matchLanguage(sources.langParam) : undefined;
  if (fromParam) return { key: fromParam, source: "lang" };
  const fromFbLocale = sources.fbLocale ? matchLanguage(sources.fbLocale) : undefined;
  if (fromFbLocale) return { key: fromFbLocale, source: "fb_locale" };
  const fromCookie = sources.cookie ? matchLanguage(sources.cookie) : undefined;
  if (fromCookie) return { key: fromCookie, source: "cookie" };
  for (const tag of parseAcceptLanguage(sources.acceptLanguage)) {
    const fromBrowser = matchLanguage(tag);
    if (fromBrowser) return { key: fromBrowser, source: "accept-language" };
  }
  return { key: defaultLanguageKey, source: "default" };
}

/**
 * The path of a page in a language: English (en) has no prefix, every other language its key.
 * The home page ("/home" or "/") is "/" in English and "/{key}" elsewhere.
 */
export function localizedPath(langKey: LanguageKey, path: string): string {
  const bare =
    path === "/home" || path === "/" || path === "" ? "" : path.startsWith("/") ? path : `/${path}`;
  if (langKey === defaultLanguageKey) return bare === "" ? "/" : bare;
  return `/${langKey}${bare}`;
}
