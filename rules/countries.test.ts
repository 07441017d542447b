import { describe, expect, test } from "vitest";
import { chooseCountry, countries, countryName, findCountry } from "#rules/countries.ts";

describe("the country table", () => {
  test("codes are unique and upper case", () => {
    const codes = countries.map((country) => country.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^([A-Z]{2}|WORLD|GLOBAL)$/);
  });

  test("every current ISO 3166-1 alpha-2 code Intl knows is in the table", () => {
    // Intl names these too, but they are not countries (or are withdrawn, kept as historic).
    const notCountries = new Set([
      "AC",
      "CP",
      "CQ",
      "DG",
      "EA",
      "IC",
      "TA",
      "EU",
      "EZ",
      "UN",
      "QO",
      "XA",
      "XB",
      "ZZ",
      "UK",
    ]);
    const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
    for (let a = 65; a <= 90; a += 1) {
      for (let b = 65; b <= 90; b += 1) {
        const code = String.fromCharCode(a, b);
        if (notCountries.has(code) || !names.of(code)) continue;
        expect(findCountry(code), code).toBeDefined();
      }
    }
    expect(countries.filter((country) => !country.historic && country.code.length === 2).length).toBe(250);
  });

  test.each([
    ["AN", "Netherlands Antilles"],
    ["CS", "Serbia and Montenegro"],
    ["YU", "Yugoslavia"],
    ["SU", "Soviet Union"],
    ["TP", "East Timor"],
    ["ZR", "Zaire"],
    ["DD", "East Germany"],
    ["BU", "Burma"],
  ])("historic code %s: %s", (code, name) => {
    expect(findCountry(code)).toMatchObject({ code, name, historic: true });
  });

  test.each([
    ["GB", "united-kingdom"],
    ["US", "united-states"],
    ["CI", "cote-d-ivoire"],
    ["TT", "trinidad-and-tobago"],
    ["AX", "aland-islands"],
    ["CC", "cocos-keeling-islands"],
    ["GW", "guinea-bissau"],
    ["WORLD", "world"],
    ["GLOBAL", "global"],
  ])("urlName of %s is %s", (code, urlName) => {
    expect(findCountry(code)?.urlName).toBe(urlName);
  });

  test("urlNames are unique among current countries", () => {
    const urlNames = countries.filter((country) => !country.historic).map((country) => country.urlName);
    expect(new Set(urlNames).size).toBe(urlNames.length);
    for (const urlName of urlNames) expect(urlName).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test("an English name with accents and 'and' becomes its URL name", () => {
    expect(findCountry("ST")?.urlName).toBe("sao-tome-and-principe");
  });
});

describe("countryName", () => {
  test.each([
    ["GB", "en", "United Kingdom"],
    ["GB", "gb", "United Kingdom"],
    ["DE", "de", "Deutschland"],
    ["DE", "fr", "Allemagne"],
    ["JP", "ja", "日本"],
    ["WORLD", "en", "World"],
    ["GLOBAL", "en", "Global"],
    ["WORLD", "de", "Welt"],
    ["SU", "de", "Soviet Union"],
    ["DD", "ru", "East Germany"],
    ["QQ", "de", "QQ"],
    ["gb", "en", "United Kingdom"],
  ] as const)("%s in %s: %s", (code, lang, name) => {
    expect(countryName(code, lang)).toBe(name);
  });
});

type Sources = Parameters<typeof chooseCountry>[0];

describe("chooseCountry", () => {
  const cases: [name: string, sources: Sources, code: string, source: string][] = [
    ["nothing: GB", {}, "GB", "default"],
    ["co", { coParam: "DE" }, "DE", "co"],
    ["co lower case", { coParam: "de" }, "DE", "co"],
    ["co over app config", { coParam: "DE", appConfigCountry: "FR" }, "DE", "co"],
    ["co over IP", { coParam: "DE", cfCountry: "US" }, "DE", "co"],
    ["co WORLD", { coParam: "world" }, "WORLD", "co"],
    ["co historic", { coParam: "SU" }, "SU", "co"],
    ["unknown co is refused", { coParam: "QQ", cfCountry: "US" }, "US", "ip"],
    ["malformed co is refused", { coParam: "<x>", appConfigCountry: "FR" }, "FR", "appconfig"],
    ["app config", { appConfigCountry: "FR" }, "FR", "appconfig"],
    ["app config over IP", { appConfigCountry: "FR", cfCountry: "US" }, "FR", "appconfig"],
    ["unknown app config is refused", { appConfigCountry: "XX", cfCountry: "US" }, "US", "ip"],
    ["IP", { cfCountry: "JP" }, "JP", "ip"],
    ["IP Tor (T1) is refused", { cfCountry: "T1" }, "GB", "default"],
    ["IP unknown (XX) is refused", { cfCountry: "XX" }, "GB", "default"],
    ["IP Kosovo", { cfCountry: "XK" }, "XK", "ip"],
    ["empty values are skipped", { coParam: "", appConfigCountry: "", cfCountry: "" }, "GB", "default"],
  ];
  test.each(cases)("%s", (_name, sources, code, source) => {
    expect(chooseCountry(sources)).toEqual({ code, source });
  });
});
