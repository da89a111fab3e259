// What the grader tells vitest's main process about a graded run, through its environment. None
// of it is secret: no graded code runs in vitest's processes, and a sandbox gets an environment of
// its own (spec/support/sandbox/confinement.ts).
export const GRADE_ENV = {
  /** Where the verdicts go, one JSON line each (graded.vitest.config.ts's reporter). */
  results: "GRADE_RESULTS",
  /** The graded katas, comma-separated: one vitest project each. */
  katas: "GRADE_KATAS",
  /** Test processes at once. */
  maxWorkers: "GRADE_MAX_WORKERS",
} as const;
