// A kata's result: every test the grade expected with its verdict, or why it has none (the spec
// file did not load, the test hung, the run ended first), and the problems beyond single tests (a
// hang, a crash, a spec file that did not load, too much output), said once each.
import type { SandboxEvent } from "./sandbox-events.ts";
import type { SpecRun, Verdict } from "./spec-run.ts";
import { expectedTest, type KataTarget } from "./expected.ts";
import type { Integrity } from "./integrity.ts";
import type { Kata } from "./katas.ts";
import { manifestLists, type KataManifest, type ManifestTest } from "./manifest.ts";
import { loadErrorLine, optionalInput, parsePropertyFailure, splitTag, summaryLine, withoutStack, type TestResult } from "./test-result.ts";
import type { ConfinementLevel } from "../../../spec/support/sandbox/confinement.ts";

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

export interface KataResult {
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

export interface KataResultContext {
  durationMs: number;
  integrity: Integrity;
  sandbox: SandboxInfo;
  includeBank: boolean;
}

/** A kata's part of a run, every test of `expected` with a verdict (exported for its tests). */
export function kataResult(target: KataTarget, expected: ManifestTest[], run: SpecRun, events: SandboxEvent[], context: KataResultContext): KataResult {
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
        ...(message === undefined ? {} : { message, summary: summaryLine(message), ...optionalInput(message), property: parsePropertyFailure(message) }),
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

