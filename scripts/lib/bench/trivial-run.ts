// The unit the grader's time is measured in: a vitest run of one spec file with one `expect`, on
// this machine, now. Absolute times do not travel between machines; "the grade costs N trivial
// runs" does. The scratch project sits under .grade/ so that it finds the project's node_modules
// the way the graded runs do.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

const VITEST_BIN = join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");

export interface TrivialRun {
  /** Wall time of each run, in ms. */
  runsMs: number[];
  medianMs: number;
  /** CPU time of each run's whole process tree, in ms, where the platform tells (Linux). */
  cpuMs: Array<number | undefined>;
}

/**
 * CPU time used by this process's finished children and their own waited-for children (Linux:
 * fields cutime and cstime of /proc/self/stat, in clock ticks of 10 ms). Unlike wall time, other
 * processes' load does not inflate it.
 */
export function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10; // fields 16 and 17 of proc(5), counted from 1
  } catch {
    return undefined;
  }
}

export function timeTrivialRuns(count: number): TrivialRun {
  const dir = join(PROJECT_ROOT, ".grade", "bench-trivial");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "spec"), { recursive: true });
  // A config of its own, so that the project's (its alias, setup files) is not the one found.
  writeFileSync(join(dir, "vitest.config.ts"), 'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { include: ["spec/**/*.spec.ts"] } });\n');
  writeFileSync(join(dir, "spec", "one.spec.ts"), 'import { expect, test } from "vitest";\ntest("one", () => expect(1 + 1).toBe(2));\n');
  const runsMs: number[] = [];
  const cpuMs: Array<number | undefined> = [];
  try {
    for (let i = 0; i < count; i++) {
      const cpuBefore = childrenCpuMs();
      const start = performance.now();
      const run = spawnSync(process.execPath, [VITEST_BIN, "run"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      if (run.status !== 0) throw new Error(`the trivial vitest run failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
      runsMs.push(performance.now() - start);
      const cpuAfter = childrenCpuMs();
      cpuMs.push(cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { runsMs, medianMs: sorted[Math.floor(sorted.length / 2)], cpuMs };
}
