// The self-test's load check (verdicts that do not depend on the machine's load): the references,
// graded while busy processes hold every core, still score 100 on every kata. It proves that the
// time limits (spec/support/time-limits.ts, the grader's STALL_MS) leave a correct implementation
// its score on a busy machine, and that the linear-time and CPU-time checks hold under load.
//
// What it grades, and why that is enough: the references on every kata's visible specs, whole.
// A narrower run was measured and not worth its blind spot: the spec files that hold a test of
// 50 ms or more (the properties, the linear-time checks, the BFCL data: 9 of 24 files) hold over
// 90% of the test time, so grading only them saves little more than loading the other 15 files
// (a few seconds) while leaving out every new slow test written in another file. The bank is left out: its tests are of the same kinds as the visible
// ones (the references' ordinary grade checks its verdicts) and would add a quarter to the cost.
import { startBusyCores } from "./busy-cores.ts";

interface GradeReport {
  tests: Array<{ name: string; status: string; message: string | null }>;
  x_katas: Array<{ kata: string; score: number; problems: string[] }>;
}

/** self-test.ts's grade(): runs `npm run grade` with these arguments and reads its JSON report. */
type Grade = (label: string, args: string[]) => Promise<{ report?: GradeReport; problems: string[] }>;

/** The shape of a self-test check (the `Check` interface of scripts/self-test.ts). */
interface LoadCheck {
  name: string;
  run(): Promise<string[]>;
  cost: number;
}

export function loadCheck(grade: Grade): LoadCheck {
  return {
    name: "under load (a busy process on every core), the references still score 100 on every kata's visible specs",
    cost: 20,
    async run() {
      const busy = startBusyCores();
      try {
        const { report, problems } = await grade("under-load", ["--impl", "solutions"]);
        const { spinners, stopped } = busy.state();
        if (stopped > 0) problems.push(`${stopped} of ${spinners} busy processes stopped before the grade ended: the load was not there throughout`);
        if (!report) return problems;
        for (const kata of report.x_katas) {
          if (kata.score !== 100) problems.push(`${kata.kata} scores ${kata.score} under load, not 100${kata.problems.length > 0 ? `: ${kata.problems.join("; ")}` : ""}`);
        }
        for (const t of report.tests) if (t.status !== "pass") problems.push(`${t.name}: ${t.status} under load: ${(t.message ?? "").split("\n")[0]}`);
        return problems;
      } finally {
        busy.stop();
      }
    },
  };
}
