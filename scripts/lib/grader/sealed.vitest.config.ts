// The vitest configuration of a graded run (scripts/lib/grader/run-kata.ts starts it in a sealed
// workspace). It runs in vitest's main process only: the test workers, where the graded code
// runs, never see it, its control file or its key. What it adds to the plain configuration:
// - the kata rule "a kata may import only its own files", enforced when a module is transformed;
// - no module loaded from outside the sealed workspace and node_modules, whoever asks;
// - canaries planted in the spec files at the places this run's plan chose;
// - verdicts written by this process alone, signed, to a file only the grader reads;
// - test workers confined by Node's permission model: reads in the workspace and node_modules,
//   writes in their progress folder, no child processes, no worker threads.
import { readFileSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { parseAst, type Plugin } from "vite";
import { defineConfig } from "vitest/config";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { canaryPositions } from "./canary-plan.ts";
import { CONTROL_ENV, type GradeControl } from "./grade-control.ts";
import { refusedImports } from "./import-rule.ts";
import { appendSigned } from "./signed-channel.ts";
import baseConfig from "../../../vitest.config.ts";

function readControl(): GradeControl {
  const path = process.env[CONTROL_ENV];
  if (!path) throw new Error(`${CONTROL_ENV} is not set: this configuration is for the grader's runs only`);
  const control = JSON.parse(readFileSync(path, "utf8")) as GradeControl;
  rmSync(path, { force: true });
  // Workers inherit this process's environment: nothing of the grader's is left in it.
  delete process.env[CONTROL_ENV];
  return control;
}

// vitest may evaluate its configuration more than once in one process; the file is read once.
const stash = globalThis as { __gradeControl?: GradeControl };
const control = (stash.__gradeControl ??= readControl());
const send = (record: object) => appendSigned(control.results, control.key, record);
const rel = (path: string) => relative(control.root, path).split(sep).join("/");
const implDir = join(control.root, "impl");
const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
const filePath = (id: string) => id.split("?")[0];

function refuse(file: string, what: string, reason: string): never {
  send({ t: "refused", file, what, reason });
  throw new Error(`${file} imports '${what}': ${reason}`);
}

const sealedModules: Plugin = {
  name: "grade:sealed-modules",
  enforce: "pre",
  load(id) {
    const path = filePath(id);
    if (!path.startsWith("/") || inside(path, control.root) || inside(path, control.nodeModules)) return null;
    refuse("(a test worker)", path, "nothing outside the sealed workspace is loaded");
  },
};

const kataImportRule: Plugin = {
  name: "grade:kata-import-rule",
  enforce: "post",
  transform(code, id) {
    const path = filePath(id);
    if (!inside(path, implDir)) return null;
    const file = relative(implDir, path).split(sep).join("/");
    // A module of impl/NN-name may import only from impl/NN-name.
    const kataDir = join(implDir, file.split("/")[0]);
    let program: unknown;
    try {
      program = parseAst(code);
    } catch {
      return null; // the transformer reports a syntax error better than this check could
    }
    const [first] = refusedImports(program, path, kataDir);
    if (first) refuse(file, first.what, first.reason);
    return null;
  },
};

const canaries: Plugin = {
  name: "grade:canaries",
  enforce: "pre",
  transform(code, id) {
    const plan = control.canaries[rel(filePath(id))];
    if (!plan || plan.at.length === 0) return null;
    // On the first line, without a newline: every line of the spec keeps its number in a stack trace.
    const canaryModule = JSON.stringify(join(control.root, "spec", "support", "canary.ts"));
    return { code: `import { armCanaries as __armCanaries } from ${canaryModule}; __armCanaries(${JSON.stringify(plan)}); ${code}`, map: null };
  },
};

/** The grader's only source of verdicts: every test's state, from this process, signed. */
class SignedResults implements Reporter {
  /** Each test's position among all the tests its file declares, canaries included. */
  private readonly index = new Map<string, number>();
  private readonly sent = new Set<string>();

  private positionOf(test: TestCase): number {
    if (!this.index.has(test.id)) {
      let i = 0;
      for (const t of test.module.children.allTests()) this.index.set(t.id, i++);
    }
    return this.index.get(test.id) ?? -1;
  }

  onTestCaseResult(test: TestCase): void {
    this.report(test);
  }

  onTestModuleEnd(module: TestModule): void {
    const file = rel(module.moduleId);
    for (const test of module.children.allTests()) this.report(test);
    const errors = module.errors().map((e) => e.stack || e.message);
    if (errors.length > 0) send({ t: "module", file, error: errors.join("\n") });
  }

  onTestRunEnd(): void {
    send({ t: "end" });
  }

  private report(test: TestCase): void {
    if (this.sent.has(test.id)) return;
    const result = test.result();
    if (result.state === "pending") return;
    this.sent.add(test.id);
    const file = rel(test.module.moduleId);
    const index = this.positionOf(test);
    const plan = control.canaries[file];
    const errors = result.errors ?? [];
    const message = errors.length === 0 ? undefined : errors.map((e) => (/STACK_TRACE_ERROR/.test(e.stack ?? "") ? e.message : e.stack || e.message)).join("\n");
    send({
      t: "test",
      file,
      name: test.fullName,
      index,
      state: result.state,
      canary: plan ? canaryPositions(plan).includes(index) : false,
      ...(message === undefined ? {} : { message: message.slice(0, 20_000) }),
      duration: test.diagnostic()?.duration,
    });
  }
}

const base = baseConfig.test!;

/**
 * What the root configuration and every kata's project share. Written out rather than inherited
 * (`extends: true`): a project that extends a configuration file bundles and evaluates that file
 * once more, which cost each grade about 0.1 s of CPU per kata.
 */
const shared = {
  root: control.root,
  plugins: [sealedModules, kataImportRule, canaries],
  resolve: {
    alias: [{ find: /^@impl\/([\w.-]+)$/, replacement: `${implDir}/$1/index.ts` }],
  },
  // The graded run's own cache: nothing of one candidate's run is left for the next.
  cacheDir: join(control.root, ".vite"),
};

/**
 * One project per kata: vitest never runs two projects' files in one test process, so one kata's
 * code cannot touch another kata's tests. Inside a kata, a test process runs several spec files
 * one after the other (no new process per file: most of a grade's time was starting them), and
 * the first setup file (spec/support/setup/fresh-modules.ts) drops every module a previous file
 * loaded, so each spec file meets the graded code freshly evaluated, as in its own process.
 */
const kataProject = (kataId: string) => ({
  ...shared,
  test: {
    name: kataId,
    include: [`spec/${kataId}/**/*.spec.ts`],
    setupFiles: [
      join(control.root, "spec", "support", "setup", "fresh-modules.ts"),
      ...(base.setupFiles as string[]).map((file) => join(control.root, file)),
      join(control.root, "spec", "support", "setup", "unparsed-stacks.ts"),
    ],
    testTimeout: base.testTimeout,
    hookTimeout: base.hookTimeout,
    pool: "forks" as const,
    isolate: false,
    execArgv: control.confine,
  },
});

export default defineConfig({
  ...shared,
  test: {
    maxWorkers: control.maxWorkers,
    projects: control.kataIds.map(kataProject),
    reporters: [new SignedResults()],
  },
});
