import { createInstance, type i18n as I18n, type InitOptions, type Resource } from "i18next";
import { useMemo } from "react";
import { initReactI18next, useTranslation } from "react-i18next";
import { defaultLanguageKey, languageKeys } from "../edge/languages";

/**
 * A string lookup: `namespace:key` with i18next options (an i18next `t`, or AMP's strict one).
 * Here, not in `i18n.server.ts`, so that components shared by the React and AMP pages can take it.
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The strings one page needs, by namespace: what the root loader sends to the browser. */
export type PageStrings = Record<string, unknown>;

/**
 * i18next options shared by every instance, server or browser. Language keys are lower case
 * ("pt-br"); without `lowerCaseLng` i18next looks them up as "pt-BR" and finds nothing, and
 * `load: "currentOnly"` keeps it from trying "pt" (Portuguese of Portugal) before English.
 */
export const i18nOptions = {
  fallbackLng: defaultLanguageKey,
  supportedLngs: [...languageKeys],
  lowerCaseLng: true,
  load: "currentOnly",
  defaultNS: "common",
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
} as const satisfies InitOptions;

/**
 * An i18next instance holding only the given language's strings. The server picks them from the
 * bundled resources (only the current language reaches the browser, keeping JavaScript small);
 * server and browser build the same instance, so hydration matches.
 */
export function i18nFromStrings(lang: string, strings: PageStrings | undefined): I18n {
  const instance = createInstance();
  const resources = { [lang]: strings ?? {} } as Resource;
  instance.use(initReactI18next).init({
    ...i18nOptions,
    supportedLngs: [...i18nOptions.supportedLngs],
    lng: lang,
    resources,
    ns: Object.keys(strings ?? {}),
  });
  return instance;
}

export function useI18nFromStrings(lang: string, strings: PageStrings | undefined): I18n {
  return useMemo(() => i18nFromStrings(lang, strings), [lang, strings]);
}

/**
 * A page's own namespace, sent by its loader: added to the page's i18next instance once, then
 * used like any namespace. Keeps each page's strings out of every other page's payload.
 */
export function usePageStrings(namespace: string, strings: PageStrings | undefined) {
  const { i18n } = useTranslation();
  if (strings && !i18n.hasResourceBundle(i18n.language, namespace)) {
    i18n.addResourceBundle(i18n.language, namespace, strings);
  }
  return useTranslation(namespace);
}
