/**
 * The rules every language's strings follow, checked against the reference language (en) for
 * every namespace: the same keys (plural keys with the forms the language's plural rules need),
 * no empty value, the same {{interpolation}} variables, and nothing left in English in another
 * language unless allowed.
 */

type Tree = { readonly [key: string]: unknown };

export type CompletenessOptions = {
  /** The language every other is compared with. */
  reference: string;
  /** Languages that are English too: they may keep English values. */
  englishVariants: readonly string[];
  /** BCP 47 locale of a language key, for its plural rules. */
  localeOf: (lang: string) => string;
  /** `"{lang}:{namespace}:{key}"` or `"*:{namespace}:{key}"` entries that may equal the reference. */
  allowIdentical: readonly string[];
  /**
   * Namespaces whose keys each language holds as far as its grammar has them (decision 060: the
   * "in <country>" phrases): a language's keys are some of the reference's, none is required,
   * and a value may read as the reference's does (German "in Japan").
   */
  ownKeys?: readonly string[];
};

export type Problem = { lang: string; namespace: string; key: string; problem: string };

/** i18next plural suffixes (https://www.i18next.com/translation-function/plurals). */
const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/** A namespace's tree as its leaves by dotted key. */
export function flatten(tree: Tree, prefix = ""): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [leaf, leafValue] of flatten(value as Tree, path)) leaves.set(leaf, leafValue);
    } else {
      leaves.set(path, value);
    }
  }
  return leaves;
}

/** The variable names of `{{name}}` and `{{name, format}}`. */
export function interpolationVariables(value: string): string[] {
  return [...value.matchAll(/\{\{\s*([^\s,}]+)[^}]*\}\}/g)].map((match) => match[1] ?? "").sort();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

export function findProblems(
  resources: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  options: CompletenessOptions,
): Problem[] {
  const problems: Problem[] = [];
  const reference = resources[options.reference];
  if (!reference)
    return [{ lang: options.reference, namespace: "*", key: "*", problem: "reference missing" }];
  const allowed = new Set(options.allowIdentical);

  for (const [lang, namespaces] of Object.entries(resources)) {
    const categories = new Intl.PluralRules(options.localeOf(lang)).resolvedOptions().pluralCategories;
    const report = (namespace: string, key: string, problem: string) =>
      problems.push({ lang, namespace, key, problem });

    for (const namespace of unique([...Object.keys(reference), ...Object.keys(namespaces)])) {
      const referenceTree = reference[namespace];
      const tree = namespaces[namespace];
      if (referenceTree === undefined) {
        report(namespace, "*", "namespace not in the reference language");
        continue;
      }
      if (tree === undefined) {
        report(namespace, "*", "namespace missing");
        continue;
      }
      const expected = flatten(referenceTree as Tree);
      const actual = flatten(tree as Tree);
      if (options.ownKeys?.includes(namespace)) {
        for (const [key, value] of actual) {
          if (!expected.has(key)) report(namespace, key, "not in the reference language");
          else if (typeof value !== "string") report(namespace, key, "not a string");
          else if (value.trim() === "") report(namespace, key, "empty");
          else if (interpolationVariables(value).length > 0) report(namespace, key, "variables in a phrase");
        }
        continue;
      }

      // Keys the language must have: plain keys as they are, plural keys as its own plural forms.
      const required = new Map<string, string[]>();
      for (const key of expected.keys()) {
        const base = key.replace(pluralSuffix, "");
        if (base === key) required.set(key, [key]);
        else
          required.set(
            base,
            categories.map((category) => `${base}_${category}`),
          );
      }
      const known = new Set<string>();
      for (const [base, keys] of required) {
        const referenceForms = [...expected.entries()].filter(
          ([key]) => key === base || (pluralSuffix.test(key) && key.replace(pluralSuffix, "") === base),
        );
        const referenceVariables = unique(
          referenceForms.flatMap(([, value]) =>
            typeof value === "string" ? interpolationVariables(value) : [],
          ),
        );
        const variables: string[] = [];
        for (const key of keys) {
          known.add(key);
          const value = actual.get(key);
          if (value === undefined) {
            report(namespace, key, "missing");
            continue;
          }
          if (typeof value !== "string") {
            report(namespace, key, "not a string");
            continue;
          }
          if (value.trim() === "") report(namespace, key, "empty");
          variables.push(...interpolationVariables(value));
          const referenceValue = expected.get(key);
          const identical =
            lang !== options.reference &&
            !options.englishVariants.includes(lang) &&
            value === referenceValue &&
            !allowed.has(`${lang}:${namespace}:${key}`) &&
            !allowed.has(`*:${namespace}:${key}`);
          if (identical) report(namespace, key, `identical to ${options.reference}: "${value}"`);
        }
        // Across a plural key's forms: one form may leave out {{count}}, the set of forms may not.
        const present = keys.some((key) => typeof actual.get(key) === "string");
        if (present && !sameList(unique(variables), referenceVariables)) {
          report(
            namespace,
            base,
            `variables {${unique(variables).join(",")}} ≠ {${referenceVariables.join(",")}}`,
          );
        }
      }
      for (const key of actual.keys()) {
        if (!known.has(key) && !(pluralSuffix.test(key) && required.has(key.replace(pluralSuffix, "")))) {
          report(namespace, key, "not in the reference language");
        }
      }
    }
  }
  return problems;
}
