// The one way a spec declares what a test is worth: its level and its weight travel in the
// test's name, as a trailing tag like "[L2 w3]", so that the grader can score any run from the
// names alone, even a run that crashed before vitest could report anything else.
import { test } from "vitest";
import { declareGraded } from "./canary.ts";

/** L1 basic use (the happy path), L2 protocol design (robust parsing, clear errors),
 * L3 systems thinking (limits, isolation, observability). */
export type Level = "L1" | "L2" | "L3";

/** A single example weighs 1; a fast-check property, which checks hundreds of cases, weighs 3. */
export const EXAMPLE_WEIGHT = 1;
export const PROPERTY_WEIGHT = 3;

type Body = () => unknown;

export interface GradedOptions {
  /** Overrides the default weight (1 for an example, 3 for a property). */
  weight?: number;
  /** Per-test timeout in ms (vitest's default from vitest.config.ts otherwise). */
  timeout?: number;
}

/** The tag the grader parses: `[L2 w3]` at the very end of the test's name. */
export const TAG_PATTERN = /\s\[(L[123]) w(\d+)\]$/;

export function tagName(name: string, level: Level, weight: number): string {
  if (!Number.isInteger(weight) || weight < 1) throw new Error(`weight must be a positive integer: ${weight}`);
  return `${name} [${level} w${weight}]`;
}

export interface GradedTest {
  /** An example test: one input, one expected answer. */
  (name: string, body: Body, options?: GradedOptions): void;
  /** A property test: a body that calls `fc.assert`. */
  property(name: string, body: Body, options?: GradedOptions): void;
}

function graded(level: Level): GradedTest {
  const declare = (name: string, body: Body, timeout: number | undefined) => declareGraded(name, () => test(name, body, timeout), timeout);
  const example = (name: string, body: Body, options: GradedOptions = {}) =>
    declare(tagName(name, level, options.weight ?? EXAMPLE_WEIGHT), body, options.timeout);
  const property = (name: string, body: Body, options: GradedOptions = {}) =>
    declare(tagName(name, level, options.weight ?? PROPERTY_WEIGHT), body, options.timeout);
  return Object.assign(example, { property });
}

export const l1 = graded("L1");
export const l2 = graded("L2");
export const l3 = graded("L3");
