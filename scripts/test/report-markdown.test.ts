// grade --markdown: the summary table as GitHub-flavoured Markdown.
import { describe, expect, test } from "vitest";
import { markdownCell, markdownReport, markdownTable } from "../lib/grader/report-markdown.ts";
import type { KataResult } from "../lib/grader/kata-result.ts";
import { score } from "../lib/grader/score.ts";
import type { TestResult } from "../lib/grader/test-result.ts";

function run(id: string, number: number, results: Array<[level: "L1" | "L2" | "L3", pass: boolean, bank?: boolean]>, integrity?: KataResult["integrity"]): KataResult {
  const tests = results.map(([level, pass, bank], i): TestResult => ({
    kata: id, file: `spec/${id}/x.spec.ts`, name: `1. task > test ${i}`, level, weight: 1, bank: bank ?? false, taskId: 1, status: pass ? "pass" : "fail",
  }));
  return { kata: { id, number }, tests, problems: [], hungTests: [], durationMs: 1, integrity };
}

const info = { impl: "katas", seed: 42, bank: false, startedAt: new Date(0), durationMs: 1234 };

describe("grade --markdown", () => {
  test("a GFM table: a row per kata and the overall, levels, passing, integrity", () => {
    const runs = [run("01-a", 1, [["L1", true], ["L2", false]]), run("02-b", 2, [["L1", true], ["L3", true]])];
    const text = markdownReport(runs, score(runs), info);
    expect(text).toContain("### tool-use-katas: 75.0 / 100\n");
    expect(text).toContain("impl `katas` · seed 42 · graded in 1.2 s");
    expect(text).toContain("| kata | score | L1 | L2 | L3 | passing | integrity |\n|---|---:|---:|---:|---:|---:|---|\n");
    expect(text).toContain("| 01-a | 50.0 | 100.0 | 0.0 | - | 1/2 | ok |");
    expect(text).toContain("| 02-b | 100.0 | 100.0 | - | 100.0 | 2/2 | ok |");
    expect(text).toContain("| **overall** | **75.0** | 100.0 | 0.0 | 100.0 |  | ok |");
  });

  test("with the bank: two more columns and the bank's overall; a forged kata says so under the table", () => {
    const runs = [run("01-a", 1, [["L1", true], ["L1", true, true], ["L2", false, true]]), run("02-b", 2, [["L1", false]], { refused: ["02-b/index.ts imports 'vitest'"], notes: [] })];
    const text = markdownReport(runs, score(runs), { ...info, bank: true, levels: ["L1"] });
    expect(text).toContain("### tool-use-katas: 50.0 / 100 (bank 50.0)");
    expect(text).toContain("| kata | score | L1 | L2 | L3 | passing | bank | bank passing | integrity |");
    expect(text).toContain("| 01-a | 100.0 | 100.0 | - | - | 1/1 | 50.0 | 1/2 | ok |");
    expect(text).toContain("| 02-b | 0.0 | 0.0 | - | - | 0/1 | - |  | refused |");
    expect(text).toMatch(/^> \*\*02-b scored 0: the grader refused an import/m);
    expect(text).toMatch(/^> .*L1/m);
  });

  test("cells cannot break the table or become markup", () => {
    expect(markdownCell("a|b\nc <img>")).toBe("a\\|b c &lt;img&gt;");
    expect(markdownTable(["x"], [["1|2"]], () => false)).toBe("| x |\n|---|\n| 1\\|2 |");
  });
});
