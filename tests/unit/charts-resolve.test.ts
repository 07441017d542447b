import { describe, expect, test } from "vitest";
import {
  type ChartPickerQuery,
  type ChartRoute,
  chartPagePath,
  chartPathOutsideCharts,
  pickedChartPath,
  resolveChart,
  topInCountryPath,
} from "#app/charts/chart-address.server.ts";
import { SiteError } from "#rules/errors.ts";
import type { ChartLocations } from "#rules/schemas/charts.ts";

function genres(scope: string) {
  return [
    { id: "14", listid: `genre-${scope}-14`, name: "Pop", urlName: "pop", count: 12 },
    { id: "21", listid: `genre-${scope}-21`, name: "Rock", urlName: "rock", count: 7 },
  ];
}

const locations: ChartLocations = {
  countries: [
    {
      id: "GB",
      urlName: "united-kingdom",
      locName: "United Kingdom",
      listid: "ip-country-chart-GB",
      momentum_listid: "ip-country-discovery-GB",
      cities: [
        { id: "2643743", listid: "ip-city-chart-2643743", locName: "London", urlName: "london" },
        { id: "2643123", listid: "ip-city-chart-2643123", locName: "Manchester", urlName: "manchester" },
      ],
      genres: genres("GB"),
    },
    {
      id: "FR",
      urlName: "france",
      locName: "France",
      listid: "ip-country-chart-FR",
      momentum_listid: "ip-country-discovery-FR",
      cities: [],
      genres: [],
    },
  ],
  global: {
    id: "WORLD",
    urlName: "world",
    locName: "World",
    listid: "ip-world-chart",
    momentum_listid: "ip-world-discovery",
    genres: genres("global"),
  },
};

function route(
  type: ChartRoute["type"],
  country: string,
  cityOrGenre?: string,
  include?: string,
): ChartRoute {
  return { type, country, cityOrGenre, include };
}

describe("resolveChart", () => {
  test.each([
    ["world top 200", route("top-200", "world"), "ip-world-chart", 200, "/top-200/world"],
    ["world discovery", route("discovery", "world"), "ip-world-discovery", 200, "/discovery/world"],
    [
      "country top 200",
      route("top-200", "united-kingdom"),
      "ip-country-chart-GB",
      200,
      "/top-200/united-kingdom",
    ],
    [
      "country discovery",
      route("discovery", "united-kingdom"),
      "ip-country-discovery-GB",
      200,
      "/discovery/united-kingdom",
    ],
    [
      "city top 50",
      route("top-50", "united-kingdom", "london"),
      "ip-city-chart-2643743",
      50,
      "/top-50/united-kingdom/london",
    ],
    ["world genre, its count", route("genre", "world", "pop"), "genre-global-14", 12, "/genre/world/pop"],
    [
      "country genre, its count",
      route("genre", "united-kingdom", "rock"),
      "genre-GB-21",
      7,
      "/genre/united-kingdom/rock",
    ],
    [
      "any case",
      route("top-50", "United-Kingdom", "LONDON"),
      "ip-city-chart-2643743",
      50,
      "/top-50/united-kingdom/london",
    ],
  ])("%s", (_name, chart, listid, size, path) => {
    const resolved = resolveChart(locations, chart);
    expect(resolved).toMatchObject({ listid, size, path, type: chart.type });
    expect(chartPagePath(resolved)).toBe(path);
  });

  test.each([
    ["top 200 with include", route("top-200", "world", undefined, "artists"), "/top-200/world/artists"],
    [
      "city with include in another case",
      route("top-50", "united-kingdom", "london", "Artists"),
      "/top-50/united-kingdom/london/artists",
    ],
  ])("%s keeps the include in the page path", (_name, chart, pagePath) => {
    expect(chartPagePath(resolveChart(locations, chart))).toBe(pagePath);
  });

  test.each([
    ["an unknown country", route("top-200", "narnia")],
    ["a historic country the chart list does not have", route("top-200", "yugoslavia")],
    ["an unknown include", route("top-200", "world", undefined, "videos")],
    ["a city of the world (it has none)", route("top-50", "world", "london")],
    ["an unknown city", route("top-50", "united-kingdom", "paris")],
    ["a city of another country", route("top-50", "france", "london")],
    ["a city chart without a city", route("top-50", "united-kingdom")],
    ["an unknown genre", route("genre", "world", "polka")],
    ["a genre the country has not", route("genre", "france", "pop")],
  ])("%s is not found", (_name, chart) => {
    expect(() => resolveChart(locations, chart)).toThrowError(SiteError);
    try {
      resolveChart(locations, chart);
    } catch (error) {
      expect((error as SiteError).type).toBe("notfound");
    }
  });
});

describe("pickedChartPath (the GET picker)", () => {
  test.each<[string, ChartPickerQuery, string | undefined]>([
    ["no type: the landing", { country: "france" }, undefined],
    ["top 200 of a country", { type: "top-200", country: "united-kingdom" }, "/top-200/united-kingdom"],
    ["discovery of a country", { type: "discovery", country: "france" }, "/discovery/france"],
    [
      "a city of the country",
      { type: "top-50", country: "united-kingdom", city: "manchester" },
      "/top-50/united-kingdom/manchester",
    ],
    [
      "a city of another country: the first city",
      { type: "top-50", country: "united-kingdom", city: "lyon" },
      "/top-50/united-kingdom/london",
    ],
    [
      "a country without cities: its top 200",
      { type: "top-50", country: "france", city: "london" },
      "/top-200/france",
    ],
    [
      "a genre of the country",
      { type: "genre", country: "united-kingdom", genre: "rock" },
      "/genre/united-kingdom/rock",
    ],
    [
      "an unknown genre: the first genre",
      { type: "genre", country: "united-kingdom", genre: "polka" },
      "/genre/united-kingdom/pop",
    ],
    [
      "a country without genres: its top 200",
      { type: "genre", country: "france", genre: "pop" },
      "/top-200/france",
    ],
    ["the world's discovery", { type: "discovery", country: "world" }, "/discovery/world"],
    [
      "the world's cities: its top 200",
      { type: "top-50", country: "world", city: "london" },
      "/top-200/world",
    ],
    ["a world genre", { type: "genre", country: "world", genre: "rock" }, "/genre/world/rock"],
    ["no country: the visitor's", { type: "top-200" }, "/top-200/france"],
  ])("%s", (_name, query, expected) => {
    expect(pickedChartPath(locations, query, "france")).toBe(expected);
  });

  test("an unknown country is not found", () => {
    expect(() => pickedChartPath(locations, { type: "top-200", country: "narnia" }, "france")).toThrowError(
      SiteError,
    );
  });
});

test.each([
  ["GB", "/top-200/united-kingdom"],
  ["gb", "/top-200/united-kingdom"],
  ["FR", "/top-200/france"],
  ["JP", "/top-200/world"],
  ["WORLD", "/top-200/world"],
])("top in my country from %s goes to %s", (country, path) => {
  expect(topInCountryPath(locations, country)).toBe(path);
});

test.each([
  ["/charts/top-200/world", "/top-200/world"],
  ["/de/charts/top-50/germany/berlin", "/de/top-50/germany/berlin"],
  ["/charts/GENRE/world/pop", "/GENRE/world/pop"],
  ["/charts/discovery", "/discovery"],
  ["/charts/top-200/world/download.csv", "/top-200/world/download.csv"],
  ["/charts", undefined],
  ["/charts/top-in-my-country", undefined],
  ["/charts/top-2000/world", undefined],
  ["/de/charts/x/charts/top-200", undefined],
])("%s outside /charts is %s", (path, moved) => {
  expect(chartPathOutsideCharts(path)).toBe(moved);
});
