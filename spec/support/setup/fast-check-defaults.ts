// Every property in every spec runs with the same defaults, so that the grader's `--seed N`
// replays a whole run and `FC_NUM_RUNS` can raise the effort without touching a spec.
import fc from "fast-check";
import { FC_INTERRUPT_MS } from "../time-limits.ts";

const numRuns = Number(process.env.FC_NUM_RUNS ?? "200");
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

fc.configureGlobal({
  numRuns: Number.isFinite(numRuns) && numRuns > 0 ? numRuns : 200,
  ...(seed !== undefined && Number.isFinite(seed) ? { seed } : {}),
  // A property whose shrinking runs longer than this reports the unshrunk counterexample rather
  // than eating the test's whole time budget on a slow candidate implementation. Far above what
  // any property needs on the reference under load, below vitest's testTimeout: time-limits.ts.
  interruptAfterTimeLimit: FC_INTERRUPT_MS,
  markInterruptAsFailure: true,
  // Put the failing check's own message into the report, so the grader can show the candidate
  // "expected 3 calls, got 2" rather than only "Property failed after 1 tests".
  includeErrorInReport: true,
});
