// One side of a speed comparison, in a worker thread of speed-child.ts: loads one implementation
// and its benchmark cases, then runs whatever round the main thread asks for and answers with the
// time per operation. The main thread waits meanwhile, so the process's CPU time is this side's.
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import type { BenchCase, BenchCases } from "../../../spec/support/bench-case.ts";

export interface SideSetup {
  /** The kata's benchmark cases, and the side's kata, each staged as JavaScript (confine.ts). */
  casesFile: string;
  kataFile: string;
  sizes?: [number, number];
}
export type SideRequest = { kind: "warm"; name: string; ms: number } | { kind: "round"; name: string; ms: number; batch: number };
export type SideReply = { kind: "ready"; names: string[] } | { kind: "warm"; msPerOp: number; clock: "cpu" | "wall" } | { kind: "round"; msPerOp: number } | { kind: "error"; message: string };

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Keeps results reachable, so that the engine cannot drop the measured work as dead code. */
export let sink: unknown;

const setup = workerData as SideSetup;
const port = parentPort!;
let cases: BenchCase[] = [];
/** Whether a case returns a promise, learnt from its first run. */
const asyncCases = new Map<BenchCase, boolean>();
try {
  const { default: make } = (await import(pathToFileURL(setup.casesFile).href)) as { default: BenchCases<unknown> };
  const impl = await import(pathToFileURL(setup.kataFile).href);
  const [min, max] = setup.sizes ?? [0, Infinity];
  cases = make(impl).filter((c) => !setup.sizes || (c.bytes !== undefined && c.bytes >= min && c.bytes <= max));
  // Every case a few times before any is timed: the code the cases share (the whole parser, say)
  // is then compiled before the first case's rounds, not during them (with --single-threaded,
  // V8 compiles on this thread, inside the timed time).
  for (let i = 0; i < 3; i++) {
    for (const c of cases) {
      try {
        sink = await c.run();
      } catch {
        // reported when the case is measured
      }
    }
  }
  port.postMessage({ kind: "ready", names: cases.map((c) => c.name) } satisfies SideReply);
} catch (error) {
  port.postMessage({ kind: "error", message: (error as Error).message ?? String(error) } satisfies SideReply);
}

port.on("message", async (request: SideRequest) => {
  try {
    const benchCase = cases.find((c) => c.name === request.name);
    if (!benchCase) throw new Error("not measured");
    let async = asyncCases.get(benchCase);
    if (async === undefined) {
      const first = benchCase.run();
      async = isPromise(first);
      sink = async ? await first : first;
      asyncCases.set(benchCase, async);
    }
    const clock = benchCase.clock ?? (async ? "wall" : "cpu");
    const batch = request.kind === "round" && !async ? request.batch : 1;
    const cpuStart = cpuMs();
    const start = performance.now();
    let ops = 0;
    while (performance.now() - start < request.ms || ops === 0) {
      for (let i = 0; i < batch; i++) {
        const result = benchCase.run();
        sink = isPromise(result) ? await result : result;
      }
      ops += batch;
    }
    const ms = clock === "cpu" ? cpuMs() - cpuStart : performance.now() - start;
    port.postMessage((request.kind === "warm" ? { kind: "warm", msPerOp: ms / ops, clock } : { kind: "round", msPerOp: ms / ops }) satisfies SideReply);
  } catch (error) {
    port.postMessage({ kind: "error", message: (error as Error).message ?? String(error) } satisfies SideReply);
  }
});
