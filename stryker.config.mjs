// StrykerJS configuration: mutation testing of the reference solutions against the graded specs.
// `npm run mutate` (scripts/mutate.ts) runs this once per kata, narrowing `mutate` to
// solutions/NN-name and the specs to spec/NN-name (MUTATE_KATA, read by the vitest config below).
//
// How the specs reach the mutated code: Stryker copies the project into a sandbox
// (.stryker-tmp/sandbox-*), and vitest.config.ts resolves `@impl/NN-name` from KATA_IMPL relative
// to the folder that holds scripts/lib/impl-root.ts, which is the sandbox's own copy. So with
// KATA_IMPL=solutions the specs import the sandbox's (instrumented) solutions/, not the originals.
// scripts/mutate.ts sets KATA_IMPL=solutions (and MUTATE_KATA, MUTATE_SKIP_TESTS) itself.
// `npm run mutate` is the way in: it narrows the run to one kata at a time.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: {
    // The project's vitest.config.ts, narrowed to one kata's specs (see that file for why the
    // narrowing is not Stryker's `testFiles` option).
    configFile: "scripts/lib/mutation/vitest.config.ts",
  },
  mutate: [
    "solutions/*/*.ts",
    // Re-exports only: nothing to mutate.
    "!solutions/*/index.ts",
  ],
  // The specs are the visible graded ones, spec/*/*.spec.ts: the interviewer's bank
  // (spec/*/bank/**) stays out because vitest.config.ts excludes it unless GRADE_BANK=1.
  coverageAnalysis: "perTest",
  // Two cores shared with everyone else on the machine.
  concurrency: 2,
  // A busy machine makes normal runs slower; a generous absolute margin keeps a slow-but-correct
  // mutant from being counted as a "timeout" kill.
  timeoutMS: 10_000,
  timeoutFactor: 2,
  ignorePatterns: ["docs", "reports", ".grade", "spec/fixtures", "*.log"],
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  // The score table only: the surviving mutants are in the JSON and HTML reports.
  clearTextReporter: { allowColor: false, reportTests: false, reportMutants: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
