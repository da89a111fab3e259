// Scores from weights: per kata 0-100, per level within a kata and across katas, and overall.
import type { Level } from "../../../spec/support/test-tag.ts";
import type { KataResult } from "./kata-result.ts";
import type { TestResult } from "./test-result.ts";

export const LEVELS: readonly Level[] = ["L1", "L2", "L3"];

export interface Tally {
  earned: number;
  possible: number;
  passed: number;
  total: number;
}

export interface KataScore {
  kata: string;
  /** From the visible specs only. */
  score: number;
  tally: Tally;
  levels: Record<Level, Tally>;
  /** From the held-out bank, when it was run (`--bank`): kept apart from the visible score. */
  bank?: { score: number; tally: Tally; levels: Record<Level, Tally> };
}

export interface Scores {
  katas: KataScore[];
  /** Per level, the mean of the katas' scores at that level (NaN where no kata has one), as the overall score is the mean of theirs. */
  levels: Record<Level, number>;
  /** The mean of the kata scores: each kata counts the same, however many tests it has. */
  overall: number;
  /** The same mean over the bank scores, when the bank was run. */
  bankOverall?: number;
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : Math.floor((10 * values.reduce((s, v) => s + (Number.isNaN(v) ? 0 : v), 0)) / values.length) / 10;
}

function tally(tests: TestResult[]): Tally {
  const passed = tests.filter((t) => t.status === "pass");
  return {
    earned: passed.reduce((sum, t) => sum + t.weight, 0),
    possible: tests.reduce((sum, t) => sum + t.weight, 0),
    passed: passed.length,
    total: tests.length,
  };
}

/** 0-100 with one decimal; a level with no test is reported as absent, not as 0 or 100. */
export function percent(t: Tally): number {
  return t.possible === 0 ? Number.NaN : Math.floor((1000 * t.earned) / t.possible) / 10;
}

function byLevel(tests: TestResult[]): Record<Level, Tally> {
  return Object.fromEntries(LEVELS.map((level) => [level, tally(tests.filter((t) => t.level === level))])) as Record<Level, Tally>;
}

export function score(runs: KataResult[]): Scores {
  const katas = runs.map((run): KataScore => {
    const visible = run.tests.filter((t) => !t.bank);
    const bank = run.tests.filter((t) => t.bank);
    const t = tally(visible);
    const b = tally(bank);
    return {
      kata: run.kata.id,
      score: percent(t),
      tally: t,
      levels: byLevel(visible),
      ...(bank.length === 0 ? {} : { bank: { score: percent(b), tally: b, levels: byLevel(bank) } }),
    };
  });
  const banked = katas.filter((k) => k.bank);
  const levelMean = (level: Level) => {
    const graded = katas.filter((k) => k.levels[level].total > 0);
    return graded.length === 0 ? NaN : mean(graded.map((k) => percent(k.levels[level])));
  };
  return {
    katas,
    levels: Object.fromEntries(LEVELS.map((l) => [l, levelMean(l)])) as Record<Level, number>,
    overall: mean(katas.map((k) => k.score)),
    ...(banked.length === 0 ? {} : { bankOverall: mean(banked.map((k) => k.bank!.score)) }),
  };
}
