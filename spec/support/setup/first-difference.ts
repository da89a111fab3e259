// A failed toEqual / toStrictEqual says first where the values part (first-difference.ts), then
// vitest's own line. Runs in the specs' process, on the values the specs hold.
import { chai } from "vitest";
import { firstDifference } from "../first-difference.ts";

for (const method of ["toEqual", "toStrictEqual"]) {
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
          if (found) error.message = `${found} · ${error.message}`;
        }
        throw error;
      }
    },
  );
}
