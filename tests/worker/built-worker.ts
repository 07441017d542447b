import type app from "#worker/index.ts";
import built from "../../build/worker/index.mjs";

/** The worker as built (`npm run build`, wrangler.toml's main: its entry module), for tests that call it with their own env. */
export default built as unknown as typeof app;
