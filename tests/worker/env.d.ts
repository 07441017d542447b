import type { D1Migration } from "@cloudflare/vitest-pool-workers/config";
import type { Env } from "#rules/env.ts";
import type { RecognizerBinding } from "#rules/schemas/recognizer.ts";

declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
    TEST_RECOGNITION_MIGRATIONS: D1Migration[];
    /** The recognizer's store (vitest.worker.config.ts): the same database the recognizer reads. */
    RECOGNITION: D1Database;
    /**
     * Databases for the recognition store split in shards (vitest.worker.config.ts): bound here
     * only, so the recognizer reads RECOGNITION alone.
     */
    RECOGNITION_1: D1Database;
    RECOGNITION_2: D1Database;
    RECOGNITION_3: D1Database;
    /** Every page route with an action (vitest.worker.config.ts pageActions). */
    TEST_PAGE_ACTIONS: { path: string; file: string }[];
    /** The recognizer's entrypoint, through wrangler.toml's [[services]] binding. */
    RECOGNIZER: RecognizerBinding;
  }
}
