// The self-test's compare check (speed ratios a candidate can trust): the reference
// compared with a copy of itself placed outside the repository, the way a candidate's checkout
// is, reads within noise on every case: each printed spread covers 1.0 and the geometric mean of
// each kind of case is within 0.9-1.1, while a busy process holds every core.
//
// Why compare bundles both sides the same way (scripts/lib/compare/confine.ts): loaded each as it
// lies, this copy ran 1.15-1.2x slower than the reference (1.65x on deep nesting), since a folder
// without a package.json saying "type": "module" is CommonJS to Node, and tsx's CommonJS output
// calls every import through a getter.
//
// Its cost is kept to a few seconds: kata 1 only (its cases are the quickest to set up and the
// most sensitive to the module format), its cases of 10 to 20 KiB (seven: the 16 KiB BFCL
// replies and every adversarial shape at 10 KiB; the 1 KiB replies take 6 µs, where one
// process's luck moved the ratio by 20%), shorter rounds than compare's, but six processes
// instead of two, so that no process's luck decides a case.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveImplRoot } from "../impl-root.ts";
import { caseKind, coversOne, formatRatio, geometricMean } from "../compare/ratio.ts";
import { compareSpeed, type SpeedOptions } from "../compare/speed.ts";
import { startBusyCores } from "./busy-cores.ts";

const KATA = "01-regex-dispatch";
export const CHECK_SPEED: SpeedOptions = { budgetMs: 120, rounds: 8, processes: 6, sizes: [10_000, 20_000], timeoutMs: 90_000 };

/** The shape of a self-test check (the `Check` interface of scripts/self-test.ts). */
interface CompareCheck {
  name: string;
  run(): Promise<string[]>;
  cost: number;
}

/** A problem of a self-comparison, and what it is about (a case, a kind of case, the run itself). */
export interface SelfCompareFinding {
  subject: string;
  text: string;
}

/** The problems in a self-comparison's results, each with its subject: none means every case reads within noise. */
export function selfCompareFindings(results: Awaited<ReturnType<typeof compareSpeed>>): SelfCompareFinding[] {
  if (typeof results === "string") return [{ subject: "the run", text: `the comparison did not run: ${results}` }];
  if (results.length === 0) return [{ subject: "the run", text: "no case was measured" }];
  const findings: SelfCompareFinding[] = [];
  const kinds = new Map<string, number[]>();
  for (const r of results) {
    if ("error" in r) {
      findings.push({ subject: r.name, text: `${r.name}: ${r.error.split("\n")[0]}` });
      continue;
    }
    if (!coversOne(r)) findings.push({ subject: r.name, text: `${r.name}: ${formatRatio(r)} for identical code` });
    kinds.set(caseKind(r.name), [...(kinds.get(caseKind(r.name)) ?? []), r.ratio]);
  }
  for (const [kind, ratios] of kinds) {
    const mean = geometricMean(ratios);
    if (mean < 0.9 || mean > 1.1) findings.push({ subject: `kind ${kind}`, text: `${kind}: geometric mean ${mean.toFixed(3)}x over ${ratios.length} cases, outside 0.9-1.1` });
  }
  return findings;
}

export const selfCompareProblems = (results: Awaited<ReturnType<typeof compareSpeed>>): string[] => selfCompareFindings(results).map((f) => f.text);

/**
 * What two tries agree on: the second try's problems whose subject the first try had too. Noise
 * under load picks a case at random each time; a bias of the staging is there on every try.
 */
export function persistentProblems(first: SelfCompareFinding[], second: SelfCompareFinding[]): string[] {
  const before = new Map(first.map((f) => [f.subject, f.text]));
  return second.filter((f) => before.has(f.subject)).map((f) => `${f.text} (and on the first try: ${before.get(f.subject)})`);
}

export function compareCheck(): CompareCheck {
  return {
    name: "compare: the reference beside a copy of itself outside the repository reads within noise on every case, under load",
    cost: 6,
    async run() {
      const work = mkdtempSync(join(tmpdir(), "tuk-compare-check-"));
      const busy = startBusyCores();
      try {
        const outside = join(work, "outside");
        cpSync(join(resolveImplRoot("solutions"), KATA), join(outside, KATA), { recursive: true });
        // Noise under load is a one-off; a bias of the staging (1.15-1.2x, see above) is there on
        // every try. So a second try decides, and a problem counts only when both tries have it.
        const first = selfCompareFindings(await compareSpeed(KATA, outside, resolveImplRoot("solutions"), join(work, "scratch"), CHECK_SPEED));
        if (first.length === 0) return [];
        const second = selfCompareFindings(await compareSpeed(KATA, outside, resolveImplRoot("solutions"), join(work, "scratch-again"), CHECK_SPEED));
        return persistentProblems(first, second);
      } finally {
        busy.stop();
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}
