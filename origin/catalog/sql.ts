/**
 * The seed writer: one SQL statement per line, so the seed can be run by `wrangler d1 execute
 * --file` and split into a D1 batch by the worker tests.
 */

export type SqlValue = string | number | boolean | null | undefined;

export function sqlValue(value: SqlValue): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  // A line break would split the statement: write it as char(10).
  return value
    .split("\n")
    .map((part) => `'${part.replaceAll("'", "''")}'`)
    .join(" || char(10) || ");
}

/** Multi-row INSERTs of at most `rowsPerStatement` rows each. */
export function insertStatements(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  rowsPerStatement = 200,
): string[] {
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const values = rows
      .slice(start, start + rowsPerStatement)
      .map((row) => {
        if (row.length !== columns.length)
          throw new Error(`${table}: ${row.length} values for ${columns.length} columns`);
        return `(${row.map(sqlValue).join(",")})`;
      })
      .join(",");
    statements.push(`INSERT INTO ${table} (${columns.join(",")}) VALUES ${values};`);
  }
  return statements;
}

/** Splits a seed written by this module back into statements. */
export function splitSeed(seed: string): string[] {
  return seed
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("--"));
}
