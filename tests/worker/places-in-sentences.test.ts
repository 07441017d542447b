import { describe, expect, test } from "vitest";
import { decode, get, metaContent } from "./site";

async function html(path: string): Promise<string> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

/**
 * Decision 060: a chart page's title names its country, its description says "in <country>" as
 * the language does, for countries that take an article (the United States, the Netherlands, the
 * United Kingdom) and one that does not (each language's own: France, Germany, Japan).
 */
describe("a chart page says its country as the language does", () => {
  test.each([
    ["", "united-states", "Top 200 songs: United States", "Tunewave in the United States right now."],
    ["", "netherlands", "Top 200 songs: Netherlands", "Tunewave in the Netherlands right now."],
    ["", "france", "Top 200 songs: France", "Tunewave in France right now."],
    [
      "/de",
      "united-states",
      "Top-200-Songs: Vereinigte Staaten",
      "Die 200 Songs, die in den Vereinigten Staaten gerade",
    ],
    [
      "/de",
      "united-kingdom",
      "Top-200-Songs: Vereinigtes Königreich",
      "Die 200 Songs, die im Vereinigten Königreich gerade",
    ],
    ["/de", "germany", "Top-200-Songs: Deutschland", "Die 200 Songs, die in Deutschland gerade"],
    ["/fr", "united-states", "Top 200 des titres : États-Unis", "avec Tunewave en ce moment aux États-Unis."],
    ["/fr", "netherlands", "Top 200 des titres : Pays-Bas", "avec Tunewave en ce moment aux Pays-Bas."],
    ["/fr", "japan", "Top 200 des titres : Japon", "avec Tunewave en ce moment au Japon."],
    ["/fr", "france", "Top 200 des titres : France", "avec Tunewave en ce moment en France."],
    [
      "/pt-br",
      "united-states",
      "Top 200 músicas: Estados Unidos",
      "com o Tunewave agora nos Estados Unidos.",
    ],
    ["/pt-br", "france", "Top 200 músicas: França", "com o Tunewave agora na França."],
    ["/pt-br", "brazil", "Top 200 músicas: Brasil", "com o Tunewave agora no Brasil."],
    [
      "/es",
      "united-kingdom",
      "Top 200 canciones: Reino Unido",
      "con Tunewave ahora mismo en el Reino Unido.",
    ],
    [
      "/es",
      "netherlands",
      "Top 200 canciones: Países Bajos",
      "con Tunewave ahora mismo en los Países Bajos.",
    ],
    ["/es", "france", "Top 200 canciones: Francia", "con Tunewave ahora mismo en Francia."],
  ])("%s/top-200/%s", async (prefix, country, title, description) => {
    const text = await html(`${prefix}/top-200/${country}`);
    expect(decode(text)).toContain(`<title>${title} | Tunewave</title>`);
    expect(metaContent(text, "name", "description")).toContain(description);
  });

  test("a country without a phrase is named bare, never in English's phrase", async () => {
    const text = await html("/de/top-200/slovakia");
    expect(metaContent(text, "name", "description")).toBe(
      "Die 200 Songs, die gerade am häufigsten mit Tunewave erkannt werden: Slowakei.",
    );
  });

  test("the home page's chart heading too", async () => {
    expect(decode(await html("/de?co=US"))).toContain("Top-Songs in den Vereinigten Staaten");
    expect(decode(await html("/fr?co=JP"))).toContain("Meilleurs titres au Japon");
    expect(decode(await html("/ru?co=FR"))).toContain("Лучшие песни во Франции");
  });

  test("the concerts' country filter too", async () => {
    expect(decode(await html("/concerts?co=US"))).toContain("Anywhere in the United States");
    expect(decode(await html("/de/concerts?co=CH"))).toContain("Überall in der Schweiz");
    expect(decode(await html("/fr/concerts?co=US"))).toContain("Partout aux États-Unis");
  });
});
