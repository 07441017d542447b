import * as v from "valibot";

/** Spec 000 §2 page type `careers`: one open role, as `GET /services/careers/roles` lists it. */
export const careersRoleSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/)),
  title: v.string(),
  team: v.string(),
  location: v.string(),
  summary: v.string(),
  /** ISO date (YYYY-MM-DD). */
  postedOn: v.pipe(v.string(), v.isoDate()),
});
export type CareersRole = v.InferOutput<typeof careersRoleSchema>;

export const careersRolesSchema = v.object({ roles: v.array(careersRoleSchema) });
