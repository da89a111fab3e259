// Canaries: tests that must fail, slipped in among a spec file's graded tests when the grader
// runs them, to reveal a forgery (tests reported as passing, assertions that no longer throw, test
// bodies replaced, the graded code's failures rewritten). The grader chooses per run where they
// stand (just after a graded test chosen at random) and what each is titled (the words of a test
// of another spec file of the kata, the tag of the test before it:
// scripts/lib/grader/canary-plan.ts), so that nothing in the file's list of tests marks them out.
// (Each used to take its neighbour's name, and a forgery that passed every test but those met
// twice side by side scored 94 with no code.) A canary that passes marks the kata as tampered
// with. Code that reads this run's plan from the runner's memory can still tell them apart: the
// interviewer guide's "What remains". Outside the grader (npm run spec, watch) no canary is armed
// and this file does nothing.
import fc from "fast-check";
import { expect, test } from "vitest";
import type { CanaryCheck, CanaryKind, CanaryPlan } from "./canary-kinds.ts";

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

/**
 * Called by spec/support/graded.ts to declare each graded test: the test, and just after it its
 * canary if it has one. `run` is the graded test's body, as its test runs it.
 */
export function declareGraded(run: () => unknown, declare: () => void, timeout: number | undefined): void {
  const index = plan?.at.indexOf(graded++) ?? -1;
  declare();
  if (index >= 0) test(plan!.titles[index], () => canaryBody(run, plan!.checks[index]), timeout);
}

/**
 * A canary runs the body of the graded test before it again, then an assertion that must fail.
 * It fails with the graded code's own failure when that code fails the body, so that a forgery
 * that turns the graded code's failures into passes (by the error, by where it was thrown) turns
 * the canary's too; with the assertion's when the body passes. If the assertion does not throw
 * (assertions neutered), the canary passes, whatever the body did. It stands after the test whose
 * body it runs, so a body that never ends stops that test first, and is not run twice.
 */
async function canaryBody(run: () => unknown, check: CanaryCheck): Promise<void> {
  let failure: { error: unknown } | undefined;
  try {
    await run();
  } catch (error) {
    failure = { error };
  }
  try {
    await FAILING[check.kind](check.actual, check.expected);
  } catch (assertion) {
    throw failure ? failure.error : assertion;
  }
}
