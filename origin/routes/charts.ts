import type * as v from "valibot";
import type { chartLocationsSchema } from "../../edge/schemas/charts";
import { listIds } from "../catalog-rules";
import * as db from "../db";
import type { OriginApp } from "../env";
import { cachePolicy, json } from "../http";

export function registerCharts(origin: OriginApp) {
  /** Spec 001 §7 `/services/charts/locations`: countries and cities list, with genre lists. */
  origin.get("/charts/locations", async (c) => {
    const [countries, cities, genres] = await Promise.all([
      db.countries(c.env.DB),
      db.cities(c.env.DB),
      db.genres(c.env.DB),
    ]);
    const genreList = (country: string | undefined) =>
      genres.map((g) => ({
        id: g.id,
        listid: country ? listIds.countryGenre(country, g.id) : listIds.worldGenre(g.id),
        name: g.name,
        urlName: g.alias,
        count: g.count,
      }));
    const body: v.InferInput<typeof chartLocationsSchema> = {
      countries: countries.map((country) => ({
        id: country.id,
        urlName: country.url_name,
        locName: country.loc_name,
        listid: listIds.country(country.id),
        momentum_listid: listIds.discovery(country.id),
        cities: cities
          .filter((city) => city.country === country.id)
          .map((city) => ({
            id: String(city.id),
            listid: listIds.city(city.id),
            locName: city.name,
            urlName: city.url_name,
          })),
        genres: genreList(country.id),
      })),
      global: {
        id: "WORLD",
        urlName: "world",
        locName: "World",
        listid: listIds.world,
        genres: genreList(undefined),
      },
    };
    return json(c, body, cachePolicy.charts);
  });
}
