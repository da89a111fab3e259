// The vitest configuration Stryker runs the specs with: the project's own vitest.config.ts (which
// resolves @impl/NN-name inside Stryker's sandbox, and leaves the bank out unless GRADE_BANK=1),
// narrowed to one kata's specs when MUTATE_KATA names it, and with the timing tests skipped
// (skip-timing.setup.ts).
//
// Why here and not with Stryker's own `testFiles` option: in Stryker 10.1, `testFiles` turns into
// a test filter on every mutant run, and a filtered run activates the mutant at run time only,
// so a "static" mutant (one in module-level code, such as a table of regular expressions) is
// never switched on and always survives. Narrowing the files in vitest keeps static mutants honest.
import { defineConfig } from "vitest/config";
import base from "../../../vitest.config.ts";

const kata = process.env.MUTATE_KATA;

const setupFiles = [...toArray(base.test?.setupFiles), "scripts/lib/mutation/skip-timing.setup.ts"];

// A plain spread, not mergeConfig: mergeConfig would append to `include` instead of replacing it.
export default defineConfig({
  ...base,
  test: { ...base.test, setupFiles, ...(kata ? { include: [`spec/${kata}/*.spec.ts`] } : {}) },
});

function toArray(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
