// A benchmark input of one kata, measured on any implementation by `npm run compare` (candidate
// against reference) and `npm run bench` (reference against its peers). Each kata lists its cases
// in spec/NN-name/bench-cases.ts as a function of the implementation's module.

export interface BenchCase {
  /** What is measured, for example "BFCL replies, 64 KiB". */
  name: string;
  /** Size of the input, when a throughput in bytes per second means something. */
  bytes?: number;
  /** One operation; its result is kept so that the work cannot be optimised away. */
  run(): unknown;
}

export type BenchCases<Impl> = (impl: Impl) => BenchCase[];
