import * as v from "valibot";
import { trackSummarySchema } from "#rules/schemas/track.ts";

/** Spec 001 §1, §2: "Radio airplay charts per genre", "radio spins: one page per genre". */
export const radioChartSize = 40;

/** `GET /services/charts/radio/{genre}`: a genre's airplay chart, most played first. */
export const radioChartSchema = v.object({
  genre: v.object({ id: v.string(), name: v.string(), urlName: v.string() }),
  /** Monday of the week counted (YYYY-MM-DD, UTC). */
  week: v.pipe(v.string(), v.isoDate()),
  entries: v.array(
    v.object({ spins: v.pipe(v.number(), v.integer(), v.minValue(0)), track: trackSummarySchema }),
  ),
});
export type RadioChart = v.InferOutput<typeof radioChartSchema>;

/** Monday of `now`'s week (UTC), the week a radio chart counts. */
export function weekOf(now: Date): string {
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return monday.toISOString().slice(0, 10);
}
