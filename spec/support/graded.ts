// The one way a spec declares what a test is worth: its level and its weight travel in the
// test's name, as a trailing tag like "[L2 w3]", so that the grader can score any run from the
// names alone, even a run that crashed before vitest could report anything else.
import { test } from "vitest";
import { helperCpuMs } from "./realm.ts";
import { EXAMPLE_WEIGHT, PROPERTY_WEIGHT, tagName, type Level } from "./test-tag.ts";
import { IDLE_MS } from "./time-limits.ts";

type Body = () => unknown;

export interface GradedOptions {
  /** Overrides the default weight (1 for an example, 3 for a property). */
  weight?: number;
  /** Per-test timeout in ms (vitest's default from vitest.config.ts otherwise). */
  timeout?: number;
  /** One of the kata's core tests (test-tag.ts): the sprint's, and `--core`'s. */
  core?: boolean;
}

export interface GradedTest {
  /** An example test: one input, one expected answer. */
  (name: string, body: Body, options?: GradedOptions): void;
  /** A property test: a body that calls `fc.assert`. */
  property(name: string, body: Body, options?: GradedOptions): void;
}

function graded(level: Level): GradedTest {
  const declare = (name: string, body: Body, timeout: number | undefined) => test(name, () => failWhenIdle(body()), timeout);
  const example = (name: string, body: Body, options: GradedOptions = {}) =>
    declare(tagName(name, level, options.weight ?? EXAMPLE_WEIGHT, options.core), body, options.timeout);
  const property = (name: string, body: Body, options: GradedOptions = {}) =>
    declare(tagName(name, level, options.weight ?? PROPERTY_WEIGHT, options.core), body, options.timeout);
  return Object.assign(example, { property });
}

/** How often an asynchronous test's CPU use is sampled, and the share of a sample's wall time
 * below which it counts as idle (a process that computes, even on a crowded machine, gets far more). */
const SAMPLE_MS = 250;
const IDLE_CPU_SHARE = 0.02;
// Taken at load, before any test can install fake timers.
const { setInterval, clearInterval } = globalThis;
const now = performance.now.bind(performance);

/**
 * A synchronous body's result as it is; an asynchronous one's promise, failed when the process
 * (and, in a graded run, the kata's sandbox process: realm.ts) has used almost no CPU for IDLE_MS
 * (see time-limits.ts): a promise that never settles is caught in IDLE_MS whatever the load, while
 * a test that works slowly on a busy machine keeps its time.
 */
function failWhenIdle(result: unknown): unknown {
  if (!(result instanceof Promise)) return result;
  return new Promise((resolve, reject) => {
    const cpuMs = () => {
      const own = process.cpuUsage();
      return (own.user + own.system) / 1000 + helperCpuMs();
    };
    let last = cpuMs();
    let lastAt = now();
    let busyAt = lastAt;
    const watch = setInterval(() => {
      const at = now();
      const used = cpuMs();
      if (used - last > IDLE_CPU_SHARE * (at - lastAt)) busyAt = at;
      last = used;
      lastAt = at;
      if (at - busyAt >= IDLE_MS) {
        clearInterval(watch);
        reject(new Error(`no progress for ${IDLE_MS / 1000} s: the test waits on something that never happens (a promise that never settles?)`));
      }
    }, SAMPLE_MS);
    result.then(
      (value) => (clearInterval(watch), resolve(value)),
      (error) => (clearInterval(watch), reject(error)),
    );
  });
}

export const l1 = graded("L1");
export const l2 = graded("L2");
export const l3 = graded("L3");
