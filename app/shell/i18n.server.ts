import { type LanguageResources, type Namespace, resources, type StringTree } from "#locales/index.ts";
import { createStrings, type Strings, type StringsOptions } from "#locales/translate.ts";
import { defaultLanguageKey, type LanguageKey } from "#rules/languages.ts";

// locales/ imports nothing of ours, so its table is keyed by string; tests/unit/locales.test.ts
// checks that it holds exactly the languages of rules/languages.ts.
const bundled: Readonly<Record<LanguageKey, LanguageResources>> = resources as Record<
  LanguageKey,
  LanguageResources
>;

export type { Strings, Translate } from "#locales/translate.ts";

/** The strings of one language a page needs, by namespace: what the root loader sends to the browser. */
export function pickResources<TNamespace extends Namespace>(
  langKey: LanguageKey,
  needed: readonly TNamespace[],
): Record<TNamespace, StringTree> {
  const strings = {} as Record<TNamespace, StringTree>;
  for (const namespace of needed) strings[namespace] = bundled[langKey][namespace];
  return strings;
}

const chromeStringsByLanguage = new Map<LanguageKey, Record<string, StringTree>>();

/**
 * What the root loader sends the browser for every page: the strings the chrome renders. `common`
 * less its page titles (only loaders and `meta`, on the server, read them), `search` for the
 * header's search box, `app` for the in-app overlays less the share page's strings (that page
 * sends them). A page's own namespace comes from its own loader (`usePageStrings`).
 */
export function chromeStrings(langKey: LanguageKey): Record<string, StringTree> {
  let strings = chromeStringsByLanguage.get(langKey);
  if (strings === undefined) {
    const { common, search, app } = bundled[langKey];
    const { pageTitle: _serverOnly, ...browserCommon } = common;
    const { share: _sharePage, ...browserApp } = app;
    strings = { common: browserCommon, search, app: browserApp };
    chromeStringsByLanguage.set(langKey, strings);
  }
  return strings;
}

/**
 * A language's bundled strings, every namespace, with English as the fallback: for server-side
 * work (loaders, meta, AMP pages, the services proxy's messages). Values are not escaped: React
 * and the AMP renderer escape.
 */
export function bundledStrings(langKey: LanguageKey, options: StringsOptions = {}): Strings {
  const languages: LanguageKey[] = langKey === defaultLanguageKey ? [langKey] : [langKey, defaultLanguageKey];
  return createStrings(
    languages.map((lang) => ({ lang, namespaces: bundled[lang] })),
    options,
  );
}

// The bundled strings never change, so one lookup per language and isolate serves every request
// (building it is a few objects; what it saves is the translators' memo between requests).
const serverStringsByLanguage = new Map<LanguageKey, Strings>();

/** The server's strings of a language (see `bundledStrings`), shared by every request. */
export function serverStrings(langKey: LanguageKey): Strings {
  let strings = serverStringsByLanguage.get(langKey);
  if (strings === undefined) {
    strings = bundledStrings(langKey);
    serverStringsByLanguage.set(langKey, strings);
  }
  return strings;
}
