import * as v from "valibot";
import { all, type Database, int, text } from "./rows.ts";

const genreRowSchema = v.object({ id: text, name: text, alias: text, count: int });

export function genres(db: Database) {
  return all(
    db,
    genreRowSchema,
    "SELECT g.id, g.name, g.alias, COUNT(t.key) AS count FROM genres g JOIN tracks t ON t.genre_id = g.id GROUP BY g.id ORDER BY count DESC, g.id",
  );
}
