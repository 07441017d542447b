import "#tests/all-languages.ts";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { bundledStrings, pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { namespaces, resources } from "#locales/index.ts";
import { siteErrorTypes } from "#rules/errors.ts";
import { isLanguageKey, languageKeys, languageOf } from "#rules/languages.ts";
import { pageTypes } from "#rules/path.ts";
import { findProblems, interpolationVariables } from "#tests/locales-completeness.ts";
import { findRegisterStrays, type Register, registers } from "#tests/locales-register.ts";

const localesDir = path.join(import.meta.dirname, "../../locales");

/**
 * Values that may read the same as English. The brand in every language; and words the language
 * itself uses, in the same spelling, for the same thing (German and Dutch say "Apps", German
 * "Charts", French "Concerts"). Every entry is a judgement of a speaker of the language, not a gap in translation.
 */
const allowIdentical = [
  "*:common:siteName",
  // Brand names: the streaming service is "Apple Music" in every language.
  "*:common:pageTitle.applemusic",
  "*:connect:title",
  // "OK" is the dialog button's own word in most languages' interfaces.
  "*:app:dialog.ok",
  "de:common:nav.charts",
  "de:common:footer.apps",
  "de:careers:team",
  "it:careers:team",
  "nl:careers:team",
  "de:forms:optional",
  "de:forms:verify.status",
  "id:forms:verify.status",
  "nl:forms:verify.status",
  "fr:common:nav.concerts",
  "fr:concerts:title",
  // "Album", "Playlist" and "Single" are the words many languages use (German, French, Italian,
  // Dutch, Polish, Czech, Indonesian, Portuguese) for these.
  "*:catalogue:album",
  "*:catalogue:playlist",
  "*:catalogue:single",
];

const options = {
  reference: "en",
  englishVariants: ["gb"],
  localeOf: (lang: string) => (isLanguageKey(lang) ? languageOf(lang).locale : lang),
  allowIdentical,
  ownKeys: ["places"],
};

describe("the bundled strings", () => {
  test("one folder per interface language, and nothing else", () => {
    const folders = readdirSync(localesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...languageKeys].sort());
  });

  test("every folder holds one JSON file per namespace, every one of them bundled", () => {
    for (const lang of languageKeys) {
      const files = readdirSync(path.join(localesDir, lang)).sort();
      expect(files, lang).toEqual(namespaces.map((namespace) => `${namespace}.json`).sort());
      expect(Object.keys(resources[lang] ?? {}).sort(), lang).toEqual([...namespaces].sort());
    }
    expect(Object.keys(resources).sort()).toEqual([...languageKeys].sort());
  });

  test("every language has every key of every namespace, translated, with the same variables", () => {
    expect(findProblems(resources, options)).toEqual([]);
  });

  // A ceiling, not a speed target: one full check per entry, which on a loaded machine outlasts
  // vitest's 5 s default.
  test("the allow-list holds only entries that are needed", { timeout: 60_000 }, () => {
    for (const entry of allowIdentical) {
      const others = allowIdentical.filter((other) => other !== entry);
      expect(findProblems(resources, { ...options, allowIdentical: others }).length, entry).toBeGreaterThan(
        0,
      );
    }
  });

  test("a document title for every page type", () => {
    const titles = resources.en?.common.pageTitle;
    for (const pageType of pageTypes) {
      expect(typeof (titles as Record<string, unknown>)[pageType], pageType).toBe("string");
    }
  });

  test("an error message for the error types a page shows, and a catch-all", () => {
    const errors = resources.en?.common.error as Record<string, unknown>;
    for (const type of [
      "catchall",
      "notfound",
      "timeout",
      "network",
      "serviceerror",
      "unsupported",
      "baddata",
    ]) {
      expect(typeof errors[type], type).toBe("string");
    }
    const messageTypes = siteErrorTypes.filter((type) => typeof errors[type] === "string");
    expect(messageTypes.length).toBeGreaterThanOrEqual(10);
  });
});

describe("findProblems catches", () => {
  const reference = {
    common: { a: "Hello {{name}}", b: { c: "Song" }, songs_one: "One song", songs_other: "{{count}} songs" },
  };
  const good = {
    common: { a: "Hallo {{name}}", b: { c: "Lied" }, songs_one: "Ein Lied", songs_other: "{{count}} Lieder" },
  };
  const check = (de: unknown, extra: Partial<typeof options> = {}) =>
    findProblems({ en: reference, de: de as typeof good }, { ...options, allowIdentical: [], ...extra }).map(
      (problem) => `${problem.lang}:${problem.key}:${problem.problem.split(":")[0]}`,
    );

  test.each([
    ["nothing in a good translation", good, []],
    ["a missing key", { common: { ...good.common, a: undefined } }, ["de:a:missing"]],
    ["a missing nested key", { common: { ...good.common, b: {} } }, ["de:b.c:missing"]],
    ["an extra key", { common: { ...good.common, z: "Extra" } }, ["de:z:not in the reference language"]],
    ["an empty value", { common: { ...good.common, b: { c: " " } } }, ["de:b.c:empty"]],
    [
      "an object for a string",
      { common: { ...good.common, a: { x: "y" } } },
      ["de:a:missing", "de:a.x:not in the reference language"],
    ],
    ["a number for a string", { common: { ...good.common, a: 5 } }, ["de:a:not a string"]],
    ["a value left in English", { common: { ...good.common, b: { c: "Song" } } }, ["de:b.c:identical to en"]],
    [
      "a renamed variable",
      { common: { ...good.common, a: "Hallo {{nom}}" } },
      ["de:a:variables {nom} ≠ {name}"],
    ],
    ["a dropped variable", { common: { ...good.common, a: "Hallo" } }, ["de:a:variables {} ≠ {name}"]],
    ["a missing plural form", { common: { ...good.common, songs_one: undefined } }, ["de:songs_one:missing"]],
    ["a missing namespace", {}, ["de:*:namespace missing"]],
  ])("%s", (_name, de, expected) => {
    expect(check(de)).toEqual(expected);
  });

  test.each([
    ["nothing in fewer phrases than the reference's", { in: { US: "in den Vereinigten Staaten" } }, []],
    ["nothing in a phrase that reads as the reference's", { in: { JP: "in Japan" } }, []],
    [
      "a country the reference has no phrase for",
      { in: { XX: "in X" } },
      ["de:in.XX:not in the reference language"],
    ],
    ["an empty phrase", { in: { US: " " } }, ["de:in.US:empty"]],
    ["a variable in a phrase", { in: { US: "in {{country}}" } }, ["de:in.US:variables in a phrase"]],
  ])("in a namespace of the language's own keys, %s", (_name, places, expected) => {
    const problems = findProblems(
      { en: { places: { in: { US: "in the United States", JP: "in Japan" } } }, de: { places } },
      { ...options, allowIdentical: [] },
    );
    expect(problems.map((problem) => `${problem.lang}:${problem.key}:${problem.problem}`)).toEqual(expected);
  });

  test("plural forms follow the language's own plural rules", () => {
    const ru = {
      common: {
        ...good.common,
        songs_one: "{{count}} песня",
        songs_few: "{{count}} песни",
        songs_many: "{{count}} песен",
        songs_other: "{{count}} песни",
      },
    };
    const result = findProblems({ en: reference, ru }, { ...options, allowIdentical: [] });
    expect(result).toEqual([]);
    const { songs_many: _many, ...withoutMany } = ru.common;
    const missing = findProblems(
      { en: reference, ru: { common: withoutMany } },
      { ...options, allowIdentical: [] },
    );
    expect(missing.map((problem) => problem.key)).toEqual(["songs_many"]);
  });

  test("English variants may keep English values", () => {
    expect(findProblems({ en: reference, gb: reference }, { ...options, allowIdentical: [] })).toEqual([]);
  });

  test("interpolationVariables", () => {
    expect(interpolationVariables("{{a}} and {{ b }} and {{count, number}}")).toEqual(["a", "b", "count"]);
  });
});

/**
 * Words of the other register that mean something else where they stand: each is a reading of its
 * sentence by a speaker of the language, not a gap in the style.
 */
const allowRegister = [
  // "Sie" is the sign-in (die Anmeldung) that was begun in another window.
  "de:account:google.invalidState Sie",
  // "Sie" are the answers (die Antworten) that help us decide.
  "de:forms:survey.thanks Sie",
];

const strayNames = (strays: ReturnType<typeof findRegisterStrays>) =>
  strays.map((stray) => `${stray.lang}:${stray.namespace}:${stray.key} ${stray.word}`);

describe("one voice per language (locales/STYLE.md)", () => {
  test.each(Object.entries(registers).map(([lang, register]) => [lang, register.speaks, register] as const))(
    "%s says %s on every screen",
    (lang, _speaks, register) => {
      expect(strayNames(findRegisterStrays(resources, { [lang]: register }, allowRegister))).toEqual([]);
    },
  );

  test("the registers are kept for interface languages", () => {
    for (const lang of Object.keys(registers)) expect(isLanguageKey(lang), lang).toBe(true);
  });

  test("the allow-list holds only entries that are needed", () => {
    for (const entry of allowRegister) {
      const others = allowRegister.filter((other) => other !== entry);
      expect(strayNames(findRegisterStrays(resources, registers, others)), entry).toContain(entry);
    }
  });
});

describe("findRegisterStrays catches", () => {
  const check = (lang: string, text: string, allowed: readonly string[] = []) => {
    const register = registers[lang] as Register;
    return strayNames(findRegisterStrays({ [lang]: { common: { a: text } } }, { [lang]: register }, allowed));
  };

  test.each([
    ["German Sie in a sentence", "de", "Bitte melden Sie sich an", ["de:common:a Sie"]],
    ["German Ihr at the start of a title", "de", "Ihr Konto", ["de:common:a Ihr"]],
    ["not German du, the register it speaks", "de", "Melde dich an, um deine Bibliothek zu sehen", []],
    ["not German sie (she, they) in lower case", "de", "Wir haben sie gelöscht", []],
    ["Greek σου", "el", "Η βιβλιοθήκη σου", ["el:common:a σου"]],
    ["a Greek informal imperative, capitalised", "el", "Δοκίμασε ξανά", ["el:common:a Δοκίμασε"]],
    ["Turkish sen, capitalised", "tr", "Seni Apple Music'e bağlayamadık", ["tr:common:a Seni"]],
    ["French tu", "fr", "Tu peux réessayer", ["fr:common:a Tu"]],
    ["Spanish usted", "es", "Inicie sesión, usted verá su biblioteca", ["es:common:a usted"]],
    ["Dutch uw", "nl", "Verwijder uit uw bibliotheek", ["nl:common:a uw"]],
    ["not Italian La, an article", "it", "La tua libreria", []],
    ["Italian Sua", "it", "La Sua libreria", ["it:common:a Sua"]],
    ["Polish Pan", "pl", "Czy Pan chce kontynuować?", ["pl:common:a Pan"]],
    ["Czech tvůj", "cs", "Odstranit z knihovny, tvůj seznam", ["cs:common:a tvůj"]],
    ["not Czech Ty (those)", "cs", "Ty, které lidé rozpoznávají.", []],
    ["Russian твоя", "ru", "Твоя медиатека", ["ru:common:a Твоя"]],
    ["Hindi तुम्हारी", "hi", "तुम्हारी लाइब्रेरी", ["hi:common:a तुम्हारी"]],
    ["Indonesian kamu", "id", "Lagu yang kamu temukan", ["id:common:a kamu"]],
    ["Chinese 您 inside a sentence", "zh-cn", "从您的资料库中移除", ["zh-cn:common:a 您"]],
    ["not a variable's name", "nl", "{{u}} nummers", []],
  ])("%s", (_name, lang, text, expected) => {
    expect(check(lang, text)).toEqual(expected);
  });

  test("an allowed word only at its own key", () => {
    expect(check("de", "Sie wurde gelöscht", ["de:common:a Sie"])).toEqual([]);
    expect(check("de", "Sie wurde gelöscht", ["de:common:b Sie"])).toEqual(["de:common:a Sie"]);
  });
});

describe("server strings", () => {
  test.each(languageKeys.map((key) => [key]))("%s answers in its own strings", (key) => {
    const strings = serverStrings(key);
    expect(strings.lang).toBe(key);
    const expected = resources[key]?.common.skipToContent;
    expect(strings.t("skipToContent")).toBe(expected);
    expect(strings.t("error.sorry", { code: 404 })).toContain("404");
  });

  test("hold every namespace of the language, and English behind it", () => {
    const strings = bundledStrings("de");
    for (const namespace of namespaces) expect(strings.hasNamespace(namespace)).toBe(true);
    expect(strings.t("track:lyrics")).toBe(resources.de?.track.lyrics);
    expect(bundledStrings("en").t("track:lyrics")).toBe(resources.en?.track.lyrics);
  });

  test("pickResources sends only the asked namespaces of one language", () => {
    const strings = pickResources("pt-br", ["common"]);
    expect(Object.keys(strings)).toEqual(["common"]);
    expect(strings.common).toBe(resources["pt-br"]?.common);
  });
});
