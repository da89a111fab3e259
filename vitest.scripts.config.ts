import { configDefaults, defineConfig } from "vitest/config";

// Tests of the repository's own tools (grader pieces, hint, live mode): not graded, not katas.
//
// Most of their time is spent waiting on child processes (grades, watch, the pack's npm, a
// budget's 15 s), so their files run side by side, a few at once. The one that times something
// runs afterwards, alone: compare measures a speed ratio, and the load of the other files is not
// its to bear (a whole npm test brings enough of its own). watch's tests need no such care: their
// warm runner does not watch .grade/, which the grades beside them churn.
const TIMED = ["scripts/test/compare-speed.test.ts"];

export default defineConfig({
  test: {
    // Only a guard against a hang: most of these tests wait on whole grades, which a busy machine slows.
    testTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: "tools", include: ["scripts/test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...TIMED], maxWorkers: 3, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: "timed", include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
