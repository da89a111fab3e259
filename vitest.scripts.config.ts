import { defineConfig } from "vitest/config";

// Tests of the repository's own tools (grader pieces, hint, live mode): not graded, not katas.
export default defineConfig({
  test: {
    include: ["scripts/test/**/*.test.ts"],
    testTimeout: 20_000,
  },
});
