// Grades katas: runs their specs against an implementation in a child process under a
// wall-clock watchdog, in a sealed workspace, then gives every test of the manifest a verdict,
// whatever happened. Verdicts come only from vitest's main process, over a signed channel; what
// the test workers write (their progress log) can name a test that hung, never one that passed.
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { canaryFindings, canaryNames, planCanaries, type ReportedTest } from "./canary-plan.ts";
import { emptyIntegrity, sourceNotes, untrusted, type Integrity } from "./integrity.ts";
import type { Kata } from "./katas.ts";
import { CONTROL_ENV, type GradeControl } from "./grade-control.ts";
import { sealWorkspace, type SealedWorkspace } from "./sealed-workspace.ts";
import { newKey, readSigned } from "./signed-channel.ts";
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
import { runVitest, type ChildOutcome } from "./vitest-child.ts";

export interface GradeOptions {
  implRoot: string;
  seed: number;
  /** Wall-clock limit for one run, per kata graded in it. */
  timeoutMs: number;
  /** The grader's private scratch folder (verdicts, control files): never readable by the graded code. */
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

/** What the first run collected, against the manifest: is the manifest the list of these specs? */
export interface CollectedTests {
  /** The run collected exactly the manifest's tests (bank included when it ran), in its order. */
  matches: boolean;
  /** Tests in the spec files that the manifest does not list: they earn nothing. */
  unlisted: ManifestTest[];
}

export interface KataRun {
  kata: Kata;
  tests: TestResult[];
  /** What went wrong beyond single failing tests: a hang, a crash, a spec file that did not load. */
  problems: string[];
  /** Tests that started and never ended before the watchdog fired. */
  hungTests: string[];
  durationMs: number;
  /** Absent when the run was narrowed (`only`) or the first run wrote no report. */
  collected?: CollectedTests;
  /** Refused imports, signs of tampering, notes for a reader: see integrity.ts. */
  integrity?: Integrity;
}

/**
 * A hang costs the test that hung, not the tests after it: the katas are re-run without the tests
 * that hung, as long as the time budget (twice the run's limit) lasts.
 */
const MAX_RERUNS = 8;
/**
 * A test with no progress for this long is killed as hung: the one limit that ends a synchronous
 * endless loop. Above vitest's test timeout (spec/support/time-limits.ts, 18 s), and 12x what the
 * slowest reference test needs on a busy machine (1.6 s at load 5), so load never costs a correct
 * implementation a test; not higher, since each hung test costs this long (three for the sabotage
 * fixture infinite-loop, whose grade must end within the self-test's 90 s).
 */
export const STALL_MS = 20_000;

interface Verdict {
  status: TestStatus;
  message?: string;
  durationMs?: number;
}

/** How one kata fares over the runs of a grade. */
interface KataState extends KataTarget {
  expected: ManifestTest[];
  verdicts: Map<string, Verdict>;
  hungTests: string[];
  problems: string[];
  integrity: Integrity;
  collected?: CollectedTests;
  fileErrors: Map<string, string>;
}

interface AttemptResult {
  /** Per kata: what this attempt saw of it. */
  katas: Map<string, KataAttempt>;
  /** Lines of the verdict channel that its key does not sign: no kata can be told apart. */
  forged: number;
  /** Refused loads no kata can be named for. */
  refusedByNone: string[];
  outcome: ChildOutcome;
  reportWritten: boolean;
}

interface KataAttempt {
  verdicts: Map<string, Verdict>;
  /** What this attempt saw of a forgery or a refused import. */
  integrity: Integrity;
  /** Every test the run's report names, run or skipped, in the report's order. */
  listed: ManifestTest[];
  /** Tests that started and, by the progress log, never ended: the ones a synchronous hang is in. */
  open: Set<string>;
  fileErrors: Map<string, string>;
}

const emptyAttempt = (): KataAttempt => ({ verdicts: new Map(), integrity: emptyIntegrity(), listed: [], open: new Set(), fileErrors: new Map() });

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
  const states: KataState[] = targets.map((target) => ({
    ...target,
    expected: expectedTests(target.manifest, { includeBank: options.includeBank, ...(target.only ? { only: target.only } : {}) }),
    verdicts: new Map(),
    hungTests: [],
    problems: [],
    integrity: emptyIntegrity(),
    fileErrors: new Map(),
  }));
  const missing = (state: KataState) => !existsSync(join(options.implRoot, state.kata.id, "index.ts"));
  const present = states.filter((state) => !missing(state));
  let outcome: ChildOutcome | undefined;
  if (present.length > 0) {
    const sealed = sealWorkspace({ kataIds: present.map((s) => s.kata.id), implRoot: options.implRoot, includeBank: options.includeBank });
    try {
      outcome = await gradeSealed(present, options, sealed, started);
    } finally {
      sealed.remove();
    }
  }
  const durationMs = Date.now() - started;
  return states.map((state) => (missing(state) ? notFound(state, options.implRoot) : kataRun(state, outcome!, durationMs)));
}

/** Nothing to import: say so plainly rather than let every spec file fail on a missing module. */
function notFound(state: KataState, implRoot: string): KataRun {
  const message = `no ${state.kata.id}/index.ts in ${implRoot}: nothing to grade`;
  const tests = state.expected.map((t): TestResult => ({ ...expectedTest(state.kata, t), status: "error", summary: message, message }));
  return { kata: state.kata, tests, problems: [message], hungTests: [], durationMs: 0 };
}

/** A test as the progress log's skip and only lists name it: one run may grade several katas. */
const qualified = (kataId: string, name: string) => `${kataId} > ${name}`;

async function gradeSealed(states: KataState[], options: Omit<GradeOptions, "only">, sealed: SealedWorkspace, started: number): Promise<ChildOutcome> {
  for (const state of states) {
    const mine = sealed.skipped.filter((s) => s.startsWith(`${state.kata.id}/`));
    state.integrity.notes.push(...mine, ...sourceNotes(join(options.implRoot, state.kata.id), state.kata.id));
  }
  const runLimit = options.timeoutMs * states.length;
  const deadline = started + 2 * runLimit;
  const filesOf = (tests: ManifestTest[]) => [...new Set(tests.map((t) => t.file))];
  // A whole kata's folder when it is graded whole; a narrowed one's spec files.
  let files = states.flatMap((state) => (state.only ? filesOf(state.expected) : [`spec/${state.kata.id}/`]));
  let active = states;
  for (let run = 0; ; run++) {
    const limit = Math.min(runLimit, Math.max(1000, deadline - Date.now()));
    const attempt = await runOnce(active, options, sealed, files, run, limit);
    for (const state of active) {
      const seen = attempt.katas.get(state.kata.id) ?? emptyAttempt();
      const integrity = state.integrity;
      const refused = [...seen.integrity.refused, ...attempt.refusedByNone];
      const tampered = [...seen.integrity.tampered, ...(attempt.forged > 0 ? [`${attempt.forged} line(s) in the verdict channel were not written by the test runner`] : [])];
      integrity.refused.push(...refused.filter((r) => !integrity.refused.includes(r)));
      integrity.tampered.push(...tampered.filter((r) => !integrity.tampered.includes(r)));
      if (run === 0 && !state.only && attempt.reportWritten) state.collected = compareToManifest(seen.listed, state.manifest, options.includeBank);
      for (const [name, verdict] of seen.verdicts) state.verdicts.set(name, verdict);
      for (const [file, error] of seen.fileErrors) state.fileErrors.set(file, error);
    }
    if (!attempt.outcome.timedOut) return finish(active, attempt.outcome, attempt.reportWritten);
    // A test that ended but whose verdict had not reached vitest's main process before the kill
    // is not hung: it has no verdict yet, and the re-run gives it one.
    const after = attempt.outcome.stalled ? `${STALL_MS / 1000} s` : `${Math.round(limit / 1000)} s`;
    let anyHung = false;
    for (const state of active) {
      const open = attempt.katas.get(state.kata.id)?.open ?? new Set<string>();
      for (const name of [...open].filter((n) => !state.verdicts.has(n) && !state.hungTests.includes(n))) {
        anyHung = true;
        state.hungTests.push(name);
        state.problems.push(`timed out in test '${splitTag(name).name}' after ${after}`);
      }
    }
    const unfinished = (state: KataState) => state.expected.filter((t) => !state.verdicts.has(t.name) && !state.hungTests.includes(t.name));
    if (!anyHung) {
      for (const state of active) {
        if (unfinished(state).length > 0) state.problems.push(`timed out after ${Math.round(limit / 1000)} s, and no single test was running: the hang is at import or between tests`);
      }
      return finish(active, attempt.outcome, attempt.reportWritten);
    }
    if (run + 1 > MAX_RERUNS || Date.now() >= deadline) {
      for (const state of active) if (unfinished(state).length > 0) state.problems.push("stopped re-running after too many hangs: the tests not run yet are lost");
      return finish(active, attempt.outcome, attempt.reportWritten);
    }
    // The re-run loads only the spec files that still hold a test without a verdict, of the katas
    // still trusted (a forgery's score is 0 whatever its other tests would say).
    active = active.filter((state) => !untrusted(state.integrity) && unfinished(state).length > 0);
    files = active.flatMap((state) => filesOf(unfinished(state)));
    if (files.length === 0) return finish(active, attempt.outcome, attempt.reportWritten);
  }
}

/** What the last run says of the run as a whole, for the katas it ran. */
function finish(states: KataState[], outcome: ChildOutcome, reportWritten: boolean): ChildOutcome {
  if (!outcome.timedOut && !reportWritten) {
    const tail = outcome.outputTail.trim().split("\n").slice(-5).join("\n");
    for (const state of states) state.problems.push(`the test run ended without a report (exit code ${outcome.exitCode ?? outcome.signal}): ${tail}`);
  }
  if (outcome.outputBytes > 5 * 1024 * 1024) {
    for (const state of states) state.problems.push(`printed ${(outcome.outputBytes / 1024 / 1024).toFixed(0)} MB of console output (kept the last 64 KB)`);
  }
  return outcome;
}

function kataRun(state: KataState, outcome: ChildOutcome, durationMs: number): KataRun {
  const { kata, integrity, hungTests, verdicts, fileErrors } = state;
  const problems: string[] = [];
  // One cause usually breaks every spec file of the kata (the candidate's module does not load): say it once.
  const causes = new Map<string, string[]>();
  for (const [file, error] of fileErrors) causes.set(loadErrorLine(error), [...(causes.get(loadErrorLine(error)) ?? []), file]);
  for (const [cause, files] of causes) {
    problems.push(files.length === 1 ? `${files[0]} failed to load: ${cause}` : `${files.length} spec files failed to load: ${cause}`);
  }
  // Hangs first, in the order they were seen; then the run's own problems.
  problems.unshift(...state.problems.filter((p) => p.startsWith("timed out in test")));
  problems.push(...state.problems.filter((p) => !p.startsWith("timed out in test")));

  const why = integrity.tampered.length > 0 ? `tampering seen: ${integrity.tampered[0]}` : `import refused: ${integrity.refused[0]}`;
  const distrust = untrusted(integrity) ? `not counted: ${why}` : undefined;
  if (distrust) problems.unshift(distrust.replace(/^not counted: /, "scored 0: "));
  const tests = state.expected.map((entry): TestResult => {
    const base = expectedTest(kata, entry);
    if (distrust) return { ...base, status: "fail", summary: distrust, message: distrust };
    if (hungTests.includes(entry.name)) {
      const message = "timed out: this test never ended (an endless loop?), so it was killed";
      return { ...base, status: "error", summary: message, message };
    }
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
    const why = fileError
      ? `the spec file did not load: ${loadErrorLine(fileError)}`
      : outcome.timedOut
        ? "not run: the run was stopped by the time limit before this test"
        : "not run: the test run ended before this test";
    return { ...base, status: "error", summary: why, message: fileError ? withoutStack(fileError) : why };
  });

  return { kata, tests, problems, hungTests, durationMs, integrity, ...(state.collected ? { collected: state.collected } : {}) };
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
  return {
    matches: JSON.stringify(fresh) === JSON.stringify(committed),
    unlisted: [...fresh.tests, ...fresh.bank].filter((t) => !known.has(`${t.file}\u0000${t.name}`)),
  };
}

export function expectedTest(kata: Kata, entry: ManifestTest): Omit<TestResult, "status"> {
  const tag = splitTag(entry.name);
  return { kata: kata.id, file: entry.file, name: tag.name, level: tag.level, weight: tag.weight, bank: isBankFile(entry.file), taskId: taskIdOf(tag.name) };
}

/** Node's permission model for the test workers, where this Node has one (20: experimental, 22+: stable). */
function confinement(sealed: SealedWorkspace, nodeModules: string): string[] {
  const flag = process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : process.allowedNodeEnvironmentFlags.has("--experimental-permission") ? "--experimental-permission" : undefined;
  if (!flag || process.env.GRADE_UNCONFINED === "1") return [];
  return [flag, `--allow-fs-read=${sealed.root}/*`, `--allow-fs-read=${nodeModules}/*`, `--allow-fs-write=${sealed.writable}/*`];
}

/** The environment vitest and its workers start with: what they need, and nothing of the grader's. */
function childEnvironment(sealed: SealedWorkspace, extra: Record<string, string>): Record<string, string> {
  const kept = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "FC_NUM_RUNS", "SYSTEMROOT"];
  const env: Record<string, string> = {};
  for (const name of kept) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, TMPDIR: sealed.tmp, ...extra };
}

interface SignedRecord {
  t: "test" | "module" | "refused" | "end";
  file?: string;
  name?: string;
  index?: number;
  state?: string;
  canary?: boolean;
  message?: string;
  duration?: number;
  error?: string;
  what?: string;
  reason?: string;
}

const SEALED_CONFIG = join(PROJECT_ROOT, "scripts", "lib", "grader", "sealed.vitest.config.ts");

async function runOnce(states: KataState[], options: Omit<GradeOptions, "only">, sealed: SealedWorkspace, files: string[], run: number, limitMs: number): Promise<AttemptResult> {
  const results = join(options.workDir, `run-${run}.results`);
  const controlFile = join(options.workDir, `run-${run}.control.json`);
  const progress = join(sealed.writable, `${run}.progress.jsonl`);
  const key = newKey();
  const nodeModules = realpathSync(join(PROJECT_ROOT, "node_modules"));
  // Tests not to run again: those that hung, and those that already have a verdict.
  const skip = new Set(states.flatMap((state) => [...state.hungTests, ...state.verdicts.keys()].map((name) => qualified(state.kata.id, name))));
  const narrowed = states.some((state) => state.only);
  // Every test the spec files declare, chosen or not: a canary's place counts them all.
  const declared = states.map((state) => expectedTests(state.manifest, { includeBank: options.includeBank }));
  const plans = states.map((state, i) => planCanaries(declared[i], state.only));
  const control: GradeControl = {
    root: sealed.root,
    kataIds: states.map((state) => state.kata.id),
    maxWorkers: options.maxWorkers ?? availableParallelism(),
    nodeModules,
    results,
    key,
    canaries: Object.assign({}, ...plans),
    confine: confinement(sealed, nodeModules),
  };
  writeFileSync(controlFile, JSON.stringify(control), { mode: 0o600 });
  const outcome = await runVitest(
    ["run", ...files, "--config", SEALED_CONFIG],
    childEnvironment(sealed, {
      [CONTROL_ENV]: controlFile,
      FC_SEED: String(options.seed),
      GRADE_PROGRESS: progress,
      GRADE_SKIP: JSON.stringify([...skip]),
      // A kata graded whole has every test of its own chosen.
      ...(narrowed
        ? {
          GRADE_ONLY: JSON.stringify(states.flatMap((state, i) =>
            [...(state.only ? [...state.only] : state.expected.map((t) => t.name)), ...canaryNames(declared[i], plans[i])].map((name) => qualified(state.kata.id, name)))),
        }
        : {}),
    }),
    limitMs,
    { progressFile: progress, stallMs: STALL_MS },
    { cwd: sealed.root, replaceEnv: true },
  );
  const katas = new Map(states.map((state) => [state.kata.id, emptyAttempt()]));
  // A spec file's kata, whether the path is the workspace's (spec/NN-name/...) or absolute.
  const kataIdOf = (file: string | undefined) => /(?:^|[\\/])spec[\\/](\d\d-[\w-]+)[\\/]/.exec(file ?? "")?.[1] ?? "";
  const kataOfFile = (file: string | undefined) => katas.get(kataIdOf(file));

  // The progress log is the test workers' own word: it may say which test started and never
  // ended (a synchronous hang blocks everything else), never that a test passed.
  for (const record of readProgress(progress)) {
    const id = kataIdOf(record.file);
    const attempt = katas.get(id);
    if (!attempt || skip.has(qualified(id, record.test))) continue;
    if (record.event === "start") attempt.open.add(record.test);
    else attempt.open.delete(record.test);
  }
  const signed = readSigned<SignedRecord>(results, key);
  const refusedByNone: string[] = [];
  const reported = new Map<string, ReportedTest[]>();
  let reportWritten = false;
  for (const record of signed.records) {
    if (record.t === "end") reportWritten = true;
    else if (record.t === "refused") {
      // Every spec file that loads the module meets the same refusal: say it once. The kata whose
      // module asked is named by the file's folder; a load no module can be named for counts against all.
      const line = `${record.file} imports '${record.what}': ${record.reason}`;
      const list = katas.get(record.file!.split("/")[0])?.integrity.refused ?? refusedByNone;
      if (!list.includes(line)) list.push(line);
    }
    else if (record.t === "module") kataOfFile(record.file)?.fileErrors.set(record.file!, record.error!);
    else if (record.t === "test") {
      const file = record.file!;
      reported.set(file, [...(reported.get(file) ?? []), { index: record.index!, name: record.name!, state: record.state!, canary: record.canary! }]);
      const id = kataIdOf(file);
      const attempt = katas.get(id);
      if (!attempt || record.canary || skip.has(qualified(id, record.name!))) continue;
      attempt.verdicts.set(record.name!, { status: stateToStatus(record.state), message: record.message, durationMs: record.duration });
    }
  }
  // Every test the specs declare, in their order: files by path, then each file's own order.
  for (const file of [...reported.keys()].sort()) {
    const attempt = kataOfFile(file);
    if (!attempt) continue;
    const tests = reported.get(file)!.sort((a, b) => a.index - b.index);
    const plan = control.canaries[file];
    if (plan) attempt.integrity.tampered.push(...canaryFindings(file, tests, plan));
    for (const t of tests) if (!t.canary) attempt.listed.push({ file, name: t.name });
  }
  return { katas, forged: signed.forged, refusedByNone, outcome, reportWritten };
}

function stateToStatus(state: string | undefined): TestStatus {
  // "skip"/"pending"/"todo": a graded test that did not run did not pass.
  return state === "pass" || state === "passed" ? "pass" : "fail";
}

interface ProgressRecord {
  event: "start" | "end";
  file?: string;
  test: string;
  state?: string;
  message?: string;
}

function readProgress(path: string): ProgressRecord[] {
  if (!existsSync(path)) return [];
  const records: ProgressRecord[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line) as ProgressRecord);
    } catch {
      // A line cut by the kill: the test it names has no verdict, which is what it earned.
    }
  }
  return records;
}
