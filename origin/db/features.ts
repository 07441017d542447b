import type { Database } from "#origin/db/rows.ts";
/** One app's feature flags (spec 000 `/services/config/features{app}.json`) as stored; undefined when it has none. */
export async function featureConfig(db: Database, app: string): Promise<unknown | undefined> {
  const row = await db
    .prepare("SELECT config FROM feature_config WHERE app = ?")
    .bind(app)
    .first<{ config: string }>();
  return row ? JSON.parse(row.config) : undefined;
}
