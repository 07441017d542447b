import { defineConfig } from "vitest/config";

// What a person sees: Debian's Chromium through playwright-core, against a `wrangler dev` that
// tests/e2e/global-setup.ts starts on a free port and stops.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
