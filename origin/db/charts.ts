import * as v from "valibot";
import { all, type Database, int, text } from "./rows.ts";

/** The live counters (decision 032) of the days from `fromDay` (YYYY-MM-DD) on. */
export function liveCountsSince(db: Database, fromDay: string) {
  return all(
    db,
    v.object({ day: text, track_key: int, country: text, city_id: int, identifications: int, visitors: int }),
    "SELECT day, track_key, country, city_id, identifications, visitors FROM daily_identifications WHERE day >= ?",
    fromDay,
  );
}

export type ChartScoreRow = { scope: string; track_key: number; score: number; momentum: number };

const scoreRowSchema = v.object({ scope: text, track_key: int, score: v.number(), momentum: v.number() });
const runRowSchema = v.object({ computed_at: text });

/**
 * The recomputed scores of one chart scope ('WORLD', a country, 'city:<id>'), by track, and when the
 * run that stored them was computed (ISO 8601), read in one batch: a batch is one transaction, so a
 * recompute storing its own batch meanwhile is seen whole or not at all, and the time a chart
 * answer carries is the time of the order it carries (decision 032, "Answers and caching").
 */
export async function chartScoresOf(
  db: Database,
  scope: string,
): Promise<{ scores: Map<number, ChartScoreRow>; computedAt: string }> {
  const [scores, runs] = await db.batch([
    db.prepare("SELECT scope, track_key, score, momentum FROM chart_scores WHERE scope = ?").bind(scope),
    db.prepare("SELECT computed_at FROM chart_runs WHERE id = 1"),
  ]);
  const rows = (scores?.results ?? []).map((row) => v.parse(scoreRowSchema, row));
  const [run] = (runs?.results ?? []).map((row) => v.parse(runRowSchema, row));
  return {
    scores: new Map(rows.map((row) => [row.track_key, row])),
    computedAt: run?.computed_at ?? new Date(0).toISOString(),
  };
}

/** Replaces every stored chart score and the computed time in one batch (all or nothing). */
export async function storeChartScores(
  db: Database,
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
