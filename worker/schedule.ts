import type { Env } from "../rules/env";

/** The worker's Cron Triggers (wrangler.toml `[triggers]`): the charts' recompute. */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  console.log(
    `scheduled: ${controller.cron} at ${new Date(controller.scheduledTime).toISOString()}`,
    Object.keys(env).length,
  );
}
