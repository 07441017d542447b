import { defineConfig } from "vitest/config";

// Pure logic in plain Node: rules/, edge/, the app's browser models, signature/, origin/ builders.
export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"],
    environment: "node",
  },
});
