// What a canary is (spec/support/canary.ts declares them in a spec file, the grader's
// scripts/lib/grader/canary-plan.ts places them): kept apart from canary.ts, which loads vitest
// and fast-check to make its checks fail, so that the grader's own process need not load them.

/** The ways a canary fails: each the matcher or runner a real spec uses (canary.ts's FAILING). */
export const CANARY_KINDS = ["toBe", "toEqual", "toStrictEqual", "toMatch", "toContain", "toHaveLength", "toBeUndefined", "toThrow", "rejects", "property"] as const;
export type CanaryKind = (typeof CANARY_KINDS)[number];

/** One assertion that fails whatever the implementation under test does. */
export interface CanaryCheck {
  kind: CanaryKind;
  actual: string;
  expected: string;
}

export interface CanaryPlan {
  /** Ordinals of the graded tests (0 = the file's first) that each get a canary beside them, ascending. */
  at: number[];
  /** Per canary: declared just after its graded test rather than just before. */
  after: boolean[];
  /**
   * Per canary, its title: a graded test's title (tag included) from another spec file of the same
   * kata, and no test's title in this file. Not its neighbour's: two tests of one name side by side
   * told a forgery which ones to leave alone.
   */
  titles: string[];
  checks: CanaryCheck[];
}
