import * as v from "valibot";
import { type Database, first, int, text } from "./rows.ts";

const lyricsRowSchema = v.object({
  track_key: int,
  lyrics_id: text,
  provider: text,
  footer: text,
  lines: v.pipe(text, v.parseJson(), v.array(v.string())),
  synced: v.pipe(text, v.parseJson(), v.array(v.object({ offset: int, text: v.string() }))),
  adamid: text,
});
export type LyricsRow = v.InferOutput<typeof lyricsRowSchema>;

export async function lyricsOf(
  db: Database,
  column: "track_key" | "adamid",
  id: string,
): Promise<LyricsRow | undefined> {
  return first(
    db,
    lyricsRowSchema,
    `SELECT l.*, t.adamid FROM lyrics l JOIN tracks t ON t.key = l.track_key WHERE ${column === "adamid" ? "t.adamid" : "l.track_key"} = ?`,
    column === "adamid" ? id : Number(id),
  );
}
