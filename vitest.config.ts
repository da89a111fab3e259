import { defineConfig } from "vitest/config";
import { PROJECT_ROOT, resolveImplRoot } from "./scripts/lib/impl-root.ts";

// Specs import the code under test as `@impl/NN-name`; KATA_IMPL chooses whose code that is.
const implRoot = resolveImplRoot(process.env.KATA_IMPL, PROJECT_ROOT);

export default defineConfig({
  resolve: {
    alias: [{ find: /^@impl\/([\w.-]+)$/, replacement: `${implRoot}/$1/index.ts` }],
  },
  test: {
    include: ["spec/**/*.spec.ts"],
    exclude: ["**/node_modules/**", "spec/fixtures/**", process.env.GRADE_BANK === "1" ? "" : "spec/*/bank/**"].filter(Boolean),
    setupFiles: ["spec/support/setup/fast-check-defaults.ts", "spec/support/setup/progress-log.ts"],
    testTimeout: 5_000,
    hookTimeout: 10_000,
    // The grader runs one kata per child process; inside it, files may run in parallel.
    pool: "forks",
  },
});
