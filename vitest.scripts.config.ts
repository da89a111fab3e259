import { configDefaults, defineConfig } from "vitest/config";

// Tests of the repository's own tools (grader pieces, hint, live mode): not graded, not katas.
//
// Most of their time is spent waiting on child processes (grades, watch, the pack's npm, a
// budget's 15 s), so their files run side by side, a few at once. The tests that time something
// run afterwards, one file at a time: watch's quick answer leaves out the tests that were slow,
// watch's own stall watch is 20 s, and compare measures a speed ratio. The load of the other
// files is not theirs to bear (a whole npm test brings enough of its own).
const TIMED = ["scripts/test/watch.test.ts", "scripts/test/watch-level.test.ts", "scripts/test/compare-speed.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: "tools", include: ["scripts/test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...TIMED], maxWorkers: 3, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: "timed", include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
