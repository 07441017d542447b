import "#tests/all-languages.ts";
import { describe, expect, test } from "vitest";
import type { ResolvedChart } from "#app/charts/chart-address.server.ts";
import { chartTexts } from "#app/charts/chart-songs.server.ts";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { countryWords } from "#app/shell/places.server.ts";
import { countryKey } from "#app/shell/places.ts";
import { resources } from "#locales/index.ts";
import { findCountry } from "#rules/countries.ts";
import type { LanguageKey } from "#rules/languages.ts";

/** The home page's heading about a country, as the page builds it. */
function topIn(code: string, lang: LanguageKey): string {
  const words = countryWords(code, lang);
  return serverStrings(lang).t(countryKey(words, "home:topIn", "home:topInNamed"), words);
}

/** Decision 060: "in <country>" as each language's speakers say it. */
describe("a country's words", () => {
  test.each<[LanguageKey, string, string | undefined]>([
    ["en", "US", "in the United States"],
    ["en", "NL", "in the Netherlands"],
    ["en", "GB", "in the United Kingdom"],
    ["en", "PH", "in the Philippines"],
    ["en", "FR", "in France"],
    ["en", "JP", "in Japan"],
    ["gb", "GB", "in the United Kingdom"],
    ["de", "US", "in den Vereinigten Staaten"],
    ["de", "NL", "in den Niederlanden"],
    ["de", "GB", "im Vereinigten Königreich"],
    ["de", "CH", "in der Schweiz"],
    ["de", "TR", "in der Türkei"],
    ["de", "PH", "auf den Philippinen"],
    ["de", "FR", "in Frankreich"],
    ["de", "DE", "in Deutschland"],
    ["fr", "FR", "en France"],
    ["fr", "JP", "au Japon"],
    ["fr", "US", "aux États-Unis"],
    ["fr", "NL", "aux Pays-Bas"],
    ["fr", "GB", "au Royaume-Uni"],
    ["fr", "IL", "en Israël"],
    ["pt-br", "US", "nos Estados Unidos"],
    ["pt-br", "BR", "no Brasil"],
    ["pt-br", "FR", "na França"],
    ["pt-br", "PT", "em Portugal"],
    ["pt", "PL", "na Polónia"],
    ["es", "US", "en Estados Unidos"],
    ["es", "NL", "en los Países Bajos"],
    ["es", "GB", "en el Reino Unido"],
    ["es", "FR", "en Francia"],
    ["es-mx", "SA", "en Arabia Saudita"],
    ["it", "US", "negli Stati Uniti"],
    ["it", "FR", "in Francia"],
    ["nl", "US", "in de Verenigde Staten"],
    ["nl", "NL", "in Nederland"],
    // A country outside the table, and languages without phrases yet: no phrase, never English's.
    ["en", "SK", "in Slovakia"],
    ["en", "BS", "in the Bahamas"],
    ["en", "IM", "on the Isle of Man"],
    ["de", "SK", undefined],
    ["ru", "FR", "во Франции"],
    ["ru", "PH", "на Филиппинах"],
    ["pl", "FR", "we Francji"],
    ["pl", "US", "w Stanach Zjednoczonych"],
    ["cs", "US", "ve Spojených státech"],
    ["cs", "DE", "v Německu"],
    ["el", "NL", "στις Κάτω Χώρες"],
    ["el", "FR", "στη Γαλλία"],
    ["el", "IT", "στην Ιταλία"],
    ["tr", "SE", "İsveç'te"],
    ["tr", "TR", "Türkiye'de"],
    ["ru", "SK", undefined],
    ["ja", "US", undefined],
    ["en", "WORLD", undefined],
    ["en", "ZZ", undefined],
  ])("%s %s: %s", (lang, code, inCountry) => {
    expect(countryWords(code, lang).inCountry).toBe(inCountry);
  });

  test("the name is the language's own, beside the phrase", () => {
    expect(countryWords("DE", "fr")).toEqual({ country: "Allemagne", inCountry: "en Allemagne" });
    expect(countryWords("us", "en")).toEqual({ country: "United States", inCountry: "in the United States" });
  });

  test("every phrase names a country of the table", () => {
    for (const [lang, namespaces] of Object.entries(resources))
      for (const code of Object.keys(namespaces.places.in ?? {}))
        expect(findCountry(code)?.code, `${lang}:places:in.${code}`).toBe(code);
  });
});

describe("a sentence about a country", () => {
  test.each<[LanguageKey, string, string]>([
    ["en", "US", "Top songs in the United States"],
    ["en", "FR", "Top songs in France"],
    ["en", "SK", "Top songs in Slovakia"],
    ["en", "WORLD", "Top songs: World"],
    ["de", "US", "Top-Songs in den Vereinigten Staaten"],
    ["de", "CH", "Top-Songs in der Schweiz"],
    ["de", "SK", "Top-Songs: Slowakei"],
    ["fr", "JP", "Meilleurs titres au Japon"],
    ["fr", "SK", "Meilleurs titres : Slovaquie"],
    ["pt-br", "US", "Músicas em alta nos Estados Unidos"],
    ["pt-br", "SK", "Músicas em alta: Eslováquia"],
    ["es", "NL", "Canciones top en los Países Bajos"],
    ["ru", "US", "Лучшие песни в Соединенных Штатах"],
    ["ru", "SK", "Лучшие песни: Словакия"],
    ["tr", "FR", "Fransa'da en iyi şarkılar"],
    ["ja", "JP", "日本のトップソング"],
  ])("%s %s: %s", (lang, code, sentence) => {
    expect(topIn(code, lang)).toBe(sentence);
  });

  const chart = (countryCode: string, type: ResolvedChart["type"] = "top-200"): ResolvedChart => ({
    type,
    countryCode,
    countryUrlName: countryCode.toLowerCase(),
    city: undefined,
    genre: type === "genre" ? { urlName: "pop", name: "Pop" } : undefined,
    include: undefined,
    listid: "list",
    size: 200,
    path: "/top-200/x",
  });

  test.each<[LanguageKey, string, ResolvedChart["type"], string, string]>([
    [
      "en",
      "US",
      "top-200",
      "Top 200 songs: United States",
      "The 200 songs most identified with Tunewave in the United States right now.",
    ],
    [
      "en",
      "SK",
      "top-200",
      "Top 200 songs: Slovakia",
      "The 200 songs most identified with Tunewave in Slovakia right now.",
    ],
    [
      "de",
      "SK",
      "top-200",
      "Top-200-Songs: Slowakei",
      "Die 200 Songs, die gerade am häufigsten mit Tunewave erkannt werden: Slowakei.",
    ],
    [
      "de",
      "NL",
      "discovery",
      "Entdeckungen: Niederlande",
      "Songs im Aufwind in den Niederlanden: die Titel, die Menschen gerade mit Tunewave zu erkennen beginnen.",
    ],
    [
      "fr",
      "GB",
      "genre",
      "Top des titres Pop : Royaume-Uni",
      "Les titres Pop les plus identifiés avec Tunewave en ce moment au Royaume-Uni.",
    ],
    [
      "en",
      "WORLD",
      "discovery",
      "Discovery: World",
      "Songs on the rise around the world: the tracks people are starting to identify with Tunewave.",
    ],
  ])("%s %s %s", (lang, code, type, title, description) => {
    expect(chartTexts(chart(code, type), lang)).toEqual({ title, description });
  });
});
