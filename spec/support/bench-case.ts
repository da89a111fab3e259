// A benchmark input of one kata, measured on any implementation by `npm run compare` (candidate
// against reference) and `npm run bench` (reference against its peers). Each kata lists its cases
// in spec/NN-name/bench-cases.ts as a function of the implementation's module:
//
//   export default (impl: typeof import("../../solutions/NN-name/index.ts")) => BenchCase[]
//
// A case only uses the kata's public API, so the same list measures any implementation, and its
// name is stable, so two runs (or two implementations) can be matched case by case.

export interface BenchCase {
  /** What is measured, for example "BFCL replies as text, 64 KiB". Unique within a kata. */
  name: string;
  /** Size of the input, when a throughput in bytes per second means something. */
  bytes?: number;
  /** How many things one operation handles (calls validated, loop steps...), when a time per
   * item means more than a time per operation: `{ count: 1747, unit: "call" }`. */
  items?: { count: number; unit: string };
  /**
   * One operation; its result is kept so that the work cannot be optimised away. It may return
   * a promise (kata 3): the operation then lasts until the promise settles.
   */
  run(): unknown;
  /**
   * The clock that times it. By default CPU time for a synchronous case (other processes' load
   * does not count) and wall time for one that returns a promise (waiting is part of its work).
   * An asynchronous case that never waits on timers or I/O may ask for "cpu".
   */
  clock?: "cpu" | "wall";
}

export type BenchCases<Impl> = (impl: Impl) => BenchCase[];
