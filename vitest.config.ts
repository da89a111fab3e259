import { defineConfig } from "vitest/config";
import { PROJECT_ROOT, resolveImplRoot } from "./scripts/lib/impl-root.ts";
import { notedImpl } from "./scripts/lib/noted-impl.ts";
import { TEST_TIMEOUT_MS } from "./spec/support/time-limits.ts";

// Specs import the code under test as `@impl/NN-name`; KATA_IMPL chooses whose code that is, and
// noted-impl.ts stands between, so that a failure can show the input the test gave.
const implRoot = resolveImplRoot(process.env.KATA_IMPL, PROJECT_ROOT);

export default defineConfig({
  plugins: [notedImpl(implRoot, PROJECT_ROOT)],
  test: {
    include: ["spec/**/*.spec.ts"],
    exclude: ["**/node_modules/**", "spec/fixtures/**", process.env.GRADE_BANK === "1" ? "" : "spec/*/bank/**"].filter(Boolean),
    setupFiles: ["spec/support/setup/fast-check-defaults.ts", "spec/support/setup/progress-log.ts", "spec/support/setup/first-difference.ts"],
    // Generous, so that load never costs a correct implementation a test: see spec/support/time-limits.ts.
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    // The grader runs one kata per child process; inside it, files may run in parallel.
    pool: "forks",
  },
});
