// Canaries: tests that must fail, slipped in among a spec file's graded tests when the grader
// runs them, to reveal a forgery (tests reported as passing, assertions that no longer throw, test
// bodies replaced). The grader chooses per run where they stand (just before or just after a
// graded test chosen at random) and what each is titled (the words of a test of another spec file
// of the kata, the tag of its neighbour: scripts/lib/grader/canary-plan.ts), so that nothing in
// the file's list of tests marks them out. (Each used to take its neighbour's name, and a forgery
// that passed every test but those met twice side by side scored 94 with no code.) A canary that
// passes marks the kata as tampered with. Outside the grader (npm run spec, watch) no canary is
// armed and this file does nothing.
import fc from "fast-check";
import { expect, test } from "vitest";
import type { CanaryKind, CanaryPlan } from "./canary-kinds.ts";

// Each kind uses the matcher or runner a real spec uses, so that neutering any one of them shows.
const FAILING: Record<CanaryKind, (actual: string, expected: string) => unknown> = {
  toBe: (a: string, e: string) => expect(a).toBe(e),
  toEqual: (a: string, e: string) => expect({ value: [a] }).toEqual({ value: [e] }),
  toStrictEqual: (a: string, e: string) => expect([a]).toStrictEqual([e]),
  toMatch: (a: string, e: string) => expect(a).toMatch(e),
  toContain: (a: string, e: string) => expect([a]).toContain(e),
  toHaveLength: (a: string, e: string) => expect(a).toHaveLength(a.length + e.length),
  toBeUndefined: (a: string) => expect(a).toBeUndefined(),
  toThrow: (a: string) => expect(() => a).toThrow(),
  rejects: async (a: string) => {
    await expect(Promise.resolve(a)).rejects.toThrow();
  },
  property: (a: string, e: string) => fc.assert(fc.property(fc.constant(a), (value) => value === e)),
};

let plan: CanaryPlan | undefined;
let graded = 0;

/** Called by the grader's transform at the top of a spec file, before its tests are declared. */
export function armCanaries(armed: CanaryPlan): void {
  plan = armed;
  graded = 0;
}

/** Called by spec/support/graded.ts to declare each graded test: the test, and its canary if it has one. */
export function declareGraded(name: string, declare: () => void, timeout: number | undefined): void {
  const index = plan?.at.indexOf(graded++) ?? -1;
  if (index < 0) return declare();
  const check = plan!.checks[index];
  const canary = () => test(plan!.titles[index], () => FAILING[check.kind](check.actual, check.expected), timeout);
  if (plan!.after[index]) {
    declare();
    canary();
  } else {
    canary();
    declare();
  }
}
