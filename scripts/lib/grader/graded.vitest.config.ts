// The vitest configuration of a graded run (spec-run.ts starts vitest with it). Nothing in the
// processes it starts runs graded code: `@impl/NN-name` is the kata's bridge (spec/NN-name/bridge.ts),
// and each kata's code runs in sandbox processes of its own (spec/support/sandbox/). So this
// process and the test processes need no guard of their own against the graded code; what they
// report is what happened.
import { appendFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { defineConfig } from "vitest/config";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import baseConfig from "../../../vitest.config.ts";
import { PROJECT_ROOT } from "../impl-root.ts";
import { GRADE_ENV } from "./grade-env.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: this configuration is for the grader's runs only`);
  return value;
};
const results = env(GRADE_ENV.results);
const kataIds = env(GRADE_ENV.katas).split(",");
const maxWorkers = Number(env(GRADE_ENV.maxWorkers));

// A sandbox confined to its own PID namespace cannot name this process; where there is no such
// namespace, this keeps its SIGUSR1 from opening an inspector here.
process.on("SIGUSR1", () => {});

const send = (record: object) => appendFileSync(results, JSON.stringify(record) + "\n");
const rel = (path: string) => relative(PROJECT_ROOT, path).split(sep).join("/");

/** Every test's state, as vitest's main process has it. */
class Verdicts implements Reporter {
  private readonly sent = new Set<string>();

  onTestCaseResult(test: TestCase): void {
    this.report(test);
  }

  onTestModuleEnd(module: TestModule): void {
    for (const test of module.children.allTests()) this.report(test);
    // The file's tests in the order it declares them: results arrive in the order they end,
    // which a busy machine may shuffle, and the manifest's order is the declared one.
    send({ t: "order", file: rel(module.moduleId), names: [...module.children.allTests()].map((test) => test.fullName) });
    const errors = module.errors().map((e) => e.stack || e.message);
    if (errors.length > 0) send({ t: "module", file: rel(module.moduleId), error: errors.join("\n") });
  }

  onTestRunEnd(): void {
    send({ t: "end" });
  }

  private report(test: TestCase): void {
    if (this.sent.has(test.id)) return;
    const result = test.result();
    if (result.state === "pending") return;
    this.sent.add(test.id);
    const errors = result.errors ?? [];
    const message = errors.length === 0 ? undefined : errors.map((e) => (/STACK_TRACE_ERROR/.test(e.stack ?? "") ? e.message : e.stack || e.message)).join("\n");
    send({
      t: "test",
      file: rel(test.module.moduleId),
      name: test.fullName,
      state: result.state,
      ...(message === undefined ? {} : { message: message.slice(0, 20_000) }),
      duration: test.diagnostic()?.duration,
    });
  }
}

const base = baseConfig.test!;

/**
 * One project per kata, so that one test process never runs two katas' specs: each kata's
 * sandboxes, and a kata's trouble, stay its own. Inside a kata, a test process runs several spec
 * files one after the other (a process per file was most of a grade's time); the first setup file
 * (spec/support/setup/fresh-modules.ts) drops every module a previous file loaded, so each file
 * loads the kata afresh in its sandbox, as in a process of its own.
 */
const kataProject = (kataId: string) => ({
  root: PROJECT_ROOT,
  resolve: {
    alias: [{ find: /^@impl\/([\w.-]+)$/, replacement: `${PROJECT_ROOT}/spec/$1/bridge.ts` }],
  },
  test: {
    name: kataId,
    include: [`spec/${kataId}/**/*.spec.ts`],
    exclude: ["**/node_modules/**", "spec/fixtures/**", ...(process.env.GRADE_BANK === "1" ? [] : ["spec/*/bank/**"])],
    setupFiles: ["spec/support/setup/fresh-modules.ts", ...(base.setupFiles as string[]), "spec/support/setup/unparsed-stacks.ts"],
    testTimeout: base.testTimeout,
    hookTimeout: base.hookTimeout,
    pool: "forks" as const,
    isolate: false,
  },
});

export default defineConfig({
  root: PROJECT_ROOT,
  test: {
    maxWorkers,
    projects: kataIds.map(kataProject),
    reporters: [new Verdicts()],
  },
});
