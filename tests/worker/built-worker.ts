import type app from "#worker/index.ts";
import built from "../../build/index.js";

/** The worker as built (`npm run build`, wrangler.toml's main), for tests that call it with their own env. */
export default built as unknown as typeof app;
