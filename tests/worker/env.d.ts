import type { D1Migration } from "@cloudflare/vitest-pool-workers/config";
import type { Env } from "../../rules/env";

declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
    TEST_RECOGNITION_MIGRATIONS: D1Migration[];
    /**
     * Databases for the recognition store split in shards (vitest.worker.config.ts): bound, but not
     * counted by RECOGNITION_SHARDS, so the match service reads RECOGNITION alone.
     */
    RECOGNITION_1: D1Database;
    RECOGNITION_2: D1Database;
    RECOGNITION_3: D1Database;
    /** Every page route with an action (vitest.worker.config.ts pageActions). */
    TEST_PAGE_ACTIONS: { path: string; file: string }[];
  }
}
