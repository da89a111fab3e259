// One candidate's grade: `npm run grade`'s own script (scripts/grade.ts) in a child process, so
// that every candidate is graded exactly as `npm run grade -- --impl DIR` grades it (each kata in
// its own sandbox), and one candidate's grade never shares a process with another's. A wall-clock
// budget bounds the child: past it, the child and every process under it are killed, and the
// candidate alone loses its grade.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { killTree } from "./kill-tree.ts";

const GRADE_SCRIPT = join(PROJECT_ROOT, "scripts", "grade.ts");
/** Kept of the child's output: its table and the first failures, never megabytes. */
const OUTPUT_TAIL = 32 * 1024;

export interface GradeChildOptions {
  implRoot: string;
  /** Where the child writes results.json and report.html. */
  outDir: string;
  /** The rest of grade's options (--seed, --kata, --bank, --timeout, --jobs), passed as they are. */
  gradeArgs: string[];
  budgetMs: number;
}

export interface GradeChildOutcome {
  exitCode: number | null;
  overBudget: boolean;
  wallMs: number;
  /** The end of what the child printed. */
  output: string;
  results: string;
  report: string;
}

/** The grades running now: a round stopped by Ctrl-C must not leave them running. */
const running = new Set<number>();

/** Kills every grade this process started that still runs. */
export function killRunningGrades(): void {
  for (const pid of running) killTree(pid);
  running.clear();
}

export function gradeChild(options: GradeChildOptions): Promise<GradeChildOutcome> {
  const results = join(options.outDir, "results.json");
  const report = join(options.outDir, "report.html");
  rmSync(results, { force: true });
  rmSync(report, { force: true });
  // The child's own scratch (grade's private work folder): removed here even when the child is killed.
  const scratch = mkdtempSync(join(tmpdir(), "tuk-round-"));
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ["--import", "tsx", GRADE_SCRIPT, "--impl", options.implRoot, "--json", results, "--html", report, ...options.gradeArgs], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, TMPDIR: scratch, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      // A group of its own, so that killing it never reaches the round.
      detached: true,
    });
    if (child.pid !== undefined) running.add(child.pid);
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let overBudget = false;
    const budget = setTimeout(() => {
      overBudget = true;
      // Its scratch (bundles, verdicts) is removed with `scratch` below.
      killTree(child.pid!);
    }, options.budgetMs);
    const finish = (exitCode: number | null) => {
      clearTimeout(budget);
      if (child.pid !== undefined) running.delete(child.pid);
      rmSync(scratch, { recursive: true, force: true });
      resolvePromise({ exitCode, overBudget, wallMs: Date.now() - started, output, results: existsSync(results) ? results : "", report: existsSync(report) ? report : "" });
    };
    child.on("close", (code) => finish(code));
    child.on("error", (error) => {
      output += String(error);
      finish(null);
    });
  });
}
