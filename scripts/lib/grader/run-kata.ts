// Grades one kata: runs its specs against an implementation in a child process under a
// wall-clock watchdog, in a sealed workspace, then gives every test of the manifest a verdict,
// whatever happened. Verdicts come only from vitest's main process, over a signed channel; what
// the test workers write (their progress log) can name a test that hung, never one that passed.
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { canaryFindings, planCanaries, type ReportedTest } from "./canary-plan.ts";
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
  /** Wall-clock limit for one run of one kata's specs. */
  timeoutMs: number;
  /** The grader's private scratch folder (verdicts, control files): never readable by the graded code. */
  workDir: string;
  includeBank: boolean;
  /**
   * Full names (as in the manifest) of the only tests to run and score (`--only`): the run loads
   * only their spec files, and the other tests are neither run nor reported.
   */
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
 * A hang costs the test that hung, not the tests after it: the kata is re-run without the tests
 * that hung, as long as the time budget (twice the per-run limit) lasts.
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

interface AttemptResult {
  verdicts: Map<string, Verdict>;
  /** What this attempt saw of a forgery or a refused import. */
  integrity: Integrity;
  /** Every test the run's report names, run or skipped, in the report's order. */
  listed: ManifestTest[];
  /** Tests that started and, by the progress log, never ended: the ones a synchronous hang is in. */
  open: Set<string>;
  fileErrors: Map<string, string>;
  outcome: ChildOutcome;
  reportWritten: boolean;
}

export async function gradeKata(kata: Kata, manifest: KataManifest, options: GradeOptions): Promise<KataRun> {
  const entry = join(options.implRoot, kata.id, "index.ts");
  const expected = expectedTests(manifest, options);
  if (!existsSync(entry)) {
    // Nothing to import: say so plainly rather than let every spec file fail on a missing module.
    const message = `no ${kata.id}/index.ts in ${options.implRoot}: nothing to grade`;
    const tests = expected.map((t): TestResult => ({ ...expectedTest(kata, t), status: "error", summary: message, message }));
    return { kata, tests, problems: [message], hungTests: [], durationMs: 0 };
  }
  const started = Date.now();
  const sealed = sealWorkspace({ kataId: kata.id, implRoot: options.implRoot, includeBank: options.includeBank });
  try {
    return await gradeSealed(kata, manifest, options, sealed, expected, started);
  } finally {
    sealed.remove();
  }
}

async function gradeSealed(kata: Kata, manifest: KataManifest, options: GradeOptions, sealed: SealedWorkspace, expected: ManifestTest[], started: number): Promise<KataRun> {
  const problems: string[] = [];
  const hungTests: string[] = [];
  const integrity = emptyIntegrity();
  integrity.notes.push(...sealed.skipped, ...sourceNotes(join(options.implRoot, kata.id), kata.id));
  const deadline = started + 2 * options.timeoutMs;
  // Verdicts gathered over every attempt: a re-run skips what already has one.
  const verdicts = new Map<string, Verdict>();
  const filesOf = (tests: ManifestTest[]) => [...new Set(tests.map((t) => t.file))];
  let files = options.only ? filesOf(expected) : [`spec/${kata.id}/`];
  let attempt: AttemptResult;
  let collected: CollectedTests | undefined;
  for (let run = 0; ; run++) {
    const limit = Math.min(options.timeoutMs, Math.max(1000, deadline - Date.now()));
    attempt = await runOnce(kata, options, sealed, expectedTests(manifest, { includeBank: options.includeBank }), files, new Set([...hungTests, ...verdicts.keys()]), run, limit);
    integrity.refused.push(...attempt.integrity.refused.filter((r) => !integrity.refused.includes(r)));
    integrity.tampered.push(...attempt.integrity.tampered.filter((r) => !integrity.tampered.includes(r)));
    if (untrusted(integrity)) break;
    if (run === 0 && !options.only && attempt.reportWritten) collected = compareToManifest(attempt.listed, manifest, options.includeBank);
    for (const [name, verdict] of attempt.verdicts) verdicts.set(name, verdict);
    if (!attempt.outcome.timedOut) break;
    // A test that ended but whose verdict had not reached vitest's main process before the kill
    // is not hung: it has no verdict yet, and the re-run gives it one.
    const hung = [...attempt.open].filter((name) => !verdicts.has(name) && !hungTests.includes(name));
    const after = attempt.outcome.stalled ? `${STALL_MS / 1000} s` : `${Math.round(limit / 1000)} s`;
    if (hung.length === 0) {
      problems.push(`timed out after ${Math.round(limit / 1000)} s, and no single test was running: the hang is at import or between tests`);
      break;
    }
    for (const name of hung) {
      hungTests.push(name);
      problems.push(`timed out in test '${splitTag(name).name}' after ${after}`);
    }
    if (run + 1 > MAX_RERUNS || Date.now() >= deadline) {
      problems.push("stopped re-running after too many hangs: the tests not run yet are lost");
      break;
    }
    // The re-run loads only the spec files that still hold a test without a verdict.
    files = filesOf(expected.filter((t) => !verdicts.has(t.name) && !hungTests.includes(t.name)));
    if (files.length === 0) break;
  }

  const { outcome } = attempt;
  // One cause usually breaks every spec file of the kata (the candidate's module does not load): say it once.
  const causes = new Map<string, string[]>();
  for (const [file, error] of attempt.fileErrors) causes.set(loadErrorLine(error), [...(causes.get(loadErrorLine(error)) ?? []), file]);
  for (const [cause, files] of causes) {
    problems.push(files.length === 1 ? `${files[0]} failed to load: ${cause}` : `${files.length} spec files failed to load: ${cause}`);
  }
  if (!attempt.outcome.timedOut && !attempt.reportWritten) {
    const tail = outcome.outputTail.trim().split("\n").slice(-5).join("\n");
    problems.push(`the test run ended without a report (exit code ${outcome.exitCode ?? outcome.signal}): ${tail}`);
  }
  if (outcome.outputBytes > 5 * 1024 * 1024) {
    problems.push(`printed ${(outcome.outputBytes / 1024 / 1024).toFixed(0)} MB of console output (kept the last 64 KB)`);
  }

  const why = integrity.tampered.length > 0 ? `tampering seen: ${integrity.tampered[0]}` : `import refused: ${integrity.refused[0]}`;
  const distrust = untrusted(integrity) ? `not counted: ${why}` : undefined;
  if (distrust) problems.unshift(distrust.replace(/^not counted: /, "scored 0: "));
  const tests = expected.map((entry): TestResult => {
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
    const fileError = attempt.fileErrors.get(entry.file);
    const why = fileError
      ? `the spec file did not load: ${loadErrorLine(fileError)}`
      : attempt.outcome.timedOut
        ? "not run: the kata's run was stopped by the time limit before this test"
        : "not run: the test run ended before this test";
    return { ...base, status: "error", summary: why, message: fileError ? withoutStack(fileError) : why };
  });

  return { kata, tests, problems, hungTests, durationMs: Date.now() - started, integrity, ...(collected ? { collected } : {}) };
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

async function runOnce(kata: Kata, options: GradeOptions, sealed: SealedWorkspace, declared: ManifestTest[], files: string[], skip: Set<string>, run: number, limitMs: number): Promise<AttemptResult> {
  const results = join(options.workDir, `${kata.id}.${run}.results`);
  const controlFile = join(options.workDir, `${kata.id}.${run}.control.json`);
  const progress = join(sealed.writable, `${run}.progress.jsonl`);
  const key = newKey();
  const nodeModules = realpathSync(join(PROJECT_ROOT, "node_modules"));
  const control: GradeControl = {
    root: sealed.root,
    kataId: kata.id,
    nodeModules,
    results,
    key,
    // Every test the spec files declare, chosen or not: a canary's place counts them all.
    canaries: planCanaries(declared, options.only),
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
      ...(options.only ? { GRADE_ONLY: JSON.stringify([...options.only]) } : {}),
    }),
    limitMs,
    { progressFile: progress, stallMs: STALL_MS },
    { cwd: sealed.root, replaceEnv: true },
  );
  const verdicts = new Map<string, Verdict>();
  const listed: ManifestTest[] = [];
  const open = new Set<string>();
  const fileErrors = new Map<string, string>();
  const integrity = emptyIntegrity();

  // The progress log is the test workers' own word: it may say which test started and never
  // ended (a synchronous hang blocks everything else), never that a test passed.
  for (const record of readProgress(progress)) {
    if (skip.has(record.test)) continue;
    if (record.event === "start") open.add(record.test);
    else open.delete(record.test);
  }
  const signed = readSigned<SignedRecord>(results, key);
  if (signed.forged > 0) integrity.tampered.push(`${signed.forged} line(s) in the verdict channel were not written by the test runner`);
  const reported = new Map<string, ReportedTest[]>();
  let reportWritten = false;
  for (const record of signed.records) {
    if (record.t === "end") reportWritten = true;
    else if (record.t === "refused") {
      // Every spec file that loads the module meets the same refusal: say it once.
      const line = `${record.file} imports '${record.what}': ${record.reason}`;
      if (!integrity.refused.includes(line)) integrity.refused.push(line);
    }
    else if (record.t === "module") fileErrors.set(record.file!, record.error!);
    else if (record.t === "test") {
      const file = record.file!;
      reported.set(file, [...(reported.get(file) ?? []), { index: record.index!, name: record.name!, state: record.state!, canary: record.canary! }]);
      if (record.canary || skip.has(record.name!)) continue;
      verdicts.set(record.name!, { status: stateToStatus(record.state), message: record.message, durationMs: record.duration });
    }
  }
  // Every test the specs declare, in their order: files by path, then each file's own order.
  for (const file of [...reported.keys()].sort()) {
    const tests = reported.get(file)!.sort((a, b) => a.index - b.index);
    integrity.tampered.push(...canaryFindings(file, tests));
    for (const t of tests) if (!t.canary) listed.push({ file, name: t.name });
  }
  return { verdicts, integrity, listed, open, fileErrors, outcome, reportWritten };
}

function stateToStatus(state: string | undefined): TestStatus {
  // "skip"/"pending"/"todo": a graded test that did not run did not pass.
  return state === "pass" || state === "passed" ? "pass" : "fail";
}

interface ProgressRecord {
  event: "start" | "end";
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
