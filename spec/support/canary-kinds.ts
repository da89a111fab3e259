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
  /** Ordinals of the graded tests (0 = the file's first) that each get a canary just after them, ascending. */
  at: number[];
  /**
   * Per canary, its title: the words of a graded test of another spec file of the same kata (words
   * no test of this file uses) and the tag of the graded test it stands beside. Not its
   * neighbour's name: two tests of one name side by side told a forgery which ones to leave alone.
   */
  titles: string[];
  checks: CanaryCheck[];
}
