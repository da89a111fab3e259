// The speed half of npm run compare (and of the self-test's compare check): both sides staged in
// one scratch folder (stage.ts), measured in two child processes at once, one that starts with
// your code and one that starts with the reference (speed-child.ts), and combined case by case
// (ratio.ts). Two processes, not one: a process's JIT can favour one side by 10-20% on a case
// for its whole life, and the second process gives that luck a second draw.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { quantile, speedRatio, type SpeedRatio } from "./ratio.ts";
import type { ChildResult } from "./speed-child.ts";
import { stageSides } from "./stage.ts";

export interface SpeedOptions {
  /** Time spent timing each case, both sides and all rounds together, per process. */
  budgetMs: number;
  /** Timed rounds per case in each process. */
  rounds: number;
  /** Child processes, run at the same time; every other one starts with the reference. */
  processes: number;
  /** Keeps only the cases of this many bytes (inclusive). */
  sizes?: [min: number, max: number];
  /** A child process still running after this long is killed. */
  timeoutMs: number;
}

export const COMPARE_SPEED: SpeedOptions = { budgetMs: 400, rounds: 10, processes: 2, timeoutMs: 180_000 };

export type CaseSpeed =
  | ({ name: string; clock: "cpu" | "wall"; referenceMs: number } & SpeedRatio)
  | { name: string; error: string };

function runChild(args: string[], timeoutMs: number): Promise<ChildResult[] | string> {
  return new Promise((resolvePromise) => {
    // --single-threaded: see speed-child.ts. tsx's loader by --import, so that the flag reaches V8.
    const child = spawn(process.execPath, ["--single-threaded", "--import", "tsx", "scripts/lib/compare/speed-child.ts", ...args], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out = (out + c.toString()).slice(-4_000_000)));
    child.stderr.on("data", (c: Buffer) => (err = (err + c.toString()).slice(-2_000)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").at(-1) ?? "";
      try {
        resolvePromise(JSON.parse(last) as ChildResult[]);
      } catch {
        const why = err.trim().split("\n").find((line) => /Error/.test(line));
        resolvePromise(code === null ? `stopped after ${timeoutMs / 1000} s` : `the benchmark did not run (exit ${code})${why ? `: ${why}` : ""}`);
      }
    });
  });
}

/** Measures one kata's benchmark cases on both sides. A string says why nothing was measured. */
export async function compareSpeed(kataId: string, candidateRoot: string, referenceRoot: string, scratch: string, options: SpeedOptions = COMPARE_SPEED): Promise<CaseSpeed[] | string> {
  let sides: ReturnType<typeof stageSides>;
  try {
    sides = stageSides(kataId, candidateRoot, referenceRoot, scratch);
  } catch (error) {
    return `could not copy the code to measure: ${(error as Error).message}`;
  }
  const args = (first: string) => [kataId, sides.yours, sides.reference, first, String(options.budgetMs), String(options.rounds), ...(options.sizes ? [options.sizes.join("-")] : [])];
  const runs = await Promise.all(Array.from({ length: options.processes }, (_, i) => runChild(args(i % 2 === 0 ? "yours" : "reference"), options.timeoutMs)));
  const failed = runs.find((r): r is string => typeof r === "string");
  if (failed) return failed;
  const processes = runs as ChildResult[][];
  return processes[0].map((one): CaseSpeed => {
    const all = processes.map((p) => p.find((c) => c.name === one.name));
    const failed = all.findIndex((c) => !c || "error" in c);
    if (failed >= 0) {
      const failure = all[failed];
      return { name: one.name, error: failure && "error" in failure ? failure.error : "not measured in every process" };
    }
    const rounds = all as Array<Extract<ChildResult, { yours: number[] }>>;
    try {
      return { name: one.name, clock: rounds[0].clock, referenceMs: quantile(rounds.flatMap((r) => r.reference), 0.5), ...speedRatio(rounds) };
    } catch (error) {
      return { name: one.name, error: (error as Error).message };
    }
  });
}
