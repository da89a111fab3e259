// Times one benchmark case: warm up, then run for a fixed time budget and report the mean.
import type { BenchCase } from "../../../spec/support/bench-case.ts";

export interface Measurement {
  name: string;
  iterations: number;
  msPerOp: number;
  /** Throughput in MiB/s when the case declares its size. */
  mibPerSec?: number;
}

/** Keeps results reachable, so that the engine cannot drop the measured work as dead code. */
let sink: unknown;
export function lastResult(): unknown {
  return sink;
}

export async function measure(benchCase: BenchCase, budgetMs = 300): Promise<Measurement> {
  const warmUntil = performance.now() + budgetMs / 4;
  while (performance.now() < warmUntil) sink = await benchCase.run();
  let iterations = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budgetMs || iterations < 3) {
    sink = await benchCase.run();
    iterations++;
    now = performance.now();
  }
  const msPerOp = (now - start) / iterations;
  return {
    name: benchCase.name,
    iterations,
    msPerOp,
    ...(benchCase.bytes === undefined ? {} : { mibPerSec: benchCase.bytes / 1024 / 1024 / (msPerOp / 1000) }),
  };
}
