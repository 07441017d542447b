import * as v from "valibot";

/**
 * What a query runs on: a request's D1 session (origin/d1-session.ts, decision 062), or the
 * binding itself for queue batches and Cron Triggers, which stay on the primary.
 */
export type Database = Pick<D1DatabaseSession, "prepare" | "batch">;

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
  db: Database,
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
  db: Database,
  schema: S,
  sql: string,
  ...params: unknown[]
): Promise<v.InferOutput<S> | undefined> {
  const [row] = await all(db, schema, sql, ...params);
  return row;
}
