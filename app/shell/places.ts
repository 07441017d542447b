/**
 * A country as a sentence takes it (decision 060): its name in the page's language, and the
 * language's own phrase for "in <country>" (articles, prepositions and case included: "in the
 * United States", "aux États-Unis", "nos Estados Unidos") where the language's `places` strings
 * have one for it.
 */
export type CountryWords = { country: string; inCountry: string | undefined };

/**
 * The key of a sentence about a country: `inKey` says "in <country>" with the language's phrase;
 * where the language has none for the country, `namedKey` names the country bare ("Top songs:
 * Slovakia"), which is grammatical whatever the country. Both are translated with the words as
 * their values.
 */
export function countryKey(words: CountryWords, inKey: string, namedKey: string): string {
  return words.inCountry === undefined ? namedKey : inKey;
}
