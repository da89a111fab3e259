// `--level 1` on grade: which tests it chooses (alone or with --only), and that a level-narrowed
// grade runs, scores and reports those alone, saying so in the terminal, results.json and HTML.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { UsageError } from "../lib/cli-args.ts";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { levelsNote, nextStage, parseLevels } from "../lib/grader/levels.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { chooseTests } from "../lib/grader/only.ts";
import { htmlReport } from "../lib/grader/report-html.ts";
import { jsonReport, type RunInfo } from "../lib/grader/report-json.ts";
import { score } from "../lib/grader/score.ts";
import { KATA1, kata1Variant } from "./support/kata1-variants.ts";
import { runMain } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-level-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest: Manifest = {
  support: {},
  katas: {
    "01-a": {
      tests: [
        { file: "spec/01-a/x.spec.ts", name: "1. parse > nested parentheses [L2 w1]" },
        { file: "spec/01-a/x.spec.ts", name: "1. parse > a call [L1 w1]" },
        { file: "spec/01-a/y.spec.ts", name: "2. run > a call runs [L1 w1]" },
      ],
      bank: [{ file: "spec/01-a/bank/z.bank.spec.ts", name: "1. parse > held out [L1 w1]" }],
      files: {},
    },
    "02-b": { tests: [{ file: "spec/02-b/x.spec.ts", name: "1. validate > nested objects [L3 w1]" }], bank: [], files: {} },
  },
};
const katas = [
  { id: "01-a", number: 1 },
  { id: "02-b", number: 2 },
];

const realManifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const l1Count = realManifest.katas[KATA1].tests.filter((t) => / \[L1 w\d+( core)?\]$/.test(t.name)).length;

const grade = (...args: string[]) => runMain("scripts/grade.ts", args);

describe("--level", () => {
  test("reads 1, 1,2 and L1,L3, in level order; every level is no narrowing; anything else is a usage error", () => {
    expect(parseLevels("1")).toEqual(["L1"]);
    expect(parseLevels("2,1")).toEqual(["L1", "L2"]);
    expect(parseLevels("L1,l3")).toEqual(["L1", "L3"]);
    expect(parseLevels(undefined)).toBeUndefined();
    expect(parseLevels("1,2,3")).toBeUndefined();
    for (const bad of ["4", "", "L", "one", ","]) expect(() => parseLevels(bad), bad).toThrow(UsageError);
  });

  test("says what the scores cover, and the stage after", () => {
    expect(levelsNote(["L1"])).toBe("--level 1: L1 tests only; scores cover them alone");
    expect(levelsNote(["L1", "L3"])).toBe("--level 1,3: L1 and L3 tests only; scores cover them alone");
    expect(nextStage(["L1"])).toEqual(["L1", "L2"]);
    expect(nextStage(["L1", "L3"])).toEqual(["L1", "L2", "L3"]);
    expect(nextStage(["L1", "L2", "L3"])).toBeUndefined();
  });

  test("chooses the tests of those levels, the bank's only with --bank, and with --only the tests both choose", () => {
    const l1 = chooseTests(manifest, katas, undefined, false, ["L1"]);
    expect([...l1.keys()]).toEqual(["01-a"]);
    expect(l1.get("01-a")).toEqual(new Set(["1. parse > a call [L1 w1]", "2. run > a call runs [L1 w1]"]));
    expect(chooseTests(manifest, katas, undefined, true, ["L1"]).get("01-a")?.size).toBe(3);
    // A kata whose every test is at the chosen levels is graded whole.
    expect(chooseTests(manifest, katas, undefined, false, ["L3"]).get("02-b")).toBeUndefined();
    const both = chooseTests(manifest, katas, ["parse"], false, ["L1"]);
    expect(both.get("01-a")).toEqual(new Set(["1. parse > a call [L1 w1]"]));
    expect(() => chooseTests(manifest, katas, ["nested"], false, ["L1"])).toThrow(/--only: .*"nested" and is at level L1/);
    expect(() => chooseTests(manifest, [katas[1]], undefined, false, ["L1"])).toThrow(/--level: no test .* at level L1/);
  });

  test("results.json always says which levels were graded, HTML says it when narrowed", () => {
    const info: RunInfo = { impl: "katas", seed: 1, bank: false, startedAt: new Date(0), durationMs: 0 };
    expect(jsonReport([], score([]), info).x_levels_graded).toEqual(["L1", "L2", "L3"]);
    expect(jsonReport([], score([]), { ...info, levels: ["L2"] }).x_levels_graded).toEqual(["L2"]);
    expect(htmlReport([], score([]), info)).not.toContain('class="narrowed"');
    expect(htmlReport([], score([]), { ...info, levels: ["L1"] })).toContain('<p class="narrowed" data-levels="L1">--level 1: L1 tests only; scores cover them alone</p>');
  });

  test("a grade at --level 1 runs and scores the L1 tests alone (an L2 test that hangs is never run), and every report says so", { timeout: 120_000 }, async () => {
    const impl = kata1Variant(join(dir, "hangs"), "hangs");
    const [json, html] = [join(dir, "l1.json"), join(dir, "l1.html")];
    const r = await grade("--impl", impl, "--kata", "1", "--level", "1", "--json", json, "--html", html, "--timeout", "30");
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("! --level 1: L1 tests only; scores cover them alone");
    expect(r.out).toMatch(/01-regex-dispatch\s+100\.0\s+100\.0\s+-\s+-\s+(\d+)\/\1/);
    // The stage after: the same command one level up, on the same folder; the replay too.
    expect(r.out).toContain(`Next stage: npm run grade -- --impl ${impl} --level 1,2`);
    expect(r.out).toMatch(new RegExp(`replay: npm run grade -- --impl ${impl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} --kata 1 --level 1 --seed -?\\d+\\)`));
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.x_levels_graded).toEqual(["L1"]);
    expect(report.tests).toHaveLength(l1Count);
    expect(report.tests.every((t: { x_level: string; status: string }) => t.x_level === "L1" && t.status === "pass")).toBe(true);
    expect(report.x_katas).toMatchObject([{ kata: KATA1, score: 100, passed: l1Count, total: l1Count, problems: [] }]);
    expect(readFileSync(html, "utf8")).toContain("--level 1: L1 tests only; scores cover them alone");
  });

  test("--level and --only together grade the tests both choose; a wrong level is a usage error", { timeout: 60_000 }, async () => {
    const impl = kata1Variant(join(dir, "fails-l2"), "fails-l2");
    const json = join(dir, "both.json");
    const r = await grade("--impl", impl, "--kata", "1", "--level", "2", "--only", "safe calculator", "--json", json);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("--level 2: L2 tests only");
    expect(r.out).toMatch(/--only: 01-regex-dispatch: \d+ of its tests/);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.x_levels_graded).toEqual(["L2"]);
    expect(report.tests.length).toBeGreaterThan(0);
    for (const t of report.tests) {
      expect(t.x_level).toBe("L2");
      expect(t.name).toContain("safe calculator");
    }
    expect(report.tests.some((t: { status: string }) => t.status === "fail")).toBe(true);
    const bad = await grade("--kata", "1", "--level", "4");
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--level: no level "4"');
  });
});
