// Vitest setup file used only under Stryker (scripts/lib/mutation/vitest.config.ts): skips the
// tests whose name matches MUTATE_SKIP_TESTS (a regular expression), set by scripts/mutate.ts.
//
// It skips the tests whose name says "linear time" (kata 1's "1 MiB of ... takes linear time",
// kata 4's "1 MiB of arguments ... in linear time"). They time the code on inputs of up
// to 1 MiB, and they cover nearly every line of the parser, so Stryker would run them for nearly
// every mutant; under Stryker's instrumentation they take over 90% of the kata's test time, and
// every mutant that loops forever waits out a timeout computed from them. What they check is
// speed growth, which a mutation run on a busy machine cannot judge fairly anyway. Their verdict
// on the reference is checked by `npm test` / `npm run grade` as usual.
import { beforeEach } from "vitest";

const source = process.env.MUTATE_SKIP_TESTS;
const pattern = source ? new RegExp(source) : undefined;

if (pattern) {
  beforeEach((context) => {
    if (pattern.test(context.task.name)) context.skip();
  });
}
