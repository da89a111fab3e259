// The pack's GitHub Actions workflow (.github/workflows/grade.yml): it parses as YAML, it runs the
// steps the interviewer guide promises, and the commands it runs pass in a packed folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { packCandidate } from "../pack-candidate.ts";
import { parseYaml, type Yaml } from "./support/yaml-subset.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-pack-workflow-"));
beforeAll(() => {
  packCandidate(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}

const workflow = () => parseYaml(readFileSync(join(dir, ".github", "workflows", "grade.yml"), "utf8")) as { [key: string]: Yaml };
const steps = () => (workflow().jobs as unknown as { grade: { steps: Step[] } }).grade.steps;

describe("the pack's workflow", () => {
  test("the YAML reader reads what it is given, and refuses what it does not know", () => {
    expect(parseYaml("a:\n  b: 'x'' y' # c\n  c:\n    - d: 1\n      e: |\n        one\n        two\n    - f\n")).toEqual({ a: { b: "x' y", c: [{ d: "1", e: "one\ntwo\n" }, "f"] } });
    expect(() => parseYaml("a: [1, 2]\n")).toThrow(/flow/);
    expect(() => parseYaml("a: 1\n b: 2\n")).toThrow(/indentation/);
    expect(() => parseYaml("a:\n\tb: 1\n")).toThrow(/tab/);
  });

  test("is in the pack and runs on push: checkout, Node, npm ci, the visible grade, the job summary, the reports as artifacts", () => {
    const doc = workflow();
    expect(Object.keys(doc.on as object)).toContain("push");
    const all = steps();
    const index = (predicate: (s: Step) => boolean) => all.findIndex(predicate);
    const checkout = index((s) => /^actions\/checkout@v\d+$/.test(s.uses ?? ""));
    const node = index((s) => /^actions\/setup-node@v\d+$/.test(s.uses ?? ""));
    const ci = index((s) => s.run === "npm ci");
    const grade = index((s) => /^npm run grade -- /.test(s.run ?? ""));
    const summary = index((s) => /GITHUB_STEP_SUMMARY/.test(s.run ?? ""));
    const upload = index((s) => /^actions\/upload-artifact@v\d+$/.test(s.uses ?? ""));
    expect([checkout, node, ci, grade, summary, upload].every((i) => i >= 0), JSON.stringify(all)).toBe(true);
    expect(checkout < node && node < ci && ci < grade && grade < summary && summary < upload).toBe(true);
    expect(Number(all[node].with?.["node-version"])).toBeGreaterThanOrEqual(20);
    const gradeRun = all[grade].run!;
    expect(gradeRun).not.toMatch(/--bank|--impl/);
    const file = (flag: string) => new RegExp(`--${flag} (\\S+)`).exec(gradeRun)?.[1];
    expect(file("json") && file("html") && file("markdown")).toBeTruthy();
    expect(all[summary].run).toContain(file("markdown"));
    // The summary and the reports are wanted most when the grade fails.
    expect(all[summary].if).toBe("always()");
    expect(all[upload].if).toBe("always()");
    expect(all[upload].with?.path.split("\n").filter(Boolean).sort()).toEqual([file("html"), file("json")].sort());
  });

  test("its commands pass in the packed folder: the grade writes results.json, the HTML report and a Markdown summary", () => {
    // npm ci without the network: npm plans the install from the lock (the dependencies are ours, linked).
    const ci = spawnSync("npm", ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8" });
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"));
    const summaryFile = join(dir, "step-summary.md");
    for (const step of steps().filter((s) => s.run && s.run !== "npm ci")) {
      const result = spawnSync("bash", ["-e", "-c", step.run!], { cwd: dir, encoding: "utf8", env: { ...process.env, GITHUB_STEP_SUMMARY: summaryFile, CI: "true", NO_COLOR: "1" } });
      expect(result.status, `${step.run}\n${result.stdout}${result.stderr}`).toBe(0);
    }
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { version: number; score: number; max_score: number };
    expect(results).toMatchObject({ version: 3, score: 0, max_score: 100 });
    expect(readFileSync(join(dir, "report.html"), "utf8")).toMatch(/^<!doctype html>/);
    const summary = readFileSync(summaryFile, "utf8");
    expect(summary).toMatch(/^### tool-use-katas: 0\.0 \/ 100$/m);
    for (const kata of ["01-regex-dispatch", "02-schema-validation", "03-agent-loop"]) expect(summary).toMatch(new RegExp(`^\\| ${kata} \\| 0\\.0 \\|`, "m"));
    expect(existsSync(join(dir, "summary.md"))).toBe(true);
  }, 120_000);
});
