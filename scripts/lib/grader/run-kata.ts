// Grades one kata: runs its specs against an implementation in a child process under a
// wall-clock watchdog, then gives every test of the manifest a verdict, whatever happened.
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
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
import { runVitest, type ChildOutcome } from "./vitest-child.ts";

export interface GradeOptions {
  implRoot: string;
  seed: number;
  /** Wall-clock limit for one run of one kata's specs. */
  timeoutMs: number;
  /** Scratch folder for reports and progress logs. */
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
}

/**
 * A hang costs the test that hung, not the tests after it: the kata is re-run without the tests
 * that hung, as long as the time budget (twice the per-run limit) lasts.
 */
const MAX_RERUNS = 8;
/** Longer than vitest's own test timeout (vitest.config.ts), which ends async hangs by itself. */
export const STALL_MS = 7_000;

interface Verdict {
  status: TestStatus;
  message?: string;
  durationMs?: number;
}

interface AttemptResult {
  verdicts: Map<string, Verdict>;
  /** Every test the run's report names, run or skipped, in the report's order. */
  listed: ManifestTest[];
  started: Set<string>;
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
  const problems: string[] = [];
  const hungTests: string[] = [];
  const deadline = started + 2 * options.timeoutMs;
  // Verdicts gathered over every attempt: a re-run skips what already has one.
  const verdicts = new Map<string, Verdict>();
  const filesOf = (tests: ManifestTest[]) => [...new Set(tests.map((t) => t.file))];
  let files = options.only ? filesOf(expected) : [`spec/${kata.id}/`];
  let attempt: AttemptResult;
  let collected: CollectedTests | undefined;
  for (let run = 0; ; run++) {
    const limit = Math.min(options.timeoutMs, Math.max(1000, deadline - Date.now()));
    attempt = await runOnce(kata, options, files, new Set([...hungTests, ...verdicts.keys()]), run, limit);
    if (run === 0 && !options.only && attempt.reportWritten) collected = compareToManifest(attempt.listed, manifest, options.includeBank);
    for (const [name, verdict] of attempt.verdicts) verdicts.set(name, verdict);
    if (!attempt.outcome.timedOut) break;
    const hung = [...attempt.started].filter((name) => !verdicts.has(name) && !hungTests.includes(name));
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

  const tests = expected.map((entry): TestResult => {
    const base = expectedTest(kata, entry);
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

  return { kata, tests, problems, hungTests, durationMs: Date.now() - started, ...(collected ? { collected } : {}) };
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

async function runOnce(kata: Kata, options: GradeOptions, files: string[], skip: Set<string>, run: number, limitMs: number): Promise<AttemptResult> {
  const report = join(options.workDir, `${kata.id}.${run}.json`);
  const progress = join(options.workDir, `${kata.id}.${run}.progress.jsonl`);
  const outcome = await runVitest(
    ["run", ...files, "--reporter=json", `--outputFile=${report}`],
    {
      KATA_IMPL: options.implRoot,
      FC_SEED: String(options.seed),
      GRADE_PROGRESS: progress,
      GRADE_SKIP: JSON.stringify([...skip]),
      GRADE_BANK: options.includeBank ? "1" : "0",
      ...(options.only ? { GRADE_ONLY: JSON.stringify([...options.only]) } : {}),
    },
    limitMs,
    { progressFile: progress, stallMs: STALL_MS },
  );
  const verdicts = new Map<string, Verdict>();
  const listed: ManifestTest[] = [];
  const started = new Set<string>();
  const fileErrors = new Map<string, string>();

  // The progress log first: it survives a killed run. The JSON report, when there is one, is
  // more complete (it has failures that happen outside a test's hooks), so it overrides.
  for (const record of readProgress(progress)) {
    if (skip.has(record.test)) continue;
    if (record.event === "start") started.add(record.test);
    else verdicts.set(record.test, { status: stateToStatus(record.state), message: record.message });
  }
  const reportWritten = existsSync(report);
  if (reportWritten) {
    const parsed = readReport(report);
    for (const file of parsed?.testResults ?? []) {
      const path = relative(PROJECT_ROOT, file.name).split("\\").join("/");
      if (file.assertionResults.length === 0 && file.message) fileErrors.set(path, file.message);
      for (const test of file.assertionResults) {
        const name = [...test.ancestorTitles, test.title].join(" > ");
        listed.push({ file: path, name });
        if (skip.has(name)) continue;
        const reported = test.failureMessages.length > 0 ? test.failureMessages.join("\n") : undefined;
        // vitest's JSON reporter writes a timed-out test's error as a bare "STACK_TRACE_ERROR";
        // the progress log, written from inside the worker, kept the real message.
        const message = reported && /^\w*Error: STACK_TRACE_ERROR$/.test(reported.split("\n")[0].trim()) ? (verdicts.get(name)?.message ?? reported) : reported;
        verdicts.set(name, { status: stateToStatus(test.status), message, durationMs: test.duration ?? undefined });
      }
    }
  }
  return { verdicts, listed, started, fileErrors, outcome, reportWritten };
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

interface VitestJsonReport {
  testResults: Array<{
    name: string;
    message: string;
    assertionResults: Array<{
      ancestorTitles: string[];
      title: string;
      status: string;
      duration?: number | null;
      failureMessages: string[];
    }>;
  }>;
}

function readReport(path: string): VitestJsonReport | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as VitestJsonReport;
  } catch {
    return undefined;
  }
}
