// The grader's side of the canaries (spec/support/canary.ts): where they go in this run, what
// each one asserts, and what their verdicts say. Positions and values come from a secure random
// source per run, never from the fast-check seed, which the graded code can read.
import { randomBytes, randomInt } from "node:crypto";
import { CANARY_KINDS, type CanaryPlan } from "../../../spec/support/canary-kinds.ts";
import type { ManifestTest } from "./manifest.ts";
import { TAG_PATTERN } from "../../../spec/support/test-tag.ts";

/** Canaries per spec file: one, and one more in a file with many tests. */
const canariesFor = (tests: number) => (tests === 0 ? 0 : tests >= 20 ? 2 : 1);

const token = () => randomBytes(6).toString("base64url");

/** Where a test's own title starts in its full name ("task > group > title [L1 w1]"). */
const titleStart = (name: string) => (name.lastIndexOf(" > ") < 0 ? 0 : name.lastIndexOf(" > ") + 3);
/** A test's own title without its tag: "title". */
const textOf = (name: string) => name.slice(titleStart(name)).replace(TAG_PATTERN, "");
/** A test's tag, with the space before it: " [L1 w1]". */
const tagOf = (name: string) => TAG_PATTERN.exec(name)?.[0] ?? "";

/** The kata a spec file belongs to: "spec/01-regex-dispatch/bank/x.bank.spec.ts" -> "spec/01-regex-dispatch/". */
const kataOf = (file: string) => /^spec\/[^/]+\//.exec(file)?.[0] ?? "";

/**
 * A plan per spec file (keyed by its path, as in the manifest), from every test the files declare,
 * in their order. With `only`, canaries stand beside chosen tests, since the others are skipped and
 * a skipped canary proves nothing.
 *
 * Nothing in a file's list of tests may mark a canary out, nor in the list of tests a narrowed run
 * hands its test processes (`GRADE_ONLY`), which the graded code can read. So a canary carries the
 * tag of the graded test it stands beside (in a `--level 1` run, an L1 tag like every test named
 * there), and the words of a test of another spec file of the kata, one no test of its own file
 * uses, and, in a narrowed run, one of a test the run leaves out (a title named twice in that list
 * would give it away). Only when the kata offers no such words does a canary take fewer
 * precautions: a test of another file the run chose, then its neighbour's own words.
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
    const own = new Set(fileTests.map((t) => textOf(t.name)));
    const elsewhere = tests.filter((t) => t.file !== file && kataOf(t.file) === kataOf(file) && !own.has(textOf(t.name)));
    const wordsOf = (candidates: ManifestTest[]) => [...new Set(candidates.map((t) => textOf(t.name)))];
    const preferred = wordsOf(elsewhere.filter((t) => !only?.has(t.name)));
    const fallback = wordsOf(elsewhere);
    const used: string[] = [];
    const titles = sorted.map((ordinal) => {
      const twin = fileTests[ordinal].name;
      const [first, second] = [preferred, fallback].map((words) => words.filter((w) => !used.includes(w)));
      const choices = first.length > 0 ? first : second.length > 0 ? second : [textOf(twin)];
      const words = choices[randomInt(choices.length)];
      used.push(words);
      return words + tagOf(twin);
    });
    plans[file] = {
      at: sorted,
      titles,
      checks: sorted.map(() => ({ kind: CANARY_KINDS[randomInt(CANARY_KINDS.length)], actual: `a${token()}`, expected: `e${token()}` })),
    };
  }
  return plans;
}

/**
 * The full names the canaries of these plans will have: each is declared in the describe block of
 * the graded test it stands beside, under its plan's title. A narrowed run (`--only`, `--level`)
 * lists them among the tests it runs: a canary left out of that list would be skipped, and one
 * that the list (which the graded code can read) did not name would stand out.
 */
export function canaryNames(tests: ManifestTest[], plans: Record<string, CanaryPlan>): string[] {
  return Object.entries(plans).flatMap(([file, plan]) => {
    const fileTests = tests.filter((t) => t.file === file);
    return plan.at.map((ordinal, j) => fileTests[ordinal].name.slice(0, titleStart(fileTests[ordinal].name)) + plan.titles[j]);
  });
}

/** Where the canaries of a plan stand among all the tests of its file, canaries included: each just after its graded test. */
export const canaryPositions = (plan: CanaryPlan): number[] => plan.at.map((ordinal, j) => ordinal + j + 1);

export interface ReportedTest {
  index: number;
  name: string;
  state: string;
  canary: boolean;
}

/**
 * What the canaries of one spec file say: nothing when all is well, else what was seen. A canary
 * passes only when assertions stopped throwing or verdicts were rewritten. Each is found by its
 * place among the file's tests (the reporter marks that place), never by its name; a canary not
 * reported (a run killed for a hang stops reporting anywhere) says nothing.
 */
export function canaryFindings(file: string, tests: ReportedTest[], plan: CanaryPlan): string[] {
  const byIndex = new Map(tests.map((t) => [t.index, t]));
  return canaryPositions(plan)
    .map((position) => byIndex.get(position))
    .filter((canary) => canary?.canary && canary.state === "passed")
    .map((canary) => `${file}: a test that must fail passed (the canary at position ${canary!.index}, titled '${canary!.name}')`);
}
