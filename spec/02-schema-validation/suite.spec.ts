// The official JSON Schema Test Suite (draft 2020-12): every group whose schema stays inside the
// kata's subset, one graded test per file, the failing case named in the assertion message.
import { describe, expect } from "vitest";
import { validate, type Schema } from "@impl/02-schema-validation";
import { l2 } from "../support/graded.ts";
import { loadSupportedSuite } from "./suite-filter.ts";

const suite = loadSupportedSuite();
console.log(
  `JSON Schema Test Suite: running ${suite.tests} tests in ${suite.groups} groups from ${suite.files.length} files ` +
    `(${suite.skippedGroups} groups skipped: they use keywords outside the kata's subset)`,
);

describe("3. Validate against the keyword subset", () => {
  describe("the official JSON Schema Test Suite (draft 2020-12)", () => {
    l2("the suite has several hundred supported tests", () => {
      expect(suite.tests).toBeGreaterThan(500);
      expect(validate(true, 1).valid).toBe(true);
    });
    for (const file of suite.files) {
      const count = file.groups.reduce((n, g) => n + g.tests.length, 0);
      l2(`${file.name}: all ${count} tests`, () => {
        const failures: string[] = [];
        for (const group of file.groups) {
          for (const t of group.tests) {
            let got: string;
            try {
              got = String(validate(group.schema as Schema, t.data).valid);
            } catch (e) {
              got = `threw ${(e as Error).message}`;
            }
            if (got !== String(t.valid)) {
              failures.push(`"${group.description}" / "${t.description}": expected valid=${t.valid}, got ${got}`);
            }
          }
        }
        expect(failures, `${failures.length} of ${count} failed, first: ${failures[0]}`).toEqual([]);
      });
    }
  });
});
