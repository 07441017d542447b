// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the list quotes the code that builds each key, `${…}` and all.
import "#tests/all-languages.ts";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { namespaces } from "#locales/index.ts";
import { siteErrorTypes } from "#rules/errors.ts";
import { readSources, repoRoot } from "#tests/site-source.ts";

/**
 * Every English string is rendered somewhere: the code names its key (`t("ns:key")`, `t("key")`
 * under the page's namespace, a key in a table the page passes to `t`), or builds it from a
 * prefix listed in `builtKeys` below. A string no code names is dead text that translators keep
 * translating (there were five: `common:error.adblock`, shown since decision 042, and four with
 * live twins elsewhere).
 */

type StringTree = { [key: string]: string | StringTree };

/** Where a string can be rendered from: the pages, the AMP renderer, the edge, the origin's mail texts. */
const sources = readSources(["app", "amp", "edge", "worker", "origin", "rules"], ["origin/catalog"]);

/**
 * Keys the code builds from a prefix and a value, each with the code that builds it (checked to be
 * there). `values` narrows an entry to the keys it can build, where the values are a known list.
 */
const builtKeys: readonly { keys: string; file: string; code: string; values?: readonly string[] }[] = [
  {
    keys: "common:error.*",
    file: "app/shell/error-page.tsx",
    code: "`error.${type",
    // Removed content's 404 (app/shell/http.server.ts `loadContentPage`) has a heading of its own.
    values: [
      ...siteErrorTypes,
      "catchall",
      "concertunavailable",
      "contentunavailable",
      "contentunavailableTitle",
    ],
  },
  { keys: "common:pageTitle.*", file: "app/shell/root-data.server.ts", code: "`pageTitle.${pageType}`" },
  { keys: "common:notice.*", file: "app/shell/runtime.tsx", code: "`notice.${notice}`" },
  { keys: "common:footer.*", file: "app/shell/footer-links.tsx", code: "`footer.${key}`" },
  { keys: "app:upsell.*Text", file: "app/offers/upsell-card.tsx", code: "`upsell.${type}Text`" },
  { keys: "app:upsell.*Action", file: "app/offers/upsell-card.tsx", code: "`upsell.${type}Action`" },
  { keys: "apps:*Text", file: "app/routes/($lang).apps/view.tsx", code: "`${store}Text`" },
  { keys: "account:mail.*", file: "origin/mail.ts", code: "`mail.${part}`" },
  { keys: "privacy:mail.*", file: "origin/mail.ts", code: "`mail.${part}`" },
  {
    keys: "catalogue:*MetaTitle",
    file: "app/catalogue/catalogue-items.server.ts",
    code: "`catalogue:${page.kind}MetaTitle`",
  },
  {
    keys: "catalogue:*MetaDescription",
    file: "app/catalogue/catalogue-items.server.ts",
    code: "`catalogue:${page.kind}MetaDescription`",
  },
  {
    keys: "charts:tabs.*",
    file: "app/routes/($lang).top-200.$country.($include)/view.tsx",
    code: "`tabs.${tab.type}`",
  },
  { keys: "concerts:group.*", file: "app/routes/($lang).concerts/view.tsx", code: "`group.${group}`" },
  {
    keys: "connect:callback.*",
    file: "app/routes/($lang).applemusic.signin.complete.tsx",
    code: "`callback.${done.result.outcome}`",
  },
  { keys: "developers:fields.*", file: "app/routes/($lang).developers/view.tsx", code: "`fields.${field}`" },
  { keys: "forms:errors.*", file: "app/ui/form-fields.tsx", code: "`errors.${error}`" },
  {
    keys: "forms:outcome.*",
    file: "app/routes/($lang).survey._index/view.tsx",
    code: "`outcome.${result.outcome}`",
  },
  {
    keys: "forms:survey.score.*",
    file: "app/routes/($lang).survey._index/view.tsx",
    code: "`survey.score.${score}`",
  },
  {
    keys: "forms:survey.foundAnswer.*",
    file: "app/routes/($lang).survey._index/view.tsx",
    code: "`survey.foundAnswer.${answer}`",
  },
  {
    keys: "forms:verify.roles.*",
    file: "app/routes/($lang).verify.$id/view.tsx",
    code: "`verify.roles.${request.role}`",
  },
  {
    keys: "forms:verify.statuses.*",
    file: "app/routes/($lang).verify.$id/view.tsx",
    code: "`verify.statuses.${request.status}`",
  },
  {
    keys: "offers:states.*",
    file: "app/routes/($lang).campaign.$name/view.tsx",
    code: "`states.${state}.title`",
  },
  // A country's "in" phrase, read from the language's own strings only (decision 060).
  { keys: "places:in.*", file: "app/shell/places.server.ts", code: '["places"]).places.in' },
  { keys: "privacy:nav.*", file: "app/privacy/privacy.tsx", code: "`nav.${key}`" },
  {
    keys: "privacy:download.contents.*",
    file: "app/routes/($lang).privacy.download._index/view.tsx",
    code: "`download.contents.${key}`",
  },
  {
    keys: "privacy:delete.gone.*",
    file: "app/routes/($lang).privacy.delete/view.tsx",
    code: "`delete.gone.${key}`",
  },
  {
    keys: "privacy:categories.*",
    file: "app/routes/($lang).privacy.data-categories/view.tsx",
    code: "`categories.${key}.title`",
  },
  { keys: "privacy:archive.files.*", file: "origin/privacy-archive.ts", code: "`archive.files.${key}`" },
  {
    keys: "recognition:error.*",
    file: "app/recognition/recognition-messages.ts",
    code: "`error.${failure}`",
    // The failures of a file or a tab's audio have messages of their own.
    values: ["tabdenied", "notabaudio", "fileunreadable", "fileempty", "filetoolong"],
  },
  {
    keys: "recognition:listening.*",
    file: "app/recognition/recognition-screens.tsx",
    code: "`listening.${screen.message}`",
  },
  { keys: "search:groups.*", file: "app/search/search-listbox.tsx", code: "`groups.${view.name}`" },
  {
    keys: "track:creditKinds.*",
    file: "app/track/track-sections.tsx",
    code: "`creditKinds.${category.kind}`",
  },
  {
    keys: "track:video.states.*",
    file: "app/track/video-overlay.tsx",
    code: "`video.states.${state}`",
  },
];

function leaves(tree: StringTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : leaves(value, `${prefix}${key}.`),
  );
}

/** i18next's plural forms are one key in the code: `count_one` and `count_other` are `t("count")`. */
const withoutPlural = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, "");

/** Every quoted or plain backquoted word in the code that could name a key. */
const literals = new Set(
  [...sources.values()].flatMap((text) =>
    [...text.matchAll(/["'`]([\w.:-]+)["'`]/g)].map((match) => match[1]),
  ),
);

function globMatches(glob: string, key: string): boolean {
  const pattern = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pattern.join("[\\w.-]+")}$`).test(key);
}

function builtBy(key: string) {
  return builtKeys.find(
    (entry) =>
      globMatches(entry.keys, key) &&
      (!entry.values || entry.values.some((value) => entry.keys.replace("*", value) === key)),
  );
}

const englishKeys = namespaces.flatMap((namespace) => {
  const tree = JSON.parse(
    readFileSync(path.join(repoRoot, `locales/en/${namespace}.json`), "utf8"),
  ) as StringTree;
  return leaves(tree).map((key) => ({ namespace, key: withoutPlural(key) }));
});

describe("every English string is rendered", () => {
  test("each key is named by the code, or built from a listed prefix", () => {
    const unrendered = englishKeys
      .filter(({ namespace, key }) => !literals.has(key) && !literals.has(`${namespace}:${key}`))
      .map(({ namespace, key }) => `${namespace}:${key}`)
      .filter((key) => !builtBy(key));
    expect([...new Set(unrendered)]).toEqual([]);
  });

  test("each listed prefix is built where the list says, and builds a key that exists", () => {
    for (const entry of builtKeys) {
      expect(sources.get(entry.file) ?? "", `${entry.file} builds ${entry.keys}`).toContain(entry.code);
      expect(englishKeys.some(({ namespace, key }) => builtBy(`${namespace}:${key}`) === entry)).toBe(true);
    }
  });

  test("each key the code builds with t(`…${…}…`) has its prefix in the list", () => {
    const prefixOf = (key: string) => key.replace(/^\w+:/, "").split(/\*|\$\{/)[0] ?? "";
    const listed = new Set(builtKeys.map((entry) => prefixOf(entry.keys)));
    const templates = [...sources].flatMap(([file, text]) =>
      [...text.matchAll(/\bt\(\s*`([^`]*\$\{[^`]*)`/g)].map((match) => ({
        file,
        prefix: prefixOf(match[1] ?? ""),
      })),
    );
    const covered = (prefix: string) =>
      [...listed].some((entry) => (entry === "" ? prefix === "" : prefix.startsWith(entry)));
    expect(templates.filter(({ prefix }) => !covered(prefix))).toEqual([]);
  });
});
