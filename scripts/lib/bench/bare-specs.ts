// The floor under the grader's time: the same spec files, on the references, run by vitest alone
// in the cheapest way it offers. No sealed workspace, no canaries, no confined workers, no signed
// verdicts, no test processes per kata, and no isolation at all between spec files: a worker
// thread per core (cheaper to start than a process, about 5% of the run here; the grader cannot
// use them, since a thread shares the memory of vitest's process, the verdicts' key included)
// runs file after file and keeps every module it loaded. What is left is the specs' own cost,
// plus vitest's start. A grade cannot be cheaper than this; the difference between the two is
// what the grader's safety costs.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { childrenCpuMs } from "./trivial-run.ts";

const VITEST_BIN = join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");

export interface BareRun {
  ms: number;
  /** CPU time of vitest and its test processes, where the platform tells (Linux). */
  cpuMs: number | undefined;
  /** Tests that passed, as vitest counts them. */
  passed: number;
}

/** One plain vitest run of these katas' visible spec files on solutions/, a worker thread per core. */
export function timeBareSpecs(kataIds: string[]): BareRun {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    [VITEST_BIN, "run", ...kataIds.map((id) => `spec/${id}/`), "--pool=threads", "--isolate=false", `--maxWorkers=${availableParallelism()}`, "--reporter=dot"],
    { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, KATA_IMPL: "solutions", NO_COLOR: "1" }, maxBuffer: 64 << 20 },
  );
  const ms = performance.now() - start;
  const cpuAfter = childrenCpuMs();
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`the bare vitest run of the specs failed (exit ${run.status}): ${output.slice(-2000)}`);
  return {
    ms,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    passed: Number(/Tests\s+(\d+) passed/.exec(output)?.[1] ?? 0),
  };
}
