// Grades katas: see README.md in this folder for the words (grade, bundle, run, verdict, result).
// Each kata's code is bundled here (bundle.ts, which also applies the kata rule on imports); one
// run of the specs (spec-run.ts) grades every kata whose bundle is runnable, each in sandbox
// processes of its own; each kata's result (kata-result.ts) then gives every expected test a
// verdict, whatever happened: a kata that does not build, does not load, hangs, crashes or exits
// costs its own tests alone.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { detectConfinement, LEVEL_WORDS } from "../../../spec/support/sandbox/confinement.ts";
import { bundleClient, bundleKata, bundleRuntime, bundleVerdict, refusalLine } from "./bundle.ts";
import { expectedTest, expectedTests, type KataTarget } from "./expected.ts";
import { emptyIntegrity, type Integrity } from "./integrity.ts";
import { kataResult, type KataResult, type SandboxInfo } from "./kata-result.ts";
import type { Kata } from "./katas.ts";
import type { KataManifest, ManifestTest } from "./manifest.ts";
import { readEvents } from "./sandbox-events.ts";
import { runSpecs, type SpecRun } from "./spec-run.ts";
import { summaryLine, type TestResult, type TestStatus } from "./test-result.ts";
import { visible } from "./visible.ts";

export interface GradeOptions {
  implRoot: string;
  seed: number;
  /** Wall-clock limit for one run, per kata graded in it. */
  timeoutMs: number;
  /** The grader's private scratch folder (bundles, verdicts, the sandboxes' reports). */
  workDir: string;
  includeBank: boolean;
  /**
   * Full names (as in the manifest) of the only tests to run and score (`--only`): the run loads
   * only their spec files, and the other tests are neither run nor reported.
   */
  only?: ReadonlySet<string>;
  /** Test processes at once (default: one per core). */
  maxWorkers?: number;
}

/** Grades one kata: see gradeKatas. */
export async function gradeKata(kata: Kata, manifest: KataManifest, options: GradeOptions): Promise<KataResult> {
  const [result] = await gradeKatas([{ kata, manifest, ...(options.only ? { only: options.only } : {}) }], options);
  return result;
}

/**
 * Grades several katas in one vitest run (one process start, one transform of the shared spec
 * helpers and data), each kata in test processes of its own. Every kata gets a verdict for each
 * of its tests, whatever happened to the others.
 */
export async function gradeKatas(targets: KataTarget[], options: Omit<GradeOptions, "only">): Promise<KataResult[]> {
  const started = Date.now();
  const sandboxRoot = join(options.workDir, "sandbox");
  const reportDir = join(options.workDir, "sandbox-report");
  mkdirSync(reportDir, { recursive: true });
  const confinement = detectConfinement();
  const sandbox: SandboxInfo = { level: confinement.level, words: LEVEL_WORDS[confinement.level] };
  const runtime = join(sandboxRoot, "runtime.mjs");
  const client = join(options.workDir, "client.cjs");
  await Promise.all([bundleRuntime(runtime), bundleClient(client)]);

  const prepared = await Promise.all(targets.map(async (target) => {
    const expected = expectedTests(target.manifest, { includeBank: options.includeBank, ...(target.only ? { only: target.only } : {}) });
    const folder = join(options.implRoot, target.kata.id);
    if (!existsSync(join(folder, "index.ts"))) return { target, expected, built: { missing: `no ${target.kata.id}/index.ts in ${options.implRoot}: nothing to grade` } };
    const dir = join(sandboxRoot, target.kata.id);
    const bundle = await bundleKata(target.kata.id, folder, join(dir, "kata.mjs"));
    copyFileSync(runtime, join(dir, "runtime.mjs"));
    return { target, expected, built: { bundle } };
  }));
  if (confinement.level === "other-user") openToOtherUser(options.workDir, sandboxRoot);

  const runnable = prepared.filter((p) => p.built.bundle?.file && p.built.bundle.refused.length === 0);
  let run: SpecRun | undefined;
  if (runnable.length > 0) run = await runSpecs(runnable.map((p) => p.target), options, confinement, { sandboxRoot, reportDir, client });
  const events = readEvents(reportDir);
  const durationMs = Date.now() - started;

  return prepared.map(({ target, expected, built }) => visibleResult(resultOf(target, expected, built)));

  function resultOf(target: KataTarget, expected: ManifestTest[], built: (typeof prepared)[number]["built"]): KataResult {
    const { kata } = target;
    const tests = (why: string, status: TestStatus = "error") => expected.map((t): TestResult => ({ ...expectedTest(kata, t), status, summary: summaryLine(why), message: why }));
    if (built.missing) return { kata, tests: tests(built.missing), problems: [built.missing], hungTests: [], durationMs: 0 };
    const bundle = built.bundle!;
    const integrity: Integrity = { ...emptyIntegrity(), notes: bundle.skipped.map((s) => `${kata.id}/${s}`) };
    integrity.refused = bundle.refused.map(refusalLine);
    const unrunnable = bundleVerdict(kata.id, bundle);
    if (unrunnable) return { kata, tests: tests(unrunnable.why, unrunnable.status), problems: [unrunnable.problem], hungTests: [], durationMs, integrity };
    return kataResult(target, expected, run!, events.filter((e) => e.kata === kata.id), { durationMs, integrity, sandbox, includeBank: options.includeBank });
  }
}

/** Every text of a result made safe to print (visible.ts): much of it comes from the graded code. */
function visibleResult(result: KataResult): KataResult {
  const text = (s: string | undefined) => (s === undefined ? s : visible(s));
  return {
    ...result,
    problems: result.problems.map(visible),
    hungTests: result.hungTests.map(visible),
    tests: result.tests.map((t) => ({
      ...t,
      name: visible(t.name),
      ...(t.summary === undefined ? {} : { summary: text(t.summary) }),
      ...(t.message === undefined ? {} : { message: text(t.message) }),
      ...(t.property ? { property: { seed: text(t.property.seed), path: text(t.property.path), counterexample: text(t.property.counterexample) } } : {}),
    })),
    ...(result.integrity ? { integrity: { refused: result.integrity.refused.map(visible), notes: result.integrity.notes.map(visible) } } : {}),
  };
}

/** With no namespaces, the sandbox runs as "nobody": it must be able to read its own folder, and only that. */
function openToOtherUser(workDir: string, sandboxRoot: string): void {
  // The scratch folder can be passed through, not listed; its sandbox folder and bundles are readable.
  chmodSync(workDir, 0o711);
  chmodSync(sandboxRoot, 0o755);
  for (const name of readdirSync(sandboxRoot)) chmodSync(join(sandboxRoot, name), 0o755);
}

