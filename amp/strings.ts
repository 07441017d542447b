import { createI18n, type Translate } from "../app/i18n.server";
import type { LanguageKey } from "../edge/languages";
import type { Namespace } from "../locales";

export type { Translate };

/**
 * The page's strings, from the same namespaces the React page uses. A key that exists in no
 * language fails loudly instead of printing the key: the React page and its AMP form must keep
 * saying the same things.
 */
export function ampTranslator(lang: LanguageKey, namespaces: readonly Namespace[]): Translate {
  const i18n = createI18n(lang, ["common", ...namespaces]);
  return (key, options) => {
    if (!i18n.exists(key, options)) throw new Error(`AMP: no string ${key}`);
    return i18n.t(key, options) as string;
  };
}
