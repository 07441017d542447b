import path from "node:path";
import { defineConfig } from "vitest/config";

// Pure logic in plain Node: rules/, edge/, app/client/, signature/, origin/ builders.
export default defineConfig({
  // The app's own `~/` imports (tsconfig paths), for route modules and views.
  resolve: { alias: { "~": path.join(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"],
    environment: "node",
  },
});
