// What the grader hands vitest's main process for one graded run: in a file that the process
// deletes as soon as it has read it, before any test worker starts, and never in the environment
// the workers inherit.
import type { CanaryPlan } from "../../../spec/support/canary-kinds.ts";

export interface GradeControl {
  /** The sealed workspace (sealed-workspace.ts): vite's root and the run's working folder. */
  root: string;
  /** The graded katas: one vitest project each, so that no test process runs two katas' code. */
  kataIds: string[];
  /** Test processes at once. */
  maxWorkers: number;
  /** The real path of the project's node_modules: the only place outside the workspace a module may come from. */
  nodeModules: string;
  /** Where the verdicts go (signed-channel.ts), in the grader's private folder. */
  results: string;
  key: string;
  /** Per spec file (path as in the manifest): where its canaries go. */
  canaries: Record<string, CanaryPlan>;
  /** Node's permission flags for the test workers; empty where the platform has none. */
  confine: string[];
}

/** The one variable that names the control file; deleted from the environment once read. */
export const CONTROL_ENV = "GRADE_CONTROL";
