import {
  cloneElement,
  createContext,
  createElement,
  Fragment,
  type ReactElement,
  type ReactNode,
  useContext,
  useMemo,
} from "react";
import {
  createStrings,
  interpolate,
  type Strings,
  type Translate,
  type TranslateOptions,
} from "#locales/translate.ts";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

export type { Strings, Translate };

/** The strings one page needs, by namespace: what the root loader sends to the browser. */
export type PageStrings = Record<string, unknown>;

const StringsContext = createContext<Strings | undefined>(undefined);

/** The strings every component under it reads through `useTranslation`. */
export function StringsProvider({ strings, children }: { strings: Strings; children: ReactNode }) {
  return createElement(StringsContext.Provider, { value: strings }, children);
}

/**
 * The page's strings from what the root loader sent: only the page's language, in the server
 * render and in the browser alike, so hydration matches.
 */
export function useStringsFromLoader(lang: string, strings: PageStrings | undefined): Strings {
  return useMemo(() => createStrings([{ lang, namespaces: strings ?? {} }]), [lang, strings]);
}

const noStrings = createStrings([{ lang: "en", namespaces: {} }]);

/**
 * A component's lookup: keys without a namespace are read in `namespace` (default "common");
 * `strings` answers whether a key or a namespace is there.
 */
export function useTranslation(namespace = "common"): { t: Translate; strings: Strings } {
  const strings = useContext(StringsContext) ?? noStrings;
  return { t: strings.translator(namespace), strings };
}

/**
 * A page's own namespace, sent by its loader: added to the page's strings once, then used like
 * any namespace. Keeps each page's strings out of every other page's payload.
 */
export function usePageStrings(namespace: string, pageStrings: PageStrings | undefined) {
  const found = useTranslation(namespace);
  if (pageStrings) found.strings.addNamespace(namespace, pageStrings);
  return found;
}

/** A tag of a string's markup, `<time>…</time>`, with the text it holds. */
const markup = /<(\w+)>(.*?)<\/\1>/s;

/**
 * A string that marks up part of its text (`Identified <time>{{when}}</time>`): each tag named in
 * `components` becomes that element holding the tag's text. Variables are filled in after the
 * markup is read, so a value never becomes markup.
 */
export function Trans({
  t,
  i18nKey,
  values = {},
  components,
}: {
  t: Translate;
  i18nKey: string;
  values?: TranslateOptions;
  components: Readonly<Record<string, ReactElement>>;
}) {
  // Without values, the lookup leaves each {{variable}} as written.
  const parts = t(i18nKey).split(markup);
  const children: ReactNode[] = [];
  for (let index = 0; index < parts.length; index += 3) {
    const text = parts[index] ?? "";
    if (text !== "") children.push(interpolate(text, values));
    const tag = parts[index + 1];
    if (tag === undefined) break;
    const inner = interpolate(parts[index + 2] ?? "", values);
    const element = components[tag];
    children.push(element ? cloneElement(element, { key: index }, inner) : inner);
  }
  return createElement(Fragment, null, ...children);
}
