// The canaries' plan and the grader's reading of them (scripts/lib/grader/canary-plan.ts): a file
// reported as it was declared says nothing, whatever prefix of it a killed run managed to report;
// a canary that passes is a forgery; and nothing in a file's list of tests tells a canary from a
// graded test (no name met twice, every title one the kata's specs use).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canaryFindings, canaryNames, planCanaries, type ReportedTest } from "../lib/grader/canary-plan.ts";
import type { ManifestTest } from "../lib/grader/manifest.ts";
import type { CanaryPlan } from "../../spec/support/canary-kinds.ts";
import { TAG_PATTERN } from "../../spec/support/test-tag.ts";

const KATA = "spec/01-regex-dispatch";
const titleStart = (name: string) => (name.lastIndexOf(" > ") < 0 ? 0 : name.lastIndexOf(" > ") + 3);
const titleOf = (name: string) => name.slice(titleStart(name));

/** What the reporter sends for a file declared faithfully: spec/support/canary.ts's order, canaries failing. */
function declared(names: string[], plan: CanaryPlan): ReportedTest[] {
  const tests: Array<Omit<ReportedTest, "index">> = [];
  names.forEach((name, ordinal) => {
    const j = plan.at.indexOf(ordinal);
    const graded = { name, state: "passed", canary: false };
    // Declared in the graded test's describe block, under the plan's title.
    const canary = { name: `${name.slice(0, titleStart(name))}${plan.titles[j]}`, state: "failed", canary: true };
    tests.push(...(j < 0 ? [graded] : [graded, canary]));
  });
  return tests.map((t, index) => ({ ...t, index }));
}

/** A kata's spec files and their tests, as the manifest lists them: full names, unique in the kata. */
const kataFiles = fc
  .uniqueArray(fc.tuple(fc.constantFrom("", "a > ", "b > c > "), fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom("[L1 w1]", "[L2 w3]")).map(([group, title, tag]) => `${group}${title} ${tag}`), { minLength: 2, maxLength: 80 })
  .chain((names) => fc.tuple(fc.constant(names), fc.array(fc.nat(3), { minLength: names.length, maxLength: names.length })))
  .map(([names, files]): ManifestTest[] => names.map((name, i) => ({ file: `${KATA}/f${files[i]}.spec.ts`, name })));

const fileOf = (tests: ManifestTest[], file: string) => tests.filter((t) => t.file === file).map((t) => t.name);

describe("planCanaries", () => {
  const textOf = (name: string) => titleOf(name).replace(TAG_PATTERN, "");
  const tagOf = (name: string) => TAG_PATTERN.exec(name)?.[0] ?? "";

  test("a canary has its neighbour's tag and the words of a test of another file of the kata, words its own file does not use; narrowed, of a test the run leaves out", () => {
    fc.assert(
      fc.property(kataFiles, fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), fc.boolean(), (tests, picks, narrowed) => {
        const only = narrowed ? new Set(tests.filter((_, i) => picks[i]).map((t) => t.name)) : undefined;
        for (const [file, plan] of Object.entries(planCanaries(tests, only))) {
          const names = fileOf(tests, file);
          const own = new Set(names.map(textOf));
          const others = tests.filter((t) => t.file !== file && !own.has(textOf(t.name)));
          const left = others.filter((t) => !only?.has(t.name));
          expect(plan.titles).toHaveLength(plan.at.length);
          expect(new Set(plan.titles.map(textOf)).size).toBe(plan.titles.length);
          plan.titles.forEach((title, j) => {
            expect(tagOf(title)).toBe(tagOf(names[plan.at[j]]));
            if (only) expect(only.has(names[plan.at[j]]), "a canary stands beside a chosen test").toBe(true);
            // The precautions hold whenever the kata leaves words enough for every canary of the file.
            if (left.length >= plan.at.length + 2 && new Set(left.map((t) => textOf(t.name))).size >= plan.at.length) {
              expect(own.has(textOf(title)), title).toBe(false);
              expect(left.map((t) => textOf(t.name))).toContain(textOf(title));
            }
          });
        }
      }),
    );
  });

  test("faithfully declared, a file's full names stay distinct: no two tests of one name tell the canaries apart", () => {
    fc.assert(
      fc.property(kataFiles, (tests) => {
        for (const [file, plan] of Object.entries(planCanaries(tests))) {
          const own = new Set(fileOf(tests, file).map(textOf));
          if (new Set(tests.filter((t) => t.file !== file && !own.has(textOf(t.name))).map((t) => textOf(t.name))).size < plan.at.length) continue;
          const names = declared(fileOf(tests, file), plan).map((t) => t.name);
          expect(new Set(names).size).toBe(names.length);
        }
      }),
    );
  });

  test("canaryNames gives each canary the full name it is declared under, so that a narrowed run's list of tests to run names it", () => {
    fc.assert(
      fc.property(kataFiles, (tests) => {
        const plans = planCanaries(tests);
        const declaredCanaries = Object.entries(plans).flatMap(([file, plan]) => declared(fileOf(tests, file), plan).filter((t) => t.canary).map((t) => t.name));
        expect(canaryNames(tests, plans).sort()).toEqual(declaredCanaries.sort());
      }),
    );
  });
});

describe("canaryFindings", () => {
  test("a faithful file says nothing, and nor does any prefix of it (a run killed while it reported)", () => {
    fc.assert(
      fc.property(kataFiles, fc.nat(), (tests, cut) => {
        for (const [file, plan] of Object.entries(planCanaries(tests))) {
          const reported = declared(fileOf(tests, file), plan);
          expect(canaryFindings(file, reported, plan)).toEqual([]);
          expect(canaryFindings(file, reported.slice(0, cut % (reported.length + 1)), plan)).toEqual([]);
        }
      }),
    );
  });

  test("a canary that passes is a forgery", () => {
    fc.assert(
      fc.property(kataFiles, fc.nat(), (tests, pick) => {
        const [file, plan] = Object.entries(planCanaries(tests))[0];
        const reported = declared(fileOf(tests, file), plan);
        const canaries = reported.filter((t) => t.canary);
        canaries[pick % canaries.length].state = "passed";
        expect(canaryFindings(file, reported, plan).join("\n")).toMatch(/a test that must fail passed/);
      }),
    );
  });
});
