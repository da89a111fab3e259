// Grades katas. Each kata's code is bundled here (bundle.ts, which also applies the kata rule on
// imports) and runs in sandbox processes of its own (spec/support/sandbox/), confined by the
// operating system; the specs run in vitest's test processes, which the graded code cannot reach,
// and get from the kata only data. Every test of the manifest gets a verdict, whatever happened:
// a kata that does not build, does not load, hangs, crashes or exits costs its own tests alone.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { detectConfinement, LEVEL_WORDS, type Confinement, type ConfinementLevel } from "../../../spec/support/sandbox/confinement.ts";
import { CONFINEMENT_ENV, SANDBOX_CLIENT_ENV, SANDBOX_REPORT_ENV, SANDBOX_ROOT_ENV, SANDBOX_SUPERVISOR_ENV } from "../../../spec/support/sandbox/env.ts";
import { bundleClient, bundleKata, bundleRuntime, bundleVerdict, refusalLine } from "./bundle.ts";
import { GRADE_ENV } from "./grade-env.ts";
import { emptyIntegrity, type Integrity } from "./integrity.ts";
import type { Kata } from "./katas.ts";
import { isBankFile, manifestLists, type KataManifest, type ManifestTest } from "./manifest.ts";
import {
  loadErrorLine,
  parsePropertyFailure,
  splitTag,
  summaryLine,
  taskIdOf,
  withoutStack,
  type TestResult,
  type TestStatus,
} from "./test-result.ts";
import { stopStrays } from "./strays.ts";
import { runVitest, type ChildOutcome } from "./vitest-child.ts";
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

/** One kata to grade in a run of several, and, when narrowed, its only tests. */
export interface KataTarget {
  kata: Kata;
  manifest: KataManifest;
  only?: ReadonlySet<string>;
}

/** What the run collected, against the manifest: is the manifest the list of these specs? */
export interface CollectedTests {
  /** The run collected exactly the manifest's tests (bank included when it ran), in its order. */
  matches: boolean;
  /** Tests in the spec files that the manifest does not list: they earn nothing. */
  unlisted: ManifestTest[];
  /** Where the two lists first part, when they do: what each holds there. */
  firstDifference?: string;
}

/** How the graded code was confined, as every report says it. */
export interface SandboxInfo {
  level: ConfinementLevel;
  words: string;
}

export interface KataRun {
  kata: Kata;
  tests: TestResult[];
  /** What went wrong beyond single failing tests: a hang, a crash, a spec file that did not load. */
  problems: string[];
  /** Tests during which the kata's process was stopped for running too long. */
  hungTests: string[];
  durationMs: number;
  /** Absent when the run was narrowed (`only`) or wrote no report. */
  collected?: CollectedTests;
  /** A refused import (the kata rule), notes for a reader: see integrity.ts. */
  integrity?: Integrity;
  /** Absent when no code of the kata ran (it did not build, or was not there). */
  sandbox?: SandboxInfo;
}

/** Above this, a kata's console output is a problem worth naming (the supervisor keeps the last 64 KB). */
const OUTPUT_PROBLEM_BYTES = 5 * 1024 * 1024;

interface Verdict {
  status: TestStatus;
  message?: string;
  durationMs?: number;
}

export interface SandboxEvent {
  kata: string;
  /** exit: a sandbox ended (why); output: how much it had printed so far. */
  event: "exit" | "output";
  why: string;
  outputBytes: number;
  test?: string;
}

/** Grades one kata: see gradeKatas. */
export async function gradeKata(kata: Kata, manifest: KataManifest, options: GradeOptions): Promise<KataRun> {
  const [run] = await gradeKatas([{ kata, manifest, ...(options.only ? { only: options.only } : {}) }], options);
  return run;
}

/**
 * Grades several katas in one vitest run (one process start, one transform of the shared spec
 * helpers and data), each kata in test processes of its own. Every kata gets a verdict for each
 * of its tests, whatever happened to the others.
 */
export async function gradeKatas(targets: KataTarget[], options: Omit<GradeOptions, "only">): Promise<KataRun[]> {
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
    if (!existsSync(join(folder, "index.ts"))) return { target, expected, outcome: { missing: `no ${target.kata.id}/index.ts in ${options.implRoot}: nothing to grade` } };
    const dir = join(sandboxRoot, target.kata.id);
    const bundle = await bundleKata(target.kata.id, folder, join(dir, "kata.mjs"));
    copyFileSync(runtime, join(dir, "runtime.mjs"));
    return { target, expected, outcome: { bundle } };
  }));
  if (confinement.level === "other-user") openToOtherUser(options.workDir, sandboxRoot);

  const runnable = prepared.filter((p) => p.outcome.bundle?.file && p.outcome.bundle.refused.length === 0);
  let run: RunOutcome | undefined;
  if (runnable.length > 0) run = await runSpecs(runnable.map((p) => p.target), options, confinement, { sandboxRoot, reportDir, client });
  const events = readEvents(reportDir);
  const durationMs = Date.now() - started;

  return prepared.map(({ target, expected, outcome }) => visibleRun(kataRunOf(target, expected, outcome)));

  function kataRunOf(target: KataTarget, expected: ManifestTest[], outcome: (typeof prepared)[number]["outcome"]): KataRun {
    const { kata } = target;
    const tests = (why: string, status: TestStatus = "error") => expected.map((t): TestResult => ({ ...expectedTest(kata, t), status, summary: summaryLine(why), message: why }));
    if (outcome.missing) return { kata, tests: tests(outcome.missing), problems: [outcome.missing], hungTests: [], durationMs: 0 };
    const bundle = outcome.bundle!;
    const integrity: Integrity = { ...emptyIntegrity(), notes: bundle.skipped.map((s) => `${kata.id}/${s}`) };
    integrity.refused = bundle.refused.map(refusalLine);
    const unrunnable = bundleVerdict(kata.id, bundle);
    if (unrunnable) return { kata, tests: tests(unrunnable.why, unrunnable.status), problems: [unrunnable.problem], hungTests: [], durationMs, integrity };
    return kataRun(target, expected, run!, events.filter((e) => e.kata === kata.id), { durationMs, integrity, sandbox, includeBank: options.includeBank });
  }
}

/** Every text of a run made safe to print (visible.ts): much of it comes from the graded code. */
function visibleRun(run: KataRun): KataRun {
  const text = (s: string | undefined) => (s === undefined ? s : visible(s));
  return {
    ...run,
    problems: run.problems.map(visible),
    hungTests: run.hungTests.map(visible),
    tests: run.tests.map((t) => ({
      ...t,
      name: visible(t.name),
      ...(t.summary === undefined ? {} : { summary: text(t.summary) }),
      ...(t.message === undefined ? {} : { message: text(t.message) }),
      ...(t.property ? { property: { seed: text(t.property.seed), path: text(t.property.path), counterexample: text(t.property.counterexample) } } : {}),
    })),
    ...(run.integrity ? { integrity: { refused: run.integrity.refused.map(visible), notes: run.integrity.notes.map(visible) } } : {}),
  };
}

/** With no namespaces, the sandbox runs as "nobody": it must be able to read its own folder, and only that. */
function openToOtherUser(workDir: string, sandboxRoot: string): void {
  // The scratch folder can be passed through, not listed; its sandbox folder and bundles are readable.
  chmodSync(workDir, 0o711);
  chmodSync(sandboxRoot, 0o755);
  for (const name of readdirSync(sandboxRoot)) chmodSync(join(sandboxRoot, name), 0o755);
}

export interface RunOutcome {
  verdicts: Map<string, Map<string, Verdict>>;
  /** Per kata: the spec files that did not load, and why. */
  fileErrors: Map<string, Map<string, string>>;
  /** Per kata: every test the run's report names, in the report's order. */
  listed: Map<string, ManifestTest[]>;
  reportWritten: boolean;
  child: ChildOutcome;
  limitMs: number;
}

const GRADED_CONFIG = join(PROJECT_ROOT, "scripts", "lib", "grader", "graded.vitest.config.ts");
const SUPERVISOR = join(PROJECT_ROOT, "spec", "support", "sandbox", "supervisor.mjs");
const kataIdOf = (file: string | undefined) => /(?:^|[\\/])spec[\\/](\d\d-[\w-]+)[\\/]/.exec(file ?? "")?.[1] ?? "";

interface SandboxFiles {
  sandboxRoot: string;
  reportDir: string;
  client: string;
}

async function runSpecs(targets: KataTarget[], options: Omit<GradeOptions, "only">, confinement: Confinement, { sandboxRoot, reportDir, client }: SandboxFiles): Promise<RunOutcome> {
  const results = join(options.workDir, "verdicts.jsonl");
  const narrowed = targets.some((t) => t.only);
  const files = targets.flatMap((t) => (t.only ? [...new Set(expectedTests(t.manifest, { includeBank: options.includeBank, only: t.only }).map((e) => e.file))] : [`spec/${t.kata.id}/`]));
  // The one limit on the whole run: everything that can hang (a call, a load) has a limit of its
  // own well inside it, so this is the last resort against a grader's own fault.
  const limitMs = options.timeoutMs * targets.length;
  const env: Record<string, string> = {
    [GRADE_ENV.results]: results,
    [GRADE_ENV.katas]: targets.map((t) => t.kata.id).join(","),
    [GRADE_ENV.maxWorkers]: String(options.maxWorkers ?? availableParallelism()),
    [SANDBOX_ROOT_ENV]: sandboxRoot,
    [SANDBOX_REPORT_ENV]: reportDir,
    [SANDBOX_CLIENT_ENV]: client,
    [SANDBOX_SUPERVISOR_ENV]: SUPERVISOR,
    [CONFINEMENT_ENV]: JSON.stringify(confinement),
    FC_SEED: String(options.seed),
    ...(options.includeBank ? { GRADE_BANK: "1" } : {}),
    // A kata graded whole has every test of its own chosen.
    ...(narrowed ? { GRADE_ONLY: JSON.stringify(targets.flatMap((t) => (t.only ? [...t.only] : t.manifest.tests.map((m) => m.name)).map((name) => `${t.kata.id} > ${name}`))) } : {}),
  };
  let child: ChildOutcome;
  try {
    child = await runVitest(["run", ...files, "--config", GRADED_CONFIG], env, limitMs);
  } finally {
    // A test process killed for the time limit leaves its sandboxes behind: see strays.ts.
    stopStrays(sandboxRoot);
  }
  const outcome: RunOutcome = { verdicts: new Map(), fileErrors: new Map(), listed: new Map(), reportWritten: false, child, limitMs };
  const slot = <T>(map: Map<string, T>, kata: string, make: () => T) => map.get(kata) ?? map.set(kata, make()).get(kata)!;
  const declared = new Map<string, string[]>();
  for (const record of readLines<{ t: string; file?: string; name?: string; names?: string[]; state?: string; message?: string; duration?: number; error?: string }>(results)) {
    if (record.t === "end") outcome.reportWritten = true;
    if (record.t === "order" && record.file && record.names) declared.set(record.file, record.names);
    const kata = kataIdOf(record.file);
    if (record.t === "module" && kata) slot(outcome.fileErrors, kata, () => new Map()).set(record.file!, record.error ?? "");
    if (record.t === "test" && kata) {
      slot(outcome.listed, kata, () => []).push({ file: record.file!, name: record.name! });
      // "skip"/"pending"/"todo": a graded test that did not run did not pass.
      const status: TestStatus = record.state === "pass" || record.state === "passed" ? "pass" : "fail";
      slot(outcome.verdicts, kata, () => new Map()).set(record.name!, { status, message: record.message, durationMs: record.duration });
    }
  }
  // Each file's tests as it declares them, where its end was reported (see graded.vitest.config.ts).
  for (const [kata, listed] of outcome.listed) {
    const files = [...new Set(listed.map((t) => t.file))];
    outcome.listed.set(kata, files.flatMap((file) => {
      const inFile = listed.filter((t) => t.file === file);
      const order = declared.get(file);
      if (!order) return inFile;
      const ran = new Set(inFile.map((t) => t.name));
      return [...order.filter((name) => ran.has(name)).map((name) => ({ file, name })), ...inFile.filter((t) => !order.includes(t.name))];
    }));
  }
  return outcome;
}

function readLines<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  const records: T[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      // a line cut by a kill: what it said is lost
    }
  }
  return records;
}

function readEvents(dir: string): SandboxEvent[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => readLines<SandboxEvent>(join(dir, name)));
}

export interface KataRunContext {
  durationMs: number;
  integrity: Integrity;
  sandbox: SandboxInfo;
  includeBank: boolean;
}

/** A kata's part of a run, every test of `expected` with a verdict (exported for its tests). */
export function kataRun(target: KataTarget, expected: ManifestTest[], run: RunOutcome, events: SandboxEvent[], context: KataRunContext): KataRun {
  const { kata } = target;
  const verdicts = run.verdicts.get(kata.id) ?? new Map<string, Verdict>();
  const fileErrors = run.fileErrors.get(kata.id) ?? new Map<string, string>();
  const problems: string[] = [];
  const hungTests: string[] = [];
  /** Why each hung test's process was stopped: its own verdict when the run ended before it could report one. */
  const hangOf = new Map<string, string>();
  // A process stopped for a call that ran too long: the hang, named by the test that waited on it.
  for (const event of events.filter((e) => e.event === "exit")) {
    // A load stopped for its time is said by the spec files that did not load.
    if (!/process was stopped/.test(event.why) || /did not finish loading/.test(event.why)) continue;
    const test = event.test ? splitTag(event.test).name : undefined;
    if (test && !hungTests.includes(test)) hungTests.push(test);
    if (test) hangOf.set(test, event.why);
    // Said once: a test that hangs in two sandboxes (a retry, a second spec file's) is one hang.
    const problem = test ? `timed out in test '${test}': ${event.why}` : `timed out: ${event.why}`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  // One cause usually breaks every spec file of the kata (the kata does not load): say it once.
  const causes = new Map<string, string[]>();
  for (const [file, error] of fileErrors) causes.set(loadErrorLine(error), [...(causes.get(loadErrorLine(error)) ?? []), file]);
  for (const [cause, files] of causes) problems.push(files.length === 1 ? `${files[0]} failed to load: ${cause}` : `${files.length} spec files failed to load: ${cause}`);
  const died = events.filter((e) => e.event === "exit" && !/process was stopped/.test(e.why) && !/specs' process ended|other side closed/.test(e.why));
  for (const why of new Set(died.map((e) => e.why))) problems.push(`its process ended: ${why}`);
  const outputBytes = events.reduce((n, e) => Math.max(n, e.outputBytes), 0);
  if (outputBytes > OUTPUT_PROBLEM_BYTES) problems.push(`printed ${(outputBytes / 1024 / 1024).toFixed(0)} MB of console output (kept the last 64 KB)`);
  if (run.child.timedOut) problems.push(`the test run was stopped by its time limit (${Math.round(run.limitMs / 1000)} s)`);
  else if (!run.reportWritten) {
    const tail = run.child.outputTail.trim().split("\n").slice(-5).join("\n");
    problems.push(`the test run ended without a report (exit code ${run.child.exitCode ?? run.child.signal}): ${tail}`);
  }

  const tests = expected.map((entry): TestResult => {
    const base = expectedTest(kata, entry);
    const verdict = verdicts.get(entry.name);
    if (verdict) {
      const message = verdict.message === undefined ? undefined : withoutStack(verdict.message);
      return {
        ...base,
        status: verdict.status,
        durationMs: verdict.durationMs,
        ...(message === undefined ? {} : { message, summary: summaryLine(message), property: parsePropertyFailure(message) }),
      };
    }
    const fileError = fileErrors.get(entry.file);
    const hang = hangOf.get(base.name);
    const why = fileError
      ? `the spec file did not load: ${loadErrorLine(fileError)}`
      : hang
        ? `it hung: ${hang}`
        : run.child.timedOut
        ? "not run: the run was stopped by the time limit before this test"
        : "not run: the test run ended before this test";
    return { ...base, status: "error", summary: why, message: fileError ? withoutStack(fileError) : why };
  });
  const collected = !target.only && run.reportWritten ? compareToManifest(run.listed.get(kata.id) ?? [], target.manifest, context.includeBank) : undefined;
  return { kata, tests, problems, hungTests, durationMs: context.durationMs, integrity: context.integrity, sandbox: context.sandbox, ...(collected ? { collected } : {}) };
}

/** The manifest's tests this grade scores: the visible ones, the bank's with `includeBank`, only the chosen ones with `only`. */
export function expectedTests(manifest: KataManifest, options: Pick<GradeOptions, "includeBank" | "only">): ManifestTest[] {
  const all = options.includeBank ? [...manifest.tests, ...manifest.bank] : manifest.tests;
  return options.only ? all.filter((t) => options.only!.has(t.name)) : all;
}

function compareToManifest(listed: ManifestTest[], manifest: KataManifest, includeBank: boolean): CollectedTests {
  const lists = manifestLists(listed);
  const fresh = includeBank ? lists : { tests: lists.tests, bank: [] };
  const committed = { tests: manifest.tests, bank: includeBank ? manifest.bank : [] };
  const known = new Set([...committed.tests, ...committed.bank].map((t) => `${t.file}\u0000${t.name}`));
  const matches = JSON.stringify(fresh) === JSON.stringify(committed);
  return {
    matches,
    unlisted: [...fresh.tests, ...fresh.bank].filter((t) => !known.has(`${t.file}\u0000${t.name}`)),
    ...(matches ? {} : { firstDifference: firstDifference([...fresh.tests, ...fresh.bank], [...committed.tests, ...committed.bank]) }),
  };
}

function firstDifference(collected: ManifestTest[], listed: ManifestTest[]): string {
  const say = (t: ManifestTest | undefined) => (t ? `${t.file}: ${t.name}` : "nothing");
  const at = collected.findIndex((t, i) => t.file !== listed[i]?.file || t.name !== listed[i]?.name);
  const i = at === -1 ? collected.length : at;
  return `at test ${i + 1} of ${collected.length} collected (${listed.length} listed), the run has ${say(collected[i])}, the manifest ${say(listed[i])}`;
}

export function expectedTest(kata: Kata, entry: ManifestTest): Omit<TestResult, "status"> {
  const tag = splitTag(entry.name);
  return { kata: kata.id, file: entry.file, name: tag.name, level: tag.level, weight: tag.weight, core: tag.core, bank: isBankFile(entry.file), taskId: taskIdOf(tag.name) };
}
