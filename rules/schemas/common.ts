import * as v from "valibot";

/** Numeric ids travel as strings of digits (spec 001 §5 "Track id must be numeric"). */
export const digitsSchema = v.pipe(v.string(), v.regex(/^\d+$/, "not a numeric id"));

/** Colours without the leading "#", as the upstream sends them ("1a2b3c"). */
export const hexColourSchema = v.pipe(v.string(), v.regex(/^[0-9a-f]{6}$/i, "not a colour"));

/** The error body of every failed /services answer. */
export const serviceErrorSchema = v.object({ error: v.string(), message: v.string() });
export type ServiceErrorBody = v.InferOutput<typeof serviceErrorSchema>;
