import type * as v from "valibot";
import { listIds, radioSpins, rankEntries } from "#origin/catalog-rules.ts";
import { genres } from "#origin/db/genres.ts";
import { cities, countries } from "#origin/db/places.ts";
import { tagCountsIn } from "#origin/db/tag-counts.ts";
import { tracksByKeys } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, json, notFound } from "#origin/http.ts";
import { trackSummary } from "#origin/shapes.ts";
import { type radioChartSchema, radioChartSize, weekOf } from "#rules/radio.ts";
import type { chartLocationsSchema } from "#rules/schemas/charts.ts";

export function registerCharts(origin: OriginApp) {
  /** Spec 001 §7 `/services/charts/locations`: countries and cities list, with genre lists. */
  origin.get("/charts/locations", async (c) => {
    const [countryRows, cityRows, genreRows] = await Promise.all([
      countries(c.var.db),
      cities(c.var.db),
      genres(c.var.db),
    ]);
    const genreList = (country: string | undefined) =>
      genreRows.map((g) => ({
        id: g.id,
        listid: country ? listIds.countryGenre(country, g.id) : listIds.worldGenre(g.id),
        name: g.name,
        urlName: g.alias,
        count: g.count,
      }));
    const body: v.InferInput<typeof chartLocationsSchema> = {
      countries: countryRows.map((country) => ({
        id: country.id,
        urlName: country.url_name,
        locName: country.loc_name,
        listid: listIds.country(country.id),
        momentum_listid: listIds.discovery(country.id),
        cities: cityRows
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
        momentum_listid: listIds.worldDiscovery,
        genres: genreList(undefined),
      },
    };
    return json(c, body, cachePolicy.charts);
  });
}

/** Spec 001 §1 radio airplay per genre: the genre's tracks by their week's spins (catalog-rules). */
export function registerRadioCharts(origin: OriginApp) {
  origin.get("/charts/radio/:genre", async (c) => {
    const alias = c.req.param("genre").toLowerCase();
    const genre = (await genres(c.var.db)).find((g) => g.alias === alias);
    if (!genre) throw notFound(`No genre ${alias}`);
    const counts = (await tagCountsIn(c.var.db, undefined)).filter((count) => count.genre_id === genre.id);
    const ranked = rankEntries(
      counts.map((count) => ({
        trackKey: count.track_key,
        score: radioSpins(count.total, count.track_key, genre.id),
      })),
    ).slice(0, radioChartSize);
    const rows = new Map(
      (
        await tracksByKeys(
          c.var.db,
          ranked.map((entry) => entry.trackKey),
        )
      ).map((row) => [row.key, row]),
    );
    const body: v.InferInput<typeof radioChartSchema> = {
      genre: { id: genre.id, name: genre.name, urlName: genre.alias },
      week: weekOf(new Date()),
      entries: ranked.flatMap((entry) => {
        const row = rows.get(entry.trackKey);
        return row ? [{ spins: entry.score, track: trackSummary(row) }] : [];
      }),
    };
    return json(c, body, cachePolicy.charts);
  });
}
