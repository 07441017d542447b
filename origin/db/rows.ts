import * as v from "valibot";

/**
 * What every reader of D1 shares (origin/db/*.ts, one module an entity): rows are parsed back with
 * valibot like any other payload, so a catalogue built by another version of the builder fails
 * loudly instead of answering garbage.
 */

export const int = v.pipe(v.number(), v.integer());
export const text = v.string();
export const nullableText = v.nullable(v.string());
export const flag = v.pipe(
  v.number(),
  v.transform((n) => n === 1),
);

export async function all<S extends v.GenericSchema>(
  db: D1Database,
  schema: S,
  sql: string,
  ...params: unknown[]
): Promise<v.InferOutput<S>[]> {
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all();
  return results.map((row) => v.parse(schema, row));
}

export async function first<S extends v.GenericSchema>(
  db: D1Database,
  schema: S,
  sql: string,
  ...params: unknown[]
): Promise<v.InferOutput<S> | undefined> {
  const [row] = await all(db, schema, sql, ...params);
  return row;
}
