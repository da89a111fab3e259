// What a graded test is worth, as its name carries it: a tag like "[L2 w3]" at the end. Kept apart
// from graded.ts, which declares tests and so loads vitest: the grader and the other tools read
// tags too, and have no use for a test runner in their own process (loading it cost every
// command about 0.13 s before it did anything).

/** L1 basic use (the happy path), L2 protocol design (robust parsing, clear errors),
 * L3 systems thinking (limits, isolation, observability). */
export type Level = "L1" | "L2" | "L3";

/** A single example weighs 1; a fast-check property, which checks hundreds of cases, weighs 3. */
export const EXAMPLE_WEIGHT = 1;
export const PROPERTY_WEIGHT = 3;

/**
 * The tag the grader parses: `[L2 w3]` at the very end of the test's name, or `[L1 w1 core]` for a
 * core test: one of the few of its kata that make its scheme work end to end, which the 20-minute
 * sprint (`npm run interview -- --sprint`) and `--core` grade alone.
 */
export const TAG_PATTERN = /\s\[(L[123]) w(\d+)( core)?\]$/;

export function tagName(name: string, level: Level, weight: number, core = false): string {
  if (!Number.isInteger(weight) || weight < 1) throw new Error(`weight must be a positive integer: ${weight}`);
  return `${name} [${level} w${weight}${core ? " core" : ""}]`;
}
