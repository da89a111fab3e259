// The order in which failing tests are worth fixing, the README's order: the lowest level first
// (L1 is what the interview's first stage asks for), then the tasks as the README numbers them,
// and within a task the examples that state a rule before the properties and bulk real-data tests
// that check it hundreds of times (those fail for the same reason, and say less about why).
// One order for every report: grade's next steps and failure list, watch's "next", the HTML report.
import { PROPERTY_WEIGHT } from "../../../spec/support/test-tag.ts";
import { LEVELS } from "./score.ts";
import type { TestResult } from "./test-result.ts";

/**
 * Spec files of real-data tests: BFCL's ground truth (every kata's bfcl.spec.ts) and the official
 * JSON Schema Test Suite (kata 2's suite.spec.ts). They check a whole task against hundreds of
 * real cases at once: worth running last, once the task's own examples pass.
 */
const BULK_FILE = /\/(bfcl|suite)\.spec\.ts$/;
/** 0 an example, 1 a property, 2 a bulk real-data test. Examples keep their files' order: a task's fine print comes after its rule there. */
function kind(test: Pick<TestResult, "file" | "weight">): number {
  if (BULK_FILE.test(test.file)) return 2;
  return test.weight >= PROPERTY_WEIGHT ? 1 : 0;
}

/** A test outside any numbered task comes after every task. */
const task = (test: Pick<TestResult, "taskId">) => test.taskId ?? Number.MAX_SAFE_INTEGER;

/**
 * `tests` in the order to work on them: visible before the held-out bank, then level, task,
 * kind (see kind()), then the order they came in (the spec files' own). A new array; stable.
 */
export function inTeachingOrder<T extends Pick<TestResult, "file" | "weight" | "level" | "taskId" | "bank">>(tests: readonly T[]): T[] {
  const keys = (t: T) => [Number(t.bank), LEVELS.indexOf(t.level), task(t), kind(t)];
  return tests
    .map((test, index) => ({ test, index, key: keys(test) }))
    .sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
      return a.index - b.index;
    })
    .map(({ test }) => test);
}

/** The test to make pass next: the first not passing in teaching order, if any. */
export function nextTest<T extends Pick<TestResult, "file" | "weight" | "level" | "taskId" | "bank" | "status">>(tests: readonly T[], skip: (test: T) => boolean = () => false): T | undefined {
  return inTeachingOrder(tests.filter((t) => t.status !== "pass" && !skip(t)))[0];
}
