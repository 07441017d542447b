import * as v from "valibot";
import { all, first, int, text } from "./rows.ts";

/** The live counters (decision 032) of the days from `fromDay` (YYYY-MM-DD) on. */
export function liveCountsSince(db: D1Database, fromDay: string) {
  return all(
    db,
    v.object({ day: text, track_key: int, country: text, city_id: int, identifications: int, visitors: int }),
    "SELECT day, track_key, country, city_id, identifications, visitors FROM daily_identifications WHERE day >= ?",
    fromDay,
  );
}

export type ChartScoreRow = { scope: string; track_key: number; score: number; momentum: number };

/** The recomputed scores of one chart scope ('WORLD', a country, 'city:<id>'), by track. */
export async function chartScoresOf(db: D1Database, scope: string): Promise<Map<number, ChartScoreRow>> {
  const rows = await all(
    db,
    v.object({ scope: text, track_key: int, score: v.number(), momentum: v.number() }),
    "SELECT scope, track_key, score, momentum FROM chart_scores WHERE scope = ?",
    scope,
  );
  return new Map(rows.map((row) => [row.track_key, row]));
}

/** When the charts' numbers were computed (ISO 8601). */
export async function chartsComputedAt(db: D1Database): Promise<string> {
  const row = await first(
    db,
    v.object({ computed_at: text }),
    "SELECT computed_at FROM chart_runs WHERE id = 1",
  );
  return row?.computed_at ?? new Date(0).toISOString();
}

/** Replaces every stored chart score and the computed time in one batch (all or nothing). */
export async function storeChartScores(
  db: D1Database,
  rows: readonly ChartScoreRow[],
  computedAt: string,
): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM chart_scores"),
    db
      .prepare(
        "INSERT INTO chart_scores (scope, track_key, score, momentum) SELECT json_extract(value, '$.scope'), json_extract(value, '$.track_key'), json_extract(value, '$.score'), json_extract(value, '$.momentum') FROM json_each(?)",
      )
      .bind(JSON.stringify(rows)),
    db.prepare("UPDATE chart_runs SET computed_at = ? WHERE id = 1").bind(computedAt),
  ]);
}
