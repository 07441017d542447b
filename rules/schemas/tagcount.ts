import * as v from "valibot";
import { digitsSchema } from "./common";

/** Spec 001 §3 "Tag count: per track id, a total". */
export const tagCountSchema = v.object({
  id: digitsSchema,
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** The tag count list (repeated `id=`): one item per known id, in the order asked. */
export const tagCountListSchema = v.array(tagCountSchema);

export type TagCount = v.InferOutput<typeof tagCountSchema>;
