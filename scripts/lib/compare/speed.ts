// The speed half of npm run compare (and of the self-test's compare check): both sides staged as
// JavaScript in one scratch folder, measured in two confined child processes at once (confine.ts),
// one that starts with your code and one that starts with the reference (speed-child.ts), and
// combined case by case (ratio.ts). Two processes, not one: a process's JIT can favour one side by
// 10-20% on a case for its whole life, and the second process gives that luck a second draw.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { detectConfinement } from "../../../spec/support/sandbox/confinement.ts";
import { PROJECT_ROOT } from "../impl-root.ts";
import { confinedCommand, stageConfined, StagingError, type ConfinedRun } from "./confine.ts";
import { quantile, speedRatio, type SpeedRatio } from "./ratio.ts";
import type { ChildResult } from "./speed-child.ts";

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

function runChild(staged: ConfinedRun, args: string[], timeoutMs: number): Promise<ChildResult[] | string> {
  return new Promise((resolvePromise) => {
    // --single-threaded: see speed-child.ts.
    const launch = confinedCommand(staged, args);
    const child = spawn(launch.command, launch.args, {
      cwd: staged.root,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: {},
      ...(launch.uid === undefined ? {} : { uid: launch.uid, gid: launch.gid }),
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
  if (!existsSync(join(PROJECT_ROOT, "spec", kataId, "bench-cases.ts"))) return [];
  let staged: ConfinedRun;
  try {
    mkdirSync(scratch, { recursive: true });
    // Another user (the confinement where namespaces are refused to root) must reach the staged folder.
    if (detectConfinement().level === "other-user") for (const dir of [dirname(scratch), scratch]) chmodSync(dir, 0o711);
    staged = await stageConfined(kataId, candidateRoot, referenceRoot, scratch);
  } catch (error) {
    return error instanceof StagingError ? error.message : `could not stage the code to measure: ${(error as Error).message}`;
  }
  const args = (first: string) => [first, String(options.budgetMs), String(options.rounds), ...(options.sizes ? [options.sizes.join("-")] : [])];
  const runs = await Promise.all(Array.from({ length: options.processes }, (_, i) => runChild(staged, args(i % 2 === 0 ? "yours" : "reference"), options.timeoutMs)));
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
