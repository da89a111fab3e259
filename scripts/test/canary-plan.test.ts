// The grader's reading of the canaries (scripts/lib/grader/canary-plan.ts): a file reported as it
// was declared says nothing, whatever prefix of it a killed run managed to report; a canary that
// passes, or whose twin is reported under another name, is a forgery.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canaryFindings, planCanaries, type ReportedTest } from "../lib/grader/canary-plan.ts";
import type { CanaryPlan } from "../../spec/support/canary-kinds.ts";

const FILE = "spec/01-regex-dispatch/x.spec.ts";

/** What the reporter sends for a file declared faithfully: spec/support/canary.ts's order, canaries failing. */
function declared(names: string[], plan: CanaryPlan): ReportedTest[] {
  const tests: Array<Omit<ReportedTest, "index">> = [];
  names.forEach((name, ordinal) => {
    const j = plan.at.indexOf(ordinal);
    const graded = { name, state: "passed", canary: false };
    const canary = { name, state: "failed", canary: true };
    if (j < 0) tests.push(graded);
    else if (plan.after[j]) tests.push(graded, canary);
    else tests.push(canary, graded);
  });
  return tests.map((t, index) => ({ ...t, index }));
}

const planFor = (names: string[]): CanaryPlan => planCanaries(names.map((name) => ({ file: FILE, name })))[FILE];

/** A file's test names: distinct, as vitest requires of the grader's manifest. */
const fileNames = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 40 });

describe("canaryFindings", () => {
  test("a faithful file says nothing, and nor does any prefix of it (a run killed while it reported)", () => {
    fc.assert(
      fc.property(fileNames, fc.nat(), (names, cut) => {
        const plan = planFor(names);
        const tests = declared(names, plan);
        expect(canaryFindings(FILE, tests, plan)).toEqual([]);
        expect(canaryFindings(FILE, tests.slice(0, cut % (tests.length + 1)), plan)).toEqual([]);
      }),
    );
  });

  test("a run cut between a canary and its twin, with the test on the other side reported: nothing (it was once a forgery)", () => {
    const names = ["a", "b", "c"];
    const plan: CanaryPlan = { at: [1], after: [false], checks: [{ kind: "toBe", actual: "x", expected: "y" }] };
    const tests = declared(names, plan); // a, canary(b), b, c
    expect(tests.map((t) => [t.name, t.canary])).toEqual([["a", false], ["b", true], ["b", false], ["c", false]]);
    expect(canaryFindings(FILE, tests.slice(0, 2), plan)).toEqual([]);
  });

  test("a canary that passes is a forgery", () => {
    fc.assert(
      fc.property(fileNames, fc.nat(), (names, pick) => {
        const plan = planFor(names);
        const tests = declared(names, plan);
        const canaries = tests.filter((t) => t.canary);
        canaries[pick % canaries.length].state = "passed";
        expect(canaryFindings(FILE, tests, plan).join("\n")).toMatch(/a test that must fail passed/);
      }),
    );
  });

  test("a twin reported under another name, on either side of its canary, is a forgery", () => {
    fc.assert(
      fc.property(fileNames, fc.nat(), fc.boolean(), (names, pick, after) => {
        const plan = planFor(names);
        plan.after = plan.after.map(() => after);
        const tests = declared(names, plan);
        const canary = tests.filter((t) => t.canary)[pick % plan.at.length];
        const twin = tests[after ? canary.index - 1 : canary.index + 1];
        expect(twin.name).toBe(canary.name);
        twin.name = `${twin.name} (renamed)`;
        expect(canaryFindings(FILE, tests, plan).join("\n")).toMatch(/no twin named/);
      }),
    );
  });
});
