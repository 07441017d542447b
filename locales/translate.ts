/**
 * The reader of the strings in this folder: exactly the part of i18next's JSON format they use,
 * with i18next's own rules, so that no i18next instance is built per request and none is sent to
 * the browser. tests/unit/translate.test.ts renders every key of every language through i18next
 * and through this and requires the same text: i18next stays the format's reference.
 *
 * What the strings use, and so what this reads: `namespace:key.path` keys, `{{variable}}`
 * interpolation (values inserted as they are: React and the AMP renderer escape), plurals by
 * `count` with i18next's suffixes from `Intl.PluralRules` (`_zero` for a count of 0 where a string
 * has one, else `_one`, `_few`, `_many`, `_other`…), and a fallback language. Not read: nesting
 * (`$t(…)`), formatters (`{{value, number}}`), context, `returnObjects`; the reference test fails
 * if a string starts using one.
 */

/** One language's strings by namespace (a namespace is a JSON file's tree). */
export type Namespaces = Readonly<Record<string, unknown>>;

/** i18next's options that the strings use: `count` for plurals; the rest are variables. */
export type TranslateOptions = Readonly<Record<string, unknown>>;

/** A string lookup: `namespace:key` (or a key of the lookup's own namespace) with its options. */
export type Translate = (key: string, options?: TranslateOptions) => string;

export type Strings = {
  /** The language the strings are in (the first one looked in). */
  readonly lang: string;
  /** The lookup with "common" as the namespace of keys without one. */
  readonly t: Translate;
  /** The lookup for keys without a namespace in `namespace` (default "common"). */
  translator(namespace?: string): Translate;
  /** Whether a key (`namespace:key` or a key of `namespace`) has a value in any language. */
  exists(key: string, namespace?: string): boolean;
  /** Whether the strings' own language holds a namespace. */
  hasNamespace(namespace: string): boolean;
  /**
   * Adds a page's own strings (sent by its loader) to the strings' own language: a namespace, or
   * the rest of one the root sent in part. Adding the same table again does nothing.
   */
  addNamespace(namespace: string, tree: unknown): void;
};

export type StringsOptions = {
  /** Called when a key has no value in any language (AMP fails loudly); else the key is printed. */
  onMissing?: (namespace: string, key: string) => void;
};

type Language = { readonly lang: string; readonly namespaces: Record<string, unknown> };

const defaultNamespace = "common";
const nsSeparator = ":";
const keySeparator = ".";
/** i18next reads a key with one of these before its first "." as a sentence, not a path. */
const naturalLanguage = /[ ,?!;]/;
const nesting = /\$t\((.+?)\)/;
const variable = /\{\{(.+?)\}\}/g;

/**
 * Strings looked up in `languages` in order: the page's language, then the fallback language where
 * the caller has it (the server has every language bundled; the browser gets only the page's).
 */
export function createStrings(
  languages: readonly { lang: string; namespaces: Namespaces }[],
  options: StringsOptions = {},
): Strings {
  const [first] = languages;
  if (!first) throw new Error("strings need a language");
  // Copies of the namespace tables, so that a page's added namespace stays with these strings.
  const own: Language[] = languages.map(({ lang, namespaces }) => ({ lang, namespaces: { ...namespaces } }));
  const ownFirst = own[0] as Language;
  const translators = new Map<string, Translate>();
  const added = new WeakSet<object>();

  function resolve(key: string, namespace: string, count: unknown): unknown {
    const hasCount = count !== undefined && typeof count !== "string";
    for (const { lang, namespaces } of own) {
      const tree = namespaces[namespace];
      if (tree === undefined) continue;
      if (hasCount) {
        if (count === 0) {
          const zero = find(tree, `${key}_zero`);
          if (isValue(zero)) return zero;
        }
        const plural = find(tree, `${key}_${pluralRule(lang).select(count as number)}`);
        if (isValue(plural)) return plural;
      }
      const value = find(tree, key);
      if (isValue(value)) return value;
    }
    return undefined;
  }

  function translator(namespace = defaultNamespace): Translate {
    let translate = translators.get(namespace);
    if (translate === undefined) {
      translate = (fullKey, values = {}) => {
        const [ns, key] = splitKey(fullKey, namespace);
        const value = resolve(key, ns, values.count);
        if (typeof value === "string") return interpolate(value, values);
        if (value === undefined) options.onMissing?.(ns, key);
        // A missing key, or a subtree asked for as a string: the key (i18next 27's answer to both).
        return key;
      };
      translators.set(namespace, translate);
    }
    return translate;
  }

  return {
    lang: first.lang,
    t: translator(),
    translator,
    exists(fullKey, namespace = defaultNamespace) {
      const [ns, key] = splitKey(fullKey, namespace);
      return resolve(key, ns, undefined) !== undefined;
    },
    hasNamespace: (namespace) => ownFirst.namespaces[namespace] !== undefined,
    addNamespace(namespace, tree) {
      const current = ownFirst.namespaces[namespace];
      if (!isTree(tree) || tree === current || added.has(tree)) return;
      added.add(tree);
      ownFirst.namespaces[namespace] = isTree(current) ? { ...current, ...tree } : tree;
    },
  };
}

/** i18next's `extractFromKey`: "ns:key" names its namespace unless the key reads as a sentence. */
function splitKey(fullKey: string, namespace: string): [namespace: string, key: string] {
  if (!fullKey.includes(nsSeparator)) return [namespace, fullKey];
  const dot = fullKey.indexOf(keySeparator);
  const looksLikePath =
    !naturalLanguage.test(fullKey) || (dot > 0 && !naturalLanguage.test(fullKey.slice(0, dot)));
  if (!looksLikePath || nesting.test(fullKey)) return [namespace, fullKey];
  const [ns = namespace, ...rest] = fullKey.split(nsSeparator);
  return [ns, rest.join(keySeparator)];
}

/** A value i18next accepts (`returnNull: false`; an empty string is a value). */
function isValue(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** i18next's `deepFind`: a key with dots as it is, else its path through the tree. */
function find(tree: unknown, key: string): unknown {
  if (!isTree(tree)) return undefined;
  if (Object.hasOwn(tree, key)) return tree[key];
  let current: unknown = tree;
  for (const part of key.split(keySeparator)) {
    if (!isTree(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

function isTree(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * i18next's interpolation with `escapeValue: false` and `skipOnVariables`: each `{{name}}` is
 * replaced once (an inserted value is never read again); a variable that was not passed stays as
 * written, one passed as undefined or null becomes empty.
 */
export function interpolate(text: string, values: TranslateOptions): string {
  if (!text.includes("{{")) return text;
  return text.replace(variable, (written, name: string) => {
    const key = name.trim();
    if (!Object.hasOwn(values, key)) return written;
    const value = values[key];
    return value === undefined || value === null ? "" : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** i18next's plural rule of a language code (its `getRule`), one per code. */
function pluralRule(lang: string): Intl.PluralRules {
  let rule = pluralRules.get(lang);
  if (rule === undefined) {
    rule = new Intl.PluralRules(lang.replace(/_/g, "-"));
    pluralRules.set(lang, rule);
  }
  return rule;
}
