import * as v from "valibot";
import type { LyricsSync } from "./synced-lyrics";

/** Reading a web match's sync parameters (spec 001 §2): only the loader does, so valibot stays out of the page's chunks. */

/** A time skew beyond this is not a speed difference but a broken value. */
const maxTimeSkew = 0.5;

const numberText = v.pipe(v.string(), v.regex(/^-?\d{1,16}(\.\d{1,6})?$/), v.transform(Number), v.finite());

const dateParamSchema = v.union([
  v.pipe(v.string(), v.regex(/^\d{1,16}$/), v.transform(Number)),
  v.pipe(
    v.string(),
    v.isoTimestamp(),
    v.transform((text) => Date.parse(text)),
    v.finite(),
  ),
  v.pipe(
    v.string(),
    v.isoDateTime(),
    v.transform((text) => Date.parse(`${text}Z`)),
    v.finite(),
  ),
]);

const syncParamsSchema = v.object({
  startDate: dateParamSchema,
  offsetInMilliseconds: v.pipe(numberText, v.transform(Math.round)),
  trackLength: v.optional(v.pipe(numberText, v.integer(), v.minValue(1))),
  timeSkew: v.optional(v.pipe(numberText, v.minValue(-maxTimeSkew), v.maxValue(maxTimeSkew)), "0"),
});

/**
 * Reads the sync parameters of a track page address. Undefined without a valid `startDate` and
 * `offsetInMilliseconds`; a bad `trackLength` or `timeSkew` makes the whole set invalid, since
 * lyrics following the wrong clock are worse than none.
 */
export function readLyricsSync(search: URLSearchParams, defaultTrackLength: number): LyricsSync | undefined {
  const raw: Record<string, string> = {};
  for (const name of ["startDate", "offsetInMilliseconds", "trackLength", "timeSkew"]) {
    const value = search.get(name);
    if (value !== null) raw[name] = value;
  }
  const parsed = v.safeParse(syncParamsSchema, raw);
  if (!parsed.success) return undefined;
  const { startDate, offsetInMilliseconds, trackLength, timeSkew } = parsed.output;
  return {
    startDate,
    offset: offsetInMilliseconds,
    trackLength: trackLength ?? defaultTrackLength,
    timeSkew: Number(timeSkew),
  };
}
