import { recomputeCharts } from "../origin/chart-recompute";
import type { Env } from "../rules/env";

/** The worker's Cron Triggers (wrangler.toml `[triggers]`): the charts' recompute. */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  try {
    const result = await recomputeCharts(env.DB, new Date(controller.scheduledTime));
    console.log(
      `scheduled ${controller.cron}: charts recomputed, ${result.rows} live scores in ${result.scopes} scopes`,
    );
  } catch (error) {
    // The run fails (the platform records it); why is in the log.
    console.error(`scheduled ${controller.cron}: the charts were not recomputed:`, error);
    throw error;
  }
}
