// The machine-readable report: Exercism's test-runner results.json, version 3, plus the
// GitHub-Classroom-style score fields and `x_`-prefixed extras. Always valid JSON.
import type { Level } from "../../../spec/support/test-tag.ts";
import { integrityStatus, sandboxOf, untrustedRuns, untrustedSentence, worstStatus } from "./integrity-report.ts";
import type { KataResult } from "./kata-result.ts";
import { LEVELS, percent, type Scores, type Tally } from "./score.ts";
import { testCode } from "./test-code.ts";
import type { TestResult } from "./test-result.ts";

/** Exercism caps a test's `output` at 500 characters. */
const MAX_OUTPUT = 500;

export interface RunInfo {
  impl: string;
  seed: number;
  bank: boolean;
  startedAt: Date;
  durationMs: number;
  /** `--only`: the texts that chose the tests; the scores cover those tests alone. */
  only?: string[];
  /** `--level`: the only levels graded; the scores cover their tests alone. Absent: every level. */
  levels?: Level[];
  /** `--core`: only the core tests graded; the scores cover them alone. */
  core?: boolean;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

function propertyOutput(test: TestResult): string | undefined {
  if (!test.property) return undefined;
  const { counterexample, seed, path } = test.property;
  return clip(`counterexample: ${counterexample ?? "?"}\nreplay: seed ${seed ?? "?"}, path "${path ?? ""}"`, MAX_OUTPUT);
}

function exercismTest(test: TestResult) {
  const output = propertyOutput(test);
  return {
    name: `${test.kata} > ${test.name}`,
    status: test.status,
    message: test.status === "pass" ? null : (test.message ?? test.summary ?? "failed"),
    ...(output === undefined ? {} : { output }),
    test_code: testCode(test.file, test.name),
    ...(test.taskId === undefined ? {} : { task_id: test.taskId }),
    x_kata: test.kata,
    x_file: test.file,
    x_level: test.level,
    x_bank: test.bank,
    x_weight: test.weight,
    x_core: test.core === true,
    ...(test.durationMs === undefined ? {} : { x_duration_ms: Math.round(test.durationMs) }),
    ...(test.property?.seed === undefined ? {} : { x_seed: Number(test.property.seed), x_path: test.property.path }),
    ...(test.property?.counterexample === undefined ? {} : { x_counterexample: test.property.counterexample }),
  };
}

function levelFigures(levels: Record<Level, Tally | number>) {
  const value = (v: Tally | number) => (typeof v === "number" ? v : percent(v));
  return Object.fromEntries(LEVELS.map((l) => [l, Number.isNaN(value(levels[l])) ? null : value(levels[l])]));
}

/** Always present, the same shape for a clean run, so that a reader of the file needs no special case. */
function kataIntegrity(run: KataResult) {
  const { refused = [], notes = [] } = run.integrity ?? {};
  return { status: integrityStatus(run.integrity), refused, notes };
}

export function jsonReport(runs: KataResult[], scores: Scores, info: RunInfo) {
  const tests = runs.flatMap((run) => run.tests);
  const problems = runs.flatMap((run) => run.problems.map((p) => `${run.kata.id}: ${p}`));
  const status = problems.length > 0 && tests.every((t) => t.status === "error") ? "error" : tests.every((t) => t.status === "pass") ? "pass" : "fail";
  // One sentence per kata scored 0 for a refused import. Exercism's v3 format allows the top-level
  // `message` only with status "error" (null or absent otherwise), and a refused kata's tests are
  // failures, not errors: so the sentence leads the message when there is one, and is always in
  // `x_integrity_message` (each of the kata's tests also says "not counted: ...").
  const distrust = untrustedRuns(runs).map(untrustedSentence).join("\n");
  return {
    version: 3,
    status,
    ...(status === "error" ? { message: [distrust, problems.join("\n")].filter(Boolean).join("\n") } : {}),
    tests: tests.map(exercismTest),
    score: scores.overall,
    max_score: 100,
    ...(scores.bankOverall === undefined ? {} : { x_bank_score: scores.bankOverall }),
    x_impl: info.impl,
    x_seed: info.seed,
    x_bank: info.bank,
    ...(info.only ? { x_only: info.only } : {}),
    // Always present, every level without --level: a reader never has to guess what the score covers.
    x_levels_graded: info.levels ?? [...LEVELS],
    x_core_only: info.core === true,
    x_started_at: info.startedAt.toISOString(),
    x_duration_ms: info.durationMs,
    x_levels: levelFigures(scores.levels),
    x_integrity: worstStatus(runs),
    // How the graded code was confined: the guarantee the score rests on (see the interviewer guide).
    ...(sandboxOf(runs) ? { x_sandbox: sandboxOf(runs) } : {}),
    ...(distrust ? { x_integrity_message: distrust } : {}),
    x_katas: runs.map((run, i) => ({
      kata: run.kata.id,
      score: scores.katas[i].score,
      passed: scores.katas[i].tally.passed,
      total: scores.katas[i].tally.total,
      levels: levelFigures(scores.katas[i].levels),
      ...(scores.katas[i].bank ? { bank_score: scores.katas[i].bank!.score, bank_passed: scores.katas[i].bank!.tally.passed, bank_total: scores.katas[i].bank!.tally.total } : {}),
      problems: run.problems,
      integrity: kataIntegrity(run),
      duration_ms: run.durationMs,
      // Whether the specs hold exactly the tests spec/manifest.json lists (absent for an --only run).
      ...(run.collected
        ? {
            collected_matches_manifest: run.collected.matches,
            unlisted_tests: run.collected.unlisted.map((t) => `${t.file}: ${t.name}`),
            ...(run.collected.firstDifference ? { collected_first_difference: run.collected.firstDifference } : {}),
          }
        : {}),
    })),
    x_problems: problems,
  };
}
