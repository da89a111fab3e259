// The unit the grader's time is measured in: a vitest run of one spec file with one `expect`, on
// this machine, now. Absolute times do not travel between machines; "the grade costs N trivial
// runs" does. The scratch project sits under .grade/ so that it finds the project's node_modules
// the way the graded runs do.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

const VITEST_BIN = join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");

export interface TrivialRun {
  /** Wall time of each run, in ms. */
  runsMs: number[];
  medianMs: number;
}

export function timeTrivialRuns(count: number): TrivialRun {
  const dir = join(PROJECT_ROOT, ".grade", "bench-trivial");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "spec"), { recursive: true });
  // A config of its own, so that the project's (its alias, setup files) is not the one found.
  writeFileSync(join(dir, "vitest.config.ts"), 'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { include: ["spec/**/*.spec.ts"] } });\n');
  writeFileSync(join(dir, "spec", "one.spec.ts"), 'import { expect, test } from "vitest";\ntest("one", () => expect(1 + 1).toBe(2));\n');
  const runsMs: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      const run = spawnSync(process.execPath, [VITEST_BIN, "run"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      if (run.status !== 0) throw new Error(`the trivial vitest run failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
      runsMs.push(performance.now() - start);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { runsMs, medianMs: sorted[Math.floor(sorted.length / 2)] };
}
