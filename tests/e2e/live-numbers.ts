import { expect } from "vitest";
import { executeLocalD1 } from "./local-d1";

/**
 * The live numbers (decision 032) back to the seeded baseline: the browser tests' local database is
 * kept between runs, and a run's identifications would otherwise still rank songs in the next.
 */
export async function clearLiveNumbers(): Promise<void> {
  await executeLocalD1(
    "DELETE FROM identification_events; DELETE FROM chart_visits; DELETE FROM daily_identifications; DELETE FROM live_tag_counts; DELETE FROM chart_scores",
    "clear the live numbers",
  );
}

/**
 * The charts' recompute now: the worker's Cron Trigger, through the route `wrangler dev
 * --test-scheduled` (tests/e2e/global-setup.ts) serves, which no deployment has.
 */
export async function recomputeCharts(baseURL: string): Promise<void> {
  const response = await fetch(`${baseURL}/__scheduled?cron=${encodeURIComponent("*/10 * * * *")}`);
  expect(response.status, await response.text()).toBe(200);
}
