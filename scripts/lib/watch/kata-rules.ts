// The grade's verdict on a kata's folder before any test runs, for watch: the kata rule (a refused
// import scores the kata 0) and whether it builds (a syntax error names its file, line and column).
// Watch runs the candidate's code in process, where an import of `node:assert` simply works, so
// without this its answers would pass what the grade refuses.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleKata, bundleVerdict } from "../grader/bundle.ts";
import { summaryLine, type TestResult } from "../grader/test-result.ts";

export type KataVerdict = NonNullable<ReturnType<typeof bundleVerdict>>;

/** A saved source file (not a test file) that no test can reach: index.ts does not import it. */
export function unreached(saved: string, sources: readonly string[] | undefined): boolean {
  return sources !== undefined && /\.[cm]?[jt]s$/.test(saved) && !/\.(?:spec|test)\.[cm]?[jt]s$/.test(saved) && !sources.includes(saved);
}

export interface FolderVerdict {
  /** Why the grade would score the folder 0, if it would. */
  verdict?: KataVerdict;
  /** The files the grade would load (index.ts and what it imports), when it builds. */
  sources?: string[];
}

/** The grade's verdict on `folder` as it is now. */
export async function kataRules(kataId: string, folder: string): Promise<FolderVerdict> {
  const scratch = mkdtempSync(join(tmpdir(), "tuk-watch-rules-"));
  try {
    const bundle = await bundleKata(kataId, folder, join(scratch, "kata.mjs"));
    const verdict = bundleVerdict(kataId, bundle);
    return verdict ? { verdict } : { sources: bundle.sources ?? [] };
  } catch {
    // A folder caught mid-save (a file gone between listing and copying): the next save says.
    return {};
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every test as the grade scores it under `verdict`: failed, with the grade's reason. */
export function underVerdict(tests: TestResult[], verdict: KataVerdict): TestResult[] {
  return tests.map(({ property: _, ...t }) => ({ ...t, status: verdict.status, message: verdict.why, summary: summaryLine(verdict.why) }));
}
