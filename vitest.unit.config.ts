import { defineConfig } from "vitest/config";

// Pure logic in plain Node: rules/, edge/, the app's browser models, signature/, origin/ builders.
export default defineConfig({
  test: {
    // Unit tests sit beside their module (x.ts + x.test.ts), or in tests/unit/ for a topic across modules.
    include: [
      "tests/unit/**/*.test.{ts,tsx}",
      "{app,amp,edge,origin,recognizer,rules,scripts,signature,tools,worker}/**/*.test.{ts,tsx}",
    ],
    environment: "node",
  },
});
