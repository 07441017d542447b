import * as v from "valibot";
import { digitsSchema } from "./common";

/** Spec 001 §3 "Tag count: per track id, a total". */
export const tagCountSchema = v.object({
  id: digitsSchema,
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /**
   * Our addition (decision 032; the spec has no such field): whether the total includes the demo
   * catalogue's seeded count, which pages label as demo data. Absent: not known to be seeded.
   */
  demo: v.optional(v.boolean()),
});

/** The tag count list (repeated `id=`): one item per known id, in the order asked. */
export const tagCountListSchema = v.array(tagCountSchema);

export type TagCount = v.InferOutput<typeof tagCountSchema>;
