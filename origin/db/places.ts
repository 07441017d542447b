import * as v from "valibot";
import { all, type Database, first, int, text } from "./rows.ts";

const countryRowSchema = v.object({ id: text, url_name: text, loc_name: text });
const cityRowSchema = v.object({ id: int, country: text, name: text, url_name: text });

export function countries(db: Database) {
  return all(db, countryRowSchema, "SELECT id, url_name, loc_name FROM countries ORDER BY position");
}

export async function countryById(db: Database, id: string) {
  return first(db, countryRowSchema, "SELECT id, url_name, loc_name FROM countries WHERE id = ?", id);
}

export function cities(db: Database) {
  return all(
    db,
    cityRowSchema,
    "SELECT id, country, name, url_name FROM cities ORDER BY country, population DESC, id",
  );
}

export async function cityById(db: Database, id: number) {
  return first(db, cityRowSchema, "SELECT id, country, name, url_name FROM cities WHERE id = ?", id);
}

const venueRowSchema = v.object({
  id: int,
  country: text,
  city: text,
  name: text,
  lat: v.number(),
  lng: v.number(),
  timezone: text,
  population: int,
});
export type VenueRow = v.InferOutput<typeof venueRowSchema>;

/** Concert venues with their city's population (events favour big cities), in id order. */
export function venues(db: Database): Promise<VenueRow[]> {
  return all(
    db,
    venueRowSchema,
    `SELECT v.id, v.country, v.city, v.name, v.lat, v.lng, v.timezone, c.population
     FROM venues v JOIN cities c ON c.id = v.city_id ORDER BY v.id`,
  );
}
