import { refreshSpellingVariants } from "#origin/db/search-index.ts";
import { recomputeCharts } from "./chart-recompute";
import type { OriginEnv } from "./env";

/**
 * The origin's Cron Triggers (the site Worker's wrangler.toml `[triggers]` hands it each run): the charts' recompute, and the search's
 * spelling variants when a name changed (so a search seldom waits for them).
 */
export async function scheduled(controller: ScheduledController, env: Pick<OriginEnv, "DB">): Promise<void> {
  try {
    const result = await recomputeCharts(env.DB, new Date(controller.scheduledTime));
    const spelling = await refreshSpellingVariants(env.DB);
    console.log(
      `scheduled ${controller.cron}: charts recomputed, ${result.rows} live scores in ${result.scopes} scopes` +
        (spelling ? "; spelling variants rebuilt" : ""),
    );
  } catch (error) {
    // The run fails (the platform records it); why is in the log.
    console.error(
      `scheduled ${controller.cron}: the charts or the spelling variants were not rebuilt:`,
      error,
    );
    throw error;
  }
}
