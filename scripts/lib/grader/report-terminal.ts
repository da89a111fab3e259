// The report a person reads: a compact table, then what fails and what to do next.
import { styleText } from "node:util";
import { firstNotes, integrityStatus, untrustedRuns, untrustedSentence } from "./integrity-report.ts";
import type { Level } from "../../../spec/support/test-tag.ts";
import { levelsFlag, nextStage } from "./levels.ts";
import { inTeachingOrder, nextTest } from "./next-test.ts";
import type { KataResult } from "./kata-result.ts";
import { LEVELS, percent, type Scores, type Tally } from "./score.ts";
import type { TestResult } from "./test-result.ts";
import { columns, type Cell } from "../table.ts";

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
}

const plain: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s };
// Whether to colour is styleFor's rule, not styleText's: some Node 20 releases colour whatever the
// stream, later ones check process.stdout their own way (FORCE_COLOR, TERM). validateStream: false
// makes styleText colour always on each (a release without the option ignores it, and colours).
const styled = (format: "bold" | "dim" | "red" | "green" | "yellow") => (s: string) => styleText(format, s, { validateStream: false });
const coloured: Style = { bold: styled("bold"), dim: styled("dim"), red: styled("red"), green: styled("green"), yellow: styled("yellow") };

/** Colours only for a person at a terminal: never in a file, a pipe or CI logs. */
export function styleFor(stream: NodeJS.WriteStream): Style {
  return stream.isTTY && !process.env.NO_COLOR ? coloured : plain;
}

const STUB_MESSAGE = "not implemented";
/** Failing tests listed per kata before "... and N more". */
const LISTED_FAILURES = 12;
/** Tests failing with the same message are reported as one line from this many on. */
const GROUP_AT = 5;
/** Integrity lines of each kind shown per kata: the full lists are in --json. */
const LISTED_INTEGRITY = 10;

function figure(t: Tally): string {
  const p = percent(t);
  return Number.isNaN(p) ? "-" : p.toFixed(1);
}

function scoreColour(style: Style, value: number, text: string): string {
  return value >= 100 ? style.green(text) : value > 0 ? style.yellow(text) : style.red(text);
}

/** A kata scored 0 for a refused import says so on its row, so the 0 is not read as "not done yet". */
function integrityMark(run: KataResult | undefined, style: Style): string {
  return integrityStatus(run?.integrity) === "refused" ? `  ${style.red("REFUSED")}` : "";
}

export function table(scores: Scores, style: Style, runs: KataResult[]): string {
  const withBank = scores.bankOverall !== undefined;
  const scored = (value: number, text: string): Cell => ({ text, paint: (padded) => scoreColour(style, value, padded) });
  const header = ["kata", "score", ...LEVELS, "passing", ...(withBank ? ["bank", "passing"] : [])];
  const rows = scores.katas.map((k) => [
    k.kata,
    scored(k.score, Number.isNaN(k.score) ? "-" : k.score.toFixed(1)),
    ...LEVELS.map((l) => figure(k.levels[l])),
    `${k.tally.passed}/${k.tally.total}`,
    ...(!withBank ? [] : k.bank ? [scored(k.bank.score, k.bank.score.toFixed(1)), `${k.bank.tally.passed}/${k.bank.tally.total}`] : ["-", ""]),
  ]);
  const overall = ["overall", scored(scores.overall, scores.overall.toFixed(1)), ...LEVELS.map((l) => (Number.isNaN(scores.levels[l]) ? "-" : scores.levels[l].toFixed(1))), ...(withBank ? ["", scored(scores.bankOverall!, scores.bankOverall!.toFixed(1))] : [])];
  const widths = [22, 7, ...LEVELS.map(() => 7), 10, 8, 10];
  const [head, ...lines] = columns([header, ...rows, overall], { widths, alignRight: (c) => c > 0, gap: "", indent: "  " });
  const last = lines.pop()!;
  return [style.bold(head), ...lines.map((line, i) => `${line}${integrityMark(runs[i], style)}`), style.bold(last)].join("\n");
}

/** A test's level and weight as its name in the specs and the READMEs write them: `[L2 w3]`. */
export function levelTag(test: Pick<TestResult, "level" | "weight"> & { core?: boolean }): string {
  return `[${test.level} w${test.weight}${test.core ? " core" : ""}]`;
}

function describeFailure(test: TestResult, style: Style): string[] {
  const mark = test.status === "error" ? style.red("!") : style.red("✗");
  const lines = [`  ${mark} ${test.bank ? "bank · " : ""}${test.name} ${style.dim(levelTag(test))}`];
  if (test.summary) lines.push(`      ${test.summary}`);
  if (test.input) lines.push(style.dim(`      input: ${test.input}`));
  if (test.property) {
    const { counterexample, seed, path } = test.property;
    if (counterexample !== undefined) lines.push(style.dim(`      counterexample: ${counterexample.length > 300 ? `${counterexample.slice(0, 297)}...` : counterexample}`));
    if (seed !== undefined) lines.push(style.dim(`      replay: seed ${seed}, path "${path ?? ""}"`));
  }
  return lines;
}

export function failures(runs: KataResult[], style: Style, listAll: boolean): string {
  const out: string[] = [];
  for (const run of runs) {
    // In the order to fix them (next-test.ts): the first lines are the ones worth reading.
    const failing = inTeachingOrder(run.tests.filter((t) => t.status !== "pass"));
    if (failing.length === 0 && run.problems.length === 0) continue;
    out.push("", style.bold(`${run.kata.id}: ${failing.length} of ${run.tests.length} tests not passing`));
    for (const problem of run.problems) out.push(`  ${style.red("!")} ${problem}`);
    // Many tests failing for one reason (the stub, a module that does not load) make one line.
    const bySummary = new Map<string, TestResult[]>();
    for (const t of failing) bySummary.set(t.summary ?? "", [...(bySummary.get(t.summary ?? "") ?? []), t]);
    const grouped = [...bySummary].filter(([summary, tests]) => summary !== "" && (tests.length >= GROUP_AT || summary === STUB_MESSAGE));
    const groupedTests = new Set(grouped.flatMap(([, tests]) => tests));
    const single = failing.filter((t) => !groupedTests.has(t));
    const shown = new Set(listAll ? single : single.slice(0, LISTED_FAILURES));
    // A group stands where its first test would, so the list keeps the order to fix things in:
    // the stub's L1 tests before an L3 test that fails for a reason of its own.
    const groupLine = ([summary, tests]: (typeof grouped)[number]) => {
      const count = `${tests.length} test${tests.length === 1 ? "" : "s"}`;
      return summary === STUB_MESSAGE
        ? `  ${style.yellow("·")} ${count} fail with "${STUB_MESSAGE}": a function of katas/${run.kata.id}/ is still the stub`
        : `  ${style.red("!")} ${count}: ${summary}`;
    };
    const groupOf = new Map(grouped.flatMap((group) => group[1].map((t) => [t, group] as const)));
    const placed = new Set<(typeof grouped)[number]>();
    for (const test of failing) {
      const group = groupOf.get(test);
      if (group && !placed.has(group)) {
        placed.add(group);
        out.push(groupLine(group));
      } else if (shown.has(test)) out.push(...describeFailure(test, style));
    }
    if (shown.size < single.length) out.push(style.dim(`  ... and ${single.length - shown.size} more (--all lists them, --json FILE keeps them)`));
  }
  return out.join("\n");
}

/** Per kata, what the grader refused, and notes for a reader; "" when there is nothing. */
export function integritySection(runs: KataResult[], style: Style): string {
  const out: string[] = [];
  for (const run of runs) {
    const status = integrityStatus(run.integrity);
    if (status === "ok") continue;
    const { refused, notes } = run.integrity!;
    const heading = status === "notes" ? run.kata.id : `${run.kata.id}: ${style.red(`${status.toUpperCase()}, scored 0`)}`;
    out.push(`  ${style.bold(heading)}`);
    const list = (lines: string[], label: string) => {
      for (const line of lines.slice(0, LISTED_INTEGRITY)) out.push(`    ${style.red("!")} ${label}: ${line}`);
      if (lines.length > LISTED_INTEGRITY) out.push(style.dim(`    ... and ${lines.length - LISTED_INTEGRITY} more (--json FILE keeps them)`));
    };
    list(refused, "refused");
    const { shown, more } = firstNotes(notes, LISTED_INTEGRITY);
    for (const note of shown) out.push(style.dim(`    · note: ${note}`));
    if (more > 0) out.push(style.dim(`    ... and ${more} more note${more === 1 ? "" : "s"}`));
  }
  if (out.length === 0) return "";
  // Notes change no score: say so, so that a reader does not take one for a verdict.
  const legend = style.dim("  (refused: the kata scores 0; a note changes no score)");
  return ["", style.bold("Integrity"), legend, ...out].join("\n");
}

/**
 * What a candidate should do next: the first kata not at 100, its README and the test to make pass
 * first (next-test.ts: the README's order). `levels`: the run's --level, kept in the commands it suggests.
 */
export function nextSteps(runs: KataResult[], scores: Scores, implLabel: string, levels?: readonly Level[], implFlag = "", core = false): string {
  // A refused kata comes first: no other advice applies while the kata rule zeroes it.
  const untrusted = untrustedRuns(runs);
  // Every command it suggests grades what this run graded: the same --impl, the same levels, core or not.
  const gradeFlags = `${implFlag}${levels ? ` --level ${levelsFlag(levels)}` : ""}${core ? " --core" : ""}`;
  if (untrusted.length > 0) {
    const run = untrusted[0];
    const lines = ["", "Next:", ...untrusted.map((r) => `  ! ${untrustedSentence(r)} (see Integrity above)`)];
    lines.push(`  1. make ${run.kata.id} import only its own files (no packages, no node: modules, nothing outside its folder)`);
    lines.push(`  2. re-grade just this kata: npm run grade -- --kata ${run.kata.number}${gradeFlags}`);
    return lines.join("\n");
  }
  const index = scores.katas.findIndex((k) => k.score < 100);
  if (index === -1) {
    if (runs.length === 0) return "";
    // A stage passed: the next one adds a level.
    const stageAfter = levels && nextStage(levels);
    // Visible tests all pass, but a held-out one fails: that is not "all pass".
    const bankFailing = scores.katas.filter((k) => k.bank && k.bank.tally.passed < k.bank.tally.total);
    if (bankFailing.length > 0) {
      const failed = bankFailing.reduce((n, k) => n + k.bank!.tally.total - k.bank!.tally.passed, 0);
      return `\nEvery visible test passes; the bank does not: ${failed} bank test${failed === 1 ? "" : "s"} failing in ${bankFailing.map((k) => k.kata).join(", ")} (listed above).`;
    }
    // The core tests passed: the first stage is the next step, whichever levels this run took.
    if (core) return `\nAll graded katas pass their core tests. Next stage: npm run grade --${implFlag} --level ${levelsFlag(levels ?? ["L1"])}`;
    if (stageAfter) return `\nAll graded katas pass their ${levels!.join(" and ")} tests. Next stage: npm run grade --${implFlag} --level ${levelsFlag(stageAfter)}`;
    return `\nAll graded katas pass. Compare with the reference: npm run compare${implFlag ? ` --${implFlag}` : ""}`;
  }
  const run = runs[index];
  const first = nextTest(run.tests);
  const lines = ["", "Next:"];
  if (implLabel === "katas") lines.push(`  1. read katas/${run.kata.id}/README.md (中文: README.zh-CN.md)`);
  else lines.push(`  1. read the contract: katas/${run.kata.id}/README.md`);
  if (first) lines.push(`  2. make this pass first: ${first.name} ${levelTag(first)}`);
  lines.push(`  3. re-grade just this kata: npm run grade -- --kata ${run.kata.number}${gradeFlags}`);
  return lines.join("\n");
}
