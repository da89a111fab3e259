// A failed toEqual / toStrictEqual says first where the values part (first-difference.ts), then
// vitest's own line, then, in a graded run, the last call the test made into the kata
// (last-call.ts). Runs in the specs' process, on the values the specs hold.
import { chai, expect } from "vitest";
import { firstDifference } from "../first-difference.ts";
import { INPUT_MARK, lastCall } from "../last-call.ts";

// Once per process: a run that shares its modules' realm between spec files (the grader's, and
// watch's warm runner) runs this setup file before each file, and chai's Assertion is the same
// one each time: overwritten again, the difference was said once more in every later file.
const ONCE = Symbol.for("tool-use-katas.first-difference");
const prototype = chai.Assertion.prototype as unknown as Record<symbol, boolean>;
for (const method of prototype[ONCE] ? [] : ["toEqual", "toStrictEqual"]) {
  chai.util.overwriteMethod(chai.Assertion.prototype, method, (original: (...args: unknown[]) => unknown) =>
    function (this: object, ...args: unknown[]) {
      try {
        return original.apply(this, args);
      } catch (error) {
        // A negated assertion (not.toEqual) fails when the values are equal: no difference to show.
        if (error instanceof Error && !chai.util.flag(this, "negate")) {
          let found: string | undefined;
          try {
            found = firstDifference(chai.util.flag(this, "object"), args[0]);
          } catch {
            found = undefined;
          }
          // In a graded run, the input the test gave the kata last (the sandbox's bridge notes it).
          let input: string | undefined;
          try {
            input = lastCall(expect.getState().currentTestName);
          } catch {
            input = undefined;
          }
          if (found) error.message = `${found} · ${error.message}`;
          if (input) error.message = `${error.message}${INPUT_MARK}${input}`;
        }
        throw error;
      }
    },
  );
}
prototype[ONCE] = true;
