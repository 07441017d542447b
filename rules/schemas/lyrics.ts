import * as v from "valibot";
import { digitsSchema } from "./common";

/** Spec 001 §3 "Synced lyrics: list of {offset,text}"; offset in ms from the start of the track. */
export const syncedLineSchema = v.object({
  offset: v.pipe(v.number(), v.integer(), v.minValue(0)),
  text: v.string(),
});

/** The synced lyrics answer (spec 001 §7 "the response carries syncedtext"). */
export const syncedLyricsSchema = v.object({
  id: v.string(),
  adamid: digitsSchema,
  trackKey: digitsSchema,
  providername: v.string(),
  footer: v.string(),
  /** Written for this project, not the recording's words. */
  demo: v.boolean(),
  syncedtext: v.array(syncedLineSchema),
});

export type SyncedLine = v.InferOutput<typeof syncedLineSchema>;
export type SyncedLyrics = v.InferOutput<typeof syncedLyricsSchema>;
