// One line of the leaderboard, read from the candidate's results.json (the file `npm run grade
// --json` writes), so that the leaderboard shows exactly what the candidate's own grade says.
import type { Level } from "../../../spec/support/test-tag.ts";
import { LEVELS, percent, type Tally } from "../grader/score.ts";

/** A score 0-100, or null where there is nothing to score (a level with no test, no bank run). */
export type Figure = number | null;

export interface KataRow {
  kata: string;
  score: Figure;
  levels: Record<Level, Figure>;
  bank: Figure;
  bankLevels: Record<Level, Figure>;
  passed: number;
  total: number;
  /** results.json's x_katas[].integrity.status: ok, notes or refused. */
  integrity: string;
}

export interface RoundRow {
  candidate: string;
  dir: string;
  /** graded now, cached (unchanged since its last grade), over-budget, or failed (the grade itself failed). */
  state: "graded" | "cached" | "over-budget" | "failed";
  /** Why a candidate has no scores: the budget, the grader's last words. */
  note?: string;
  overall: number;
  bankOverall: Figure;
  levels: Record<Level, Figure>;
  bankLevels: Record<Level, Figure>;
  katas: KataRow[];
  /** results.json's x_integrity (the worst kata), or "-" when there are no results. */
  integrity: string;
  /** results.json's x_sandbox.level: how the candidate's code was confined, or "-". */
  sandbox: string;
  seed?: number;
  /** Wall-clock time of the candidate's grade, start to finish. */
  wallMs: number;
  /** The candidate's own HTML report, when there is one. */
  report?: string;
}

interface ResultsTest {
  status: string;
  x_kata: string;
  x_level: Level;
  x_bank: boolean;
  x_weight: number;
}

export interface Results {
  score: number;
  x_bank_score?: number;
  x_seed: number;
  x_integrity: string;
  x_sandbox?: { level: string };
  x_levels: Record<Level, Figure>;
  x_katas: Array<{ kata: string; score: number; passed: number; total: number; levels: Record<Level, Figure>; bank_score?: number; integrity: { status: string } }>;
  tests: ResultsTest[];
}

const figure = (value: number | undefined): Figure => (value === undefined || Number.isNaN(value) ? null : value);

/** The bank's score per level, from the tests (results.json keeps only the bank's kata and overall scores). */
function bankLevels(tests: readonly ResultsTest[]): Record<Level, Figure> {
  const bank = tests.filter((t) => t.x_bank);
  return Object.fromEntries(LEVELS.map((level) => {
    const of = bank.filter((t) => t.x_level === level);
    const tally: Tally = {
      earned: of.filter((t) => t.status === "pass").reduce((sum, t) => sum + t.x_weight, 0),
      possible: of.reduce((sum, t) => sum + t.x_weight, 0),
      passed: 0,
      total: of.length,
    };
    return [level, figure(percent(tally))];
  })) as Record<Level, Figure>;
}

const noLevels = (): Record<Level, Figure> => ({ L1: null, L2: null, L3: null });

export function rowFromResults(base: Pick<RoundRow, "candidate" | "dir" | "state" | "wallMs" | "report">, results: Results): RoundRow {
  return {
    ...base,
    overall: results.score,
    bankOverall: figure(results.x_bank_score),
    levels: results.x_levels,
    bankLevels: results.x_bank_score === undefined ? noLevels() : bankLevels(results.tests),
    integrity: results.x_integrity,
    sandbox: results.x_sandbox?.level ?? "-",
    seed: results.x_seed,
    katas: results.x_katas.map((k) => ({
      kata: k.kata,
      score: figure(k.score),
      levels: k.levels,
      bank: figure(k.bank_score),
      bankLevels: k.bank_score === undefined ? noLevels() : bankLevels(results.tests.filter((t) => t.x_kata === k.kata)),
      passed: k.passed,
      total: k.total,
      integrity: k.integrity.status,
    })),
  };
}

/** A candidate whose grade gave no results: it scores 0, and the note says why. */
export function rowWithoutResults(base: Pick<RoundRow, "candidate" | "dir" | "state" | "wallMs">, note: string): RoundRow {
  return { ...base, note, overall: 0, bankOverall: null, levels: noLevels(), bankLevels: noLevels(), katas: [], integrity: "-", sandbox: "-" };
}

/** Best first; ties by name, so that the order never depends on which grade ended first. */
export function ranked(rows: readonly RoundRow[]): RoundRow[] {
  return [...rows].sort((a, b) => b.overall - a.overall || (b.bankOverall ?? -1) - (a.bankOverall ?? -1) || a.candidate.localeCompare(b.candidate));
}

/** The katas any candidate was graded on, in order: the leaderboard's columns. */
export function kataColumns(rows: readonly RoundRow[]): string[] {
  return [...new Set(rows.flatMap((r) => r.katas.map((k) => k.kata)))].sort();
}

export function shown(value: Figure): string {
  return value === null ? "-" : value.toFixed(1);
}
