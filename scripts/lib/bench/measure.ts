// Times benchmark cases: warm up, then run each for a fixed time budget and report the time per
// operation. Cases meant to be compared (the reference beside Ajv, beside JSON.parse) are measured
// side by side: in interleaved rounds, each round visiting every case, and the median round is
// kept. A burst of load from another process then hits every case of the comparison alike instead
// of skewing one of them.
//
// Which clock: a synchronous case is timed in CPU time of this process (process.cpuUsage: user +
// system), which the other processes of a busy machine do not inflate; wall time would count the
// time the scheduler gave to them. An asynchronous case (kata 3) is timed in wall time, because
// waiting (for a 100 ms tool, for timers) is part of what it does, unless it asks for CPU time
// (the loop-overhead cases, which never wait).
import type { BenchCase } from "../../../spec/support/bench-case.ts";

export interface Measurement {
  name: string;
  /** Operations timed (warm-up excluded), over all rounds: at least one per round. */
  iterations: number;
  /** Median over the rounds of the mean time per operation, on `clock`. */
  msPerOp: number;
  /** The case's own choice, else "cpu" for synchronous cases and "wall" for the ones that return a promise. */
  clock: "cpu" | "wall";
  /** The same median in wall time (equal to msPerOp for "wall" cases). */
  wallMsPerOp: number;
  /** Throughput in MiB/s when the case declares its size. */
  mibPerSec?: number;
  /** Microseconds per item when the case declares its items (per call, per step...). */
  usPerItem?: number;
  /** (slowest round - fastest round) / median: how much to trust the figure; 0 with one round. */
  spread: number;
}

export interface MeasureOptions {
  /** Time spent timing each case, all rounds together (warm-up not included). Default 300 ms. */
  budgetMs?: number;
  /** Interleaved rounds. Default 5 (1 for a single case measured alone). */
  rounds?: number;
}

/** Keeps results reachable, so that the engine cannot drop the measured work as dead code. */
let sink: unknown;
export function lastResult(): unknown {
  return sink;
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/** One case's state across rounds. */
interface Runner {
  benchCase: BenchCase;
  async: boolean;
  clock: "cpu" | "wall";
  /** Synchronous operations run this many at a time between two clock reads: reading the clock
   * costs about as much as a fast operation (Ajv on a small object), so it must not be in every one. */
  batch: number;
  iterations: number;
  /** Per round: time per operation on the case's clock, and in wall time. */
  roundTimes: number[];
  roundWallTimes: number[];
}

/** Runs the case until `ms` have passed on its clock (at least once), then sizes its batches from
 * the mean time per operation. On the CPU clock a busy machine does not shorten the warm-up: the
 * case gets the same work done, and the engine the same time to optimise it, as on an idle one. */
async function warmUp(benchCase: BenchCase, ms: number): Promise<Runner> {
  const wallStart = performance.now();
  const cpuStart = cpuMs();
  const first = benchCase.run();
  const async = isPromise(first);
  sink = async ? await first : first;
  const clock = benchCase.clock ?? (async ? "wall" : "cpu");
  const elapsed = clock === "cpu" ? () => cpuMs() - cpuStart : () => performance.now() - wallStart;
  let ops = 1;
  while (elapsed() < ms) {
    sink = async ? await benchCase.run() : benchCase.run();
    ops++;
  }
  const msPerOp = elapsed() / ops;
  const batch = async ? 1 : Math.max(1, Math.min(10_000, Math.floor(0.5 / Math.max(msPerOp, 1e-6))));
  return { benchCase, async, clock, batch, iterations: 0, roundTimes: [], roundWallTimes: [] };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** One round of one case: whole batches until `ms` of wall time have passed (at least one). */
async function timeRound(runner: Runner, ms: number): Promise<void> {
  const { benchCase, batch } = runner;
  let ops = 0;
  const cpuStart = cpuMs();
  const start = performance.now();
  let now = start;
  while (now - start < ms || ops === 0) {
    if (runner.async) {
      sink = await benchCase.run();
      ops++;
    } else {
      for (let i = 0; i < batch; i++) sink = benchCase.run();
      ops += batch;
    }
    now = performance.now();
  }
  const cpu = cpuMs() - cpuStart;
  runner.iterations += ops;
  runner.roundWallTimes.push((now - start) / ops);
  runner.roundTimes.push(runner.clock === "cpu" ? cpu / ops : (now - start) / ops);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function result(runner: Runner): Measurement {
  const { benchCase, roundTimes } = runner;
  const msPerOp = median(roundTimes);
  return {
    name: benchCase.name,
    iterations: runner.iterations,
    msPerOp,
    clock: runner.clock,
    wallMsPerOp: median(runner.roundWallTimes),
    ...(benchCase.bytes === undefined ? {} : { mibPerSec: benchCase.bytes / 1024 / 1024 / (msPerOp / 1000) }),
    ...(benchCase.items === undefined ? {} : { usPerItem: (msPerOp * 1000) / benchCase.items.count }),
    spread: (Math.max(...roundTimes) - Math.min(...roundTimes)) / msPerOp,
  };
}

/**
 * Measures the cases side by side: each is warmed up (a quarter of its budget), then timed in
 * `rounds` interleaved rounds whose order rotates, so that no case always runs first or last.
 * Returns one measurement per case, in the order given.
 */
export async function measureSideBySide(cases: readonly BenchCase[], options: MeasureOptions = {}): Promise<Measurement[]> {
  const budgetMs = options.budgetMs ?? 300;
  const rounds = Math.max(1, options.rounds ?? (cases.length > 1 ? 5 : 1));
  const runners: Runner[] = [];
  for (const benchCase of cases) runners.push(await warmUp(benchCase, budgetMs / 4));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < runners.length; k++) await timeRound(runners[(round + k) % runners.length], budgetMs / rounds);
  }
  return runners.map(result);
}

/** Measures one case alone: warm up, then time it for `budgetMs`. */
export async function measure(benchCase: BenchCase, budgetMs = 300): Promise<Measurement> {
  const [measurement] = await measureSideBySide([benchCase], { budgetMs, rounds: 1 });
  return measurement;
}
