import * as v from "valibot";

/** Spec 001 §3 Chart — Genre: listid, count, name. */
export const chartGenreSchema = v.object({
  id: v.string(),
  listid: v.string(),
  name: v.string(),
  urlName: v.string(),
  count: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** Spec 001 §3 Chart — City: listid, locName. */
export const chartCitySchema = v.object({
  id: v.string(),
  listid: v.string(),
  locName: v.string(),
  urlName: v.string(),
});

/** Spec 001 §3 Chart — Country: id, urlName, locName, listid, momentum_listid. */
export const chartCountrySchema = v.object({
  id: v.string(),
  urlName: v.string(),
  locName: v.string(),
  listid: v.string(),
  momentum_listid: v.string(),
  cities: v.array(chartCitySchema),
  genres: v.array(chartGenreSchema),
});

/**
 * `GET /services/charts/locations` (spec 001 §7): countries and cities list. The world (spec 001
 * §2 "{country-or-world}") has a top 200 (`listid`), a discovery chart (`momentum_listid`, as a
 * country's) and genre charts; no cities.
 */
export const chartLocationsSchema = v.object({
  countries: v.array(chartCountrySchema),
  global: v.object({
    id: v.string(),
    urlName: v.string(),
    locName: v.string(),
    listid: v.string(),
    momentum_listid: v.string(),
    genres: v.array(chartGenreSchema),
  }),
});

export type ChartGenre = v.InferOutput<typeof chartGenreSchema>;
export type ChartCity = v.InferOutput<typeof chartCitySchema>;
export type ChartCountry = v.InferOutput<typeof chartCountrySchema>;
export type ChartLocations = v.InferOutput<typeof chartLocationsSchema>;
