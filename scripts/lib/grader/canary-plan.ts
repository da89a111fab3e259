// The grader's side of the canaries (spec/support/canary.ts): where they go in this run, what
// each one asserts, and what their verdicts say. Positions and values come from a secure random
// source per run, never from the fast-check seed, which the graded code can read.
import { randomBytes, randomInt } from "node:crypto";
import { CANARY_KINDS, type CanaryPlan } from "../../../spec/support/canary-kinds.ts";
import type { ManifestTest } from "./manifest.ts";

/** Canaries per spec file: one, and one more in a file with many tests. */
const canariesFor = (tests: number) => (tests === 0 ? 0 : tests >= 20 ? 2 : 1);

const token = () => randomBytes(6).toString("base64url");

/**
 * A plan per spec file (keyed by its path, as in the manifest), from every test the files declare,
 * in their order. With `only`, canaries stand beside chosen tests, since the others are skipped and
 * a skipped canary proves nothing.
 */
export function planCanaries(tests: ManifestTest[], only?: ReadonlySet<string>): Record<string, CanaryPlan> {
  const byFile = new Map<string, ManifestTest[]>();
  for (const t of tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
  const plans: Record<string, CanaryPlan> = {};
  for (const [file, fileTests] of byFile) {
    const eligible = fileTests.map((t, ordinal) => ({ t, ordinal })).filter(({ t }) => !only || only.has(t.name));
    const at = new Set<number>();
    const wanted = Math.min(canariesFor(eligible.length), eligible.length);
    while (at.size < wanted) at.add(eligible[randomInt(eligible.length)].ordinal);
    const sorted = [...at].sort((a, b) => a - b);
    plans[file] = {
      at: sorted,
      after: sorted.map(() => randomInt(2) === 1),
      checks: sorted.map(() => ({ kind: CANARY_KINDS[randomInt(CANARY_KINDS.length)], actual: `a${token()}`, expected: `e${token()}` })),
    };
  }
  return plans;
}

/** Where the canaries of a plan stand among all the tests of its file, canaries included. */
export const canaryPositions = (plan: CanaryPlan): number[] => plan.at.map((ordinal, j) => ordinal + j + (plan.after[j] ? 1 : 0));

export interface ReportedTest {
  index: number;
  name: string;
  state: string;
  canary: boolean;
}

/**
 * What the canaries of one spec file say: nothing when all is well, else what was seen. A canary
 * passes only when assertions stopped throwing or verdicts were rewritten; a canary with no twin
 * of its name beside it means the file's tests were changed in memory.
 */
export function canaryFindings(file: string, tests: ReportedTest[]): string[] {
  const findings: string[] = [];
  const byIndex = new Map(tests.map((t) => [t.index, t]));
  for (const canary of tests.filter((t) => t.canary)) {
    if (canary.state === "passed") findings.push(`${file}: a test that must fail passed (canary beside '${canary.name}')`);
    const twins = [byIndex.get(canary.index - 1), byIndex.get(canary.index + 1)].filter((t) => t && !t.canary);
    if (twins.length > 0 && !twins.some((t) => t!.name === canary.name)) {
      findings.push(`${file}: the file's tests were not the ones it declares (canary at position ${canary.index} has no twin named '${canary.name}')`);
    }
  }
  return findings;
}
