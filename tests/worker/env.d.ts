import type { D1Migration } from "@cloudflare/vitest-pool-workers/config";
import type { Env } from "../../rules/env";

declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
    TEST_RECOGNITION_MIGRATIONS: D1Migration[];
    /** Every page route with an action (vitest.worker.config.ts pageActions). */
    TEST_PAGE_ACTIONS: { path: string; file: string }[];
  }
}
