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

/** How the graded test before a canary ended, as the canary learns it: from the test itself, not from the runner's records. */
interface Outcome {
  failure?: { error: unknown };
}

/**
 * Called by spec/support/graded.ts to declare each graded test (`run` is its body, as its test
 * runs it), and just after it its canary if it has one.
 */
export function declareGraded(name: string, run: () => unknown, timeout: number | undefined): void {
  const index = plan?.at.indexOf(graded++) ?? -1;
  if (index < 0) {
    test(name, run, timeout);
    return;
  }
  const before: Outcome = {};
  const check = plan!.checks[index];
  test(name, () => observed(run, before), timeout);
  test(plan!.titles[index], () => canaryCheck(before, check), timeout);
}

/** Runs a test's body as it is (synchronous or not) and keeps how it failed, if it did. */
function observed(run: () => unknown, outcome: Outcome): unknown {
  const keep = (error: unknown) => {
    outcome.failure = { error };
    throw error;
  };
  try {
    const result = run();
    return result instanceof Promise ? result.catch(keep) : result;
  } catch (error) {
    return keep(error);
  }
}

/**
 * A canary's assertion must fail. When the graded test before it failed, the canary fails with
 * that very error, so that a forgery that turns the graded code's failures into passes (by the
 * error's message, by where it was thrown) turns the canary's too; otherwise with its assertion's.
 * If the assertion does not throw (assertions neutered), the canary passes, whatever came before.
 */
async function canaryCheck(before: Outcome, check: CanaryCheck): Promise<void> {
  try {
    await FAILING[check.kind](check.actual, check.expected);
  } catch (assertion) {
    throw before.failure ? before.failure.error : assertion;
  }
}
