// Scores from weights: per kata 0-100, per level within a kata and across katas, and overall.
import type { Level } from "../../../spec/support/graded.ts";
import type { KataRun } from "./run-kata.ts";
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
  score: number;
  tally: Tally;
  levels: Record<Level, Tally>;
}

export interface Scores {
  katas: KataScore[];
  levels: Record<Level, Tally>;
  /** The mean of the kata scores: each kata counts the same, however many tests it has. */
  overall: number;
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

export function score(runs: KataRun[]): Scores {
  const katas = runs.map((run) => {
    const t = tally(run.tests);
    return { kata: run.kata.id, score: percent(t), tally: t, levels: byLevel(run.tests) };
  });
  const all = runs.flatMap((run) => run.tests);
  const overall = katas.length === 0 ? 0 : Math.floor((10 * katas.reduce((s, k) => s + (Number.isNaN(k.score) ? 0 : k.score), 0)) / katas.length) / 10;
  return { katas, levels: byLevel(all), overall };
}
