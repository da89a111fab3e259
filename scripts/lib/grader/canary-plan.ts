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
 * passes only when assertions stopped throwing or verdicts were rewritten; a canary whose twin
 * (the graded test the plan put it just before or just after) is reported under another name
 * means the file's tests were changed in memory. A twin that was not reported says nothing: a run
 * killed for a hang in another file stops reporting anywhere, even between a canary and its twin
 * (that was once read as a forgery, and scored an honest kata 0); and a test that is never
 * reported earns nothing anyway.
 */
export function canaryFindings(file: string, tests: ReportedTest[], plan: CanaryPlan): string[] {
  const findings: string[] = [];
  const byIndex = new Map(tests.map((t) => [t.index, t]));
  canaryPositions(plan).forEach((position, j) => {
    const canary = byIndex.get(position);
    if (!canary?.canary) return;
    if (canary.state === "passed") findings.push(`${file}: a test that must fail passed (canary beside '${canary.name}')`);
    const twin = byIndex.get(plan.after[j] ? position - 1 : position + 1);
    if (twin && (twin.canary || twin.name !== canary.name)) {
      findings.push(`${file}: the file's tests were not the ones it declares (canary at position ${position} has no twin named '${canary.name}')`);
    }
  });
  return findings;
}
