import { createInstance, type i18n as I18n } from "i18next";
import { defaultLanguageKey, type LanguageKey } from "../edge/languages";
import { type LanguageResources, type Namespace, namespaces, resources, type StringTree } from "../locales";
import { i18nOptions } from "./strings";

// locales/ imports nothing of ours, so its table is keyed by string; tests/unit/locales.test.ts
// checks that it holds exactly the languages of edge/languages.ts.
const bundled: Readonly<Record<LanguageKey, LanguageResources>> = resources as Record<
  LanguageKey,
  LanguageResources
>;

export type { Translate } from "./strings";

/** The strings of one language a page needs, by namespace: what the root loader sends to the browser. */
export function pickResources<TNamespace extends Namespace>(
  langKey: LanguageKey,
  needed: readonly TNamespace[],
): Record<TNamespace, StringTree> {
  const strings = {} as Record<TNamespace, StringTree>;
  for (const namespace of needed) strings[namespace] = bundled[langKey][namespace];
  return strings;
}

/**
 * An i18next instance for a language, initialised synchronously from the bundled strings (the
 * language's and English as the fallback). For server-side work: AMP pages, meta, the services
 * proxy's messages. `escapeValue` is off: React and the AMP renderer escape.
 */
export function createI18n(langKey: LanguageKey, needed: readonly Namespace[] = namespaces): I18n {
  const instance = createInstance();
  const languagesToLoad: LanguageKey[] =
    langKey === defaultLanguageKey ? [langKey] : [langKey, defaultLanguageKey];
  instance.init({
    ...i18nOptions,
    supportedLngs: [...i18nOptions.supportedLngs],
    lng: langKey,
    ns: [...needed],
    resources: Object.fromEntries(languagesToLoad.map((key) => [key, pickResources(key, needed)])),
  });
  return instance;
}
