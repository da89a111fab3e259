// One answer of `npm run watch`, as a line another tool can read (`--events`): the mock interview
// (scripts/interview.ts) records how the score grew from these lines while the candidate reads
// watch's own report above them.
import type { Level } from "../../../spec/support/test-tag.ts";
import { LEVELS, percent } from "../grader/score.ts";
import type { TestResult } from "../grader/test-result.ts";

/** The prefix that tells an event line from watch's report, which a person reads. */
export const EVENT_PREFIX = "@watch-answer ";

export interface AnswerEvent {
  passing: number;
  total: number;
  /** Percent of the answer's tests, by their weights (the kata's score on them); null for none. */
  score: number | null;
  /** Percent per level, by the tests' weights; null for a level with no test in the answer. */
  levels: Record<Level, number | null>;
  /** Slow tests a quick answer left to the full answer that follows. */
  pending: number;
  /** The test the report names next, if any. */
  next?: string;
  problems: string[];
}

export function answerEvent(tests: TestResult[], pending: ReadonlySet<string>, problems: string[], next: TestResult | undefined): AnswerEvent {
  const levels = Object.fromEntries(
    LEVELS.map((level) => {
      const of = tests.filter((t) => t.level === level);
      const earned = of.filter((t) => t.status === "pass").reduce((sum, t) => sum + t.weight, 0);
      const value = percent({ earned, possible: of.reduce((sum, t) => sum + t.weight, 0), passed: 0, total: of.length });
      return [level, Number.isNaN(value) ? null : value];
    }),
  ) as Record<Level, number | null>;
  const earned = tests.filter((t) => t.status === "pass").reduce((sum, t) => sum + t.weight, 0);
  const score = percent({ earned, possible: tests.reduce((sum, t) => sum + t.weight, 0), passed: 0, total: tests.length });
  return { passing: tests.filter((t) => t.status === "pass").length, total: tests.length, score: Number.isNaN(score) ? null : score, levels, pending: pending.size, ...(next ? { next: next.name } : {}), problems };
}

export const formatEvent = (event: AnswerEvent): string => EVENT_PREFIX + JSON.stringify(event);

export function parseEvent(line: string): AnswerEvent | undefined {
  if (!line.startsWith(EVENT_PREFIX)) return undefined;
  try {
    return JSON.parse(line.slice(EVENT_PREFIX.length)) as AnswerEvent;
  } catch {
    return undefined;
  }
}
