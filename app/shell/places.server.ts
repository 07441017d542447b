import { countryName, findCountry } from "#rules/countries.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { pickResources } from "./i18n.server.ts";
import type { CountryWords } from "./places.ts";

/**
 * A country's words in a language (decision 060): its name, and its "in" phrase from the
 * language's own `places:in.<code>` only: English's phrase behind another language would put
 * English into its sentence, so a language without a phrase for the country gets none.
 */
export function countryWords(code: string, lang: LanguageKey): CountryWords {
  const country = countryName(code, lang);
  const known = findCountry(code)?.code;
  const phrases = pickResources(lang, ["places"]).places.in;
  const phrase = known === undefined || typeof phrases !== "object" ? undefined : phrases[known];
  return { country, inCountry: typeof phrase === "string" ? phrase : undefined };
}
