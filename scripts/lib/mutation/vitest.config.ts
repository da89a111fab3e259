// The vitest configuration Stryker runs the specs with: the project's own vitest.config.ts (which
// resolves @impl/NN-name inside Stryker's sandbox, and leaves the bank out unless GRADE_BANK=1),
// narrowed to one kata's specs when MUTATE_KATA names it (its visible specs, or with
// MUTATE_SPECS=bank its bank alone), and with the timing tests skipped (skip-timing.setup.ts).
//
// Why here and not with Stryker's own `testFiles` option: in Stryker 10.1, `testFiles` turns into
// a test filter on every mutant run, and a filtered run activates the mutant at run time only,
// so a "static" mutant (one in module-level code, such as a table of regular expressions) is
// never switched on and always survives. Narrowing the files in vitest keeps static mutants honest.
import { defineConfig } from "vitest/config";
import base from "../../../vitest.config.ts";
import { PROJECT_ROOT, resolveImplRoot } from "../impl-root.ts";

const kata = process.env.MUTATE_KATA;
const specs = process.env.MUTATE_SPECS === "bank" ? `spec/${kata}/bank/*.spec.ts` : `spec/${kata}/*.spec.ts`;

const setupFiles = [...toArray(base.test?.setupFiles), "scripts/lib/mutation/skip-timing.setup.ts"];

// A plain spread, not mergeConfig: mergeConfig would append to `include` instead of replacing it.
// `@impl/NN-name` straight to the kata's index.ts, without the base's noted-impl module: Stryker
// finds the specs related to a mutated file by following imports, and a generated module is a
// dead end to it ("Vitest failed to find test files related to mutated files": no test ran).
const implRoot = resolveImplRoot(process.env.KATA_IMPL, PROJECT_ROOT);

export default defineConfig({
  ...base,
  plugins: [],
  resolve: { alias: [{ find: /^@impl\/([\w.-]+)$/, replacement: `${implRoot}/$1/index.ts` }] },
  test: {
    ...base.test,
    setupFiles,
    ...(kata ? { include: [specs] } : {}),
    // The bank alone: the project's config leaves spec/*/bank out unless GRADE_BANK=1 is set where it is read.
    ...(kata && process.env.MUTATE_SPECS === "bank" ? { exclude: ["**/node_modules/**", "spec/fixtures/**"] } : {}),
  },
});

function toArray(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
