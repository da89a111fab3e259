// The next step follows the README: lowest level not yet passing, then task order, examples before
// properties and bulk real-data tests. One order for grade's next steps and failure list, watch's
// "next" and the HTML report; on the fresh stubs it names an L1 example of each README's task 1.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { listKatas, type Kata } from "../lib/grader/katas.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { inTeachingOrder, nextTest } from "../lib/grader/next-test.ts";
import { htmlReport } from "../lib/grader/report-html.ts";
import { failures, levelTag, nextSteps, type Style } from "../lib/grader/report-terminal.ts";
import { expectedTest } from "../lib/grader/expected.ts";
import type { KataResult } from "../lib/grader/kata-result.ts";
import { score } from "../lib/grader/score.ts";
import type { TestResult } from "../lib/grader/test-result.ts";
import { kata1Variant } from "./support/kata1-variants.ts";
import { runCommand, runMain } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-next-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s };
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const katas = listKatas();

/** Every test of the kata as the stub leaves it: failing, in the manifest's order (spec files by path). */
function stubResults(kata: Kata): TestResult[] {
  return manifest.katas[kata.id].tests.map((entry) => ({ ...expectedTest(kata, entry), status: "fail", summary: "not implemented" }));
}

/** The README's first task, as its heading says it: "1. Finding calls: parseToolCalls". */
function firstTaskHeading(kata: Kata): string {
  const readme = readFileSync(join(PROJECT_ROOT, "katas", kata.id, "README.md"), "utf8");
  return /^## (1\. .*)$/m.exec(readme)![1].replace(/`/g, "");
}

const result = (over: Partial<TestResult> & Pick<TestResult, "name">): TestResult => ({
  kata: "01-a", file: "spec/01-a/x.spec.ts", level: "L1", weight: 1, bank: false, taskId: Number(/^(\d+)\./.exec(over.name)?.[1]) || undefined, status: "fail", ...over,
});

describe("the next test to make pass", () => {
  test("orders by level, then task number, then example < property < bulk real data, examples in their files' order; the bank last", () => {
    const tests = [
      result({ name: "10. late task > an example" }),
      result({ name: "no task number > an example" }),
      result({ name: "1. parse > real BFCL data", file: "spec/01-a/bfcl.spec.ts" }),
      result({ name: "1. validate > the official suite", file: "spec/01-a/suite.spec.ts" }),
      result({ name: "1. parse > a property", file: "spec/01-a/x.fuzz.spec.ts", weight: 3 }),
      result({ name: "1. parse > a big property", file: "spec/01-a/x.fuzz.spec.ts", weight: 5 }),
      result({ name: "1. parse > a held-out example", file: "spec/01-a/bank/x.bank.spec.ts", bank: true }),
      result({ name: "1. parse > an L2 example", level: "L2" }),
      result({ name: "2. run > an example" }),
      result({ name: "1. parse > an example" }),
      result({ name: "1. parse > another example" }),
      result({ name: "1. parse > the fine print after the rule" }),
    ];
    expect(inTeachingOrder(tests).map((t) => t.name)).toEqual([
      "1. parse > an example",
      "1. parse > another example",
      "1. parse > the fine print after the rule",
      "1. parse > a property",
      "1. parse > a big property",
      "1. parse > real BFCL data",
      "1. validate > the official suite",
      "2. run > an example",
      "10. late task > an example",
      "no task number > an example",
      "1. parse > an L2 example",
      "1. parse > a held-out example",
    ]);
    const passing = tests.map((t) => (t.level === "L1" ? { ...t, status: "pass" as const } : t));
    expect(nextTest(passing)?.name).toBe("1. parse > an L2 example");
    expect(nextTest(tests.map((t) => ({ ...t, status: "pass" as const })))).toBeUndefined();
  });

  test.each(katas.map((kata) => [kata.id, kata] as const))("%s on the stub: an L1 example of the README's first task", (_, kata) => {
    const next = nextTest(stubResults(kata))!;
    expect(next.level).toBe("L1");
    expect(next.weight).toBe(1);
    expect(next.taskId).toBe(1);
    expect(next.file).not.toMatch(/\/(bfcl|suite)\.spec\.ts$|\.fuzz\.spec\.ts$/);
    expect(firstTaskHeading(kata).startsWith(next.name.split(" > ")[0]), `${firstTaskHeading(kata)} / ${next.name}`).toBe(true);
  });

  test.each(katas.map((kata) => [kata.id, kata] as const))("%s with every L1 test passing: an L2 test of the lowest task that fails", (_, kata) => {
    const tests = stubResults(kata).map((t) => (t.level === "L1" ? { ...t, status: "pass" as const } : t));
    const next = nextTest(tests)!;
    const lowestTask = Math.min(...tests.filter((t) => t.level === "L2").map((t) => t.taskId ?? Infinity));
    expect([next.level, next.taskId, next.weight]).toEqual(["L2", lowestTask, 1]);
  });

  test("grade's next steps, its failure list and the HTML report's all follow that order", () => {
    const kata = katas[0];
    const tests = stubResults(kata).map((t, i) => ({ ...t, summary: `failure ${i}` }));
    const run: KataResult = { kata, tests, problems: [], hungTests: [], durationMs: 0 };
    const ordered = inTeachingOrder(tests);
    expect(nextSteps([run], score([run]), "katas")).toContain(`make this pass first: ${ordered[0].name} [L1 w1]`);
    // --level is kept in the command it suggests.
    expect(nextSteps([run], score([run]), "katas", ["L1"])).toContain("npm run grade -- --kata 1 --level 1");
    const listed = failures([run], plain, true).split("\n").filter((l) => l.startsWith("  ✗ ")).map((l) => l.slice(4).replace(/ \[L\d w\d+( core)?\]$/, ""));
    expect(listed).toEqual(ordered.map((t) => t.name));
    const html = htmlReport([run], score([run]), { impl: "katas", seed: 1, bank: false, startedAt: new Date(0), durationMs: 0 });
    const rows = [...html.matchAll(/<tr><td>fail<\/td><td>L\d<\/td><td>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(rows).toEqual(ordered.map((t) => t.name.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;")));
  });

  test("every command the next steps suggest grades the folder that was graded: --impl is kept", () => {
    const kata = katas[0];
    const failing: KataResult = { kata, tests: stubResults(kata), problems: [], hungTests: [], durationMs: 0 };
    const passing: KataResult = { ...failing, tests: failing.tests.map((t) => ({ ...t, status: "pass" as const })) };
    const commands = (text: string) => text.split("\n").filter((line) => /npm run /.test(line));
    for (const [runs, levels] of [[[failing], undefined], [[passing], undefined], [[passing], ["L1"]]] as const) {
      const text = nextSteps([...runs], score([...runs]), "../cand", levels ? [...levels] : undefined, " --impl ../cand");
      expect(commands(text).length, text).toBeGreaterThan(0);
      for (const line of commands(text)) expect(line).toMatch(/npm run \w+ -- (.* )?--impl \.\.\/cand( |$)/);
    }
    expect(nextSteps([passing], score([passing]), "katas")).toMatch(/npm run compare$/);
  });

  test("the HTML report's count of failing tests counts them all, the stub's among them", () => {
    const kata = katas[0];
    const tests = [...stubResults(kata).slice(0, 9), result({ name: "1. wrong", summary: "expected 1, got 2" }), result({ name: "1. also wrong", summary: "expected 3, got 4" })];
    const run: KataResult = { kata, tests, problems: [], hungTests: [], durationMs: 0 };
    const html = htmlReport([run], score([run]), { impl: "katas", seed: 1, bank: false, startedAt: new Date(0), durationMs: 0 });
    expect(html).toContain("<summary>11 tests not passing: 2 listed here, 9 still the stub (below)</summary>");
  });

  test("the failure list keeps the order to fix things in: the stub's L1 group before an L3 test failing for its own reason", () => {
    const kata = katas[0];
    const tests = [
      result({ name: "5. calc > overflow", level: "L3", summary: "expected Infinity to be null" }),
      ...Array.from({ length: 6 }, (_, i) => result({ name: `1. parse > case ${i}`, summary: "not implemented" })),
    ];
    const run: KataResult = { kata, tests, problems: [], hungTests: [], durationMs: 0 };
    const lines = failures([run], plain, true).split("\n");
    const stub = lines.findIndex((l) => l.includes('fail with "not implemented"'));
    const own = lines.findIndex((l) => l.includes("5. calc > overflow"));
    expect(stub).toBeGreaterThan(-1);
    expect(own).toBeGreaterThan(stub);
    expect(nextSteps([run], score([run]), "katas")).toContain("make this pass first: 1. parse > case 0");
  });

  test("a level and weight read as the specs and the READMEs write them: [L2 w3]", () => {
    const kata = katas[0];
    const tests = [result({ name: "1. a property", level: "L2", weight: 3 })];
    const run: KataResult = { kata, tests, problems: [], hungTests: [], durationMs: 0 };
    expect(failures([run], plain, true)).toContain("1. a property [L2 w3]");
    expect(nextSteps([run], score([run]), "katas")).toContain("make this pass first: 1. a property [L2 w3]");
  });

  test("with every visible test passing and a bank test failing, the next steps do not say all pass", () => {
    const kata = katas[0];
    const tests = [result({ name: "1. seen", status: "pass" }), result({ name: "1. held out", bank: true, status: "fail" })];
    const run: KataResult = { kata, tests, problems: [], hungTests: [], durationMs: 0 };
    const text = nextSteps([run], score([run]), "katas");
    expect(text).not.toContain("All graded katas pass");
    expect(text).toContain("1 bank test failing in 01-regex-dispatch");
    const passing: KataResult = { ...run, tests: tests.map((t) => ({ ...t, status: "pass" as const })) };
    expect(nextSteps([passing], score([passing]), "katas")).toContain("All graded katas pass");
  });

  test("on the fresh stubs, grade names an L1 example of each README's first task; watch names the same", { timeout: 120_000 }, async () => {
    const graded = Promise.all(katas.map((kata) => runCommand("scripts/grade.ts", ["--kata", String(kata.number)])));
    // watch in this process meanwhile: its grade runs in children of its own.
    const watched = await runMain("scripts/watch.ts", ["3", "--once"]);
    for (const [i, run] of (await graded).entries()) {
      const expected = nextTest(stubResults(katas[i]))!;
      expect(run.out).toContain(`2. make this pass first: ${expected.name} ${levelTag(expected)}`);
    }
    expect(watched.code, watched.out).toBe(0);
    const watchNext = nextTest(stubResults(katas[2]))!;
    expect(watched.out).toContain(`next: ${watchNext.name} ${levelTag(watchNext)}`);
  });

  test("once every L1 test passes, grade's next step is an L2 test", { timeout: 120_000 }, async () => {
    const impl = kata1Variant(join(dir, "fails-l2"), "fails-l2");
    const r = await runMain("scripts/grade.ts", ["--impl", impl, "--kata", "1"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/01-regex-dispatch\s+\S+\s+100\.0\s+(?!100\.0)\d/);
    expect(r.out).toMatch(/2\. make this pass first: 5\. The safe calculator: calculate and calculateTool > .+ \[L2 w\d+\]\n/);
  });
});
