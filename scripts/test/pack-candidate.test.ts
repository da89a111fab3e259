import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { loadManifest } from "../lib/grader/manifest.ts";
import { describeMissing, missingReferences, withFolders } from "../lib/pack/doc-references.ts";
import { projectFiles } from "../lib/pack/files.ts";
import { importedPackages } from "../lib/pack/imports.ts";
import { prunedLock, type Lock } from "../lib/pack/lock.ts";
import { candidatePackage, type PackageJson } from "../lib/pack/package-json.ts";
import { packPassages } from "../lib/pack/passages.ts";
import { candidateReadme, README_TEMPLATES } from "../lib/pack/readme.ts";
import { leftOut, packCandidate, type PackResult } from "../pack-candidate.ts";
import { parse as parseYaml, parseDocument } from "yaml";

// One pack for every test here (the candidate's files, and the workflow that grades them), and one
// run of each expensive command in it: npm's install plan, and the workflow's steps.
const dir = mkdtempSync(join(tmpdir(), "tuk-pack-"));
let packed: PackResult;
beforeAll(() => {
  packed = packCandidate(dir);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    if (name === "node_modules") return [];
    return statSync(path).isDirectory() ? files(path) : [relative(dir, path)];
  });
}

const read = (file: string) => readFileSync(join(dir, file), "utf8");
const json = <T>(file: string) => JSON.parse(read(file)) as T;
const projectPaths = () => withFolders(projectFiles(PROJECT_ROOT));

/** What a document tells the reader to run or pass: `npm run X`, `npm test` and every `--flag`. */
function commandsAndFlags(text: string): string[] {
  return [...new Set([...text.matchAll(/npm (?:run [\w:-]+|test)|--[a-z][\w-]*/g)].map((m) => m[0]))].sort();
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}

const workflow = () => parseYaml(readFileSync(join(dir, ".github", "workflows", "grade.yml"), "utf8")) as { [key: string]: unknown };
const steps = () => (workflow().jobs as unknown as { grade: { steps: Step[] } }).grade.steps;

const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

/** npm's plan of `npm ci` from the pack's lock, without the network (before node_modules exists). */
const npmCiPlan = once(() => spawnSync("npm", ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8" }));

/**
 * The workflow's steps after `npm ci`, run in the packed folder as GitHub would, with the
 * dependencies as `npm ci` would put them, without the network: a link to ours.
 */
const workflowRun = once(() => {
  npmCiPlan();
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"));
  const summaryFile = join(dir, "step-summary.md");
  const runs: Array<{ step: Step; result: SpawnSyncReturns<string> }> = [];
  for (const step of steps().filter((s) => s.run && s.run !== "npm ci")) {
    runs.push({ step, result: spawnSync("bash", ["-e", "-c", step.run!], { cwd: dir, encoding: "utf8", env: { ...process.env, GITHUB_STEP_SUMMARY: summaryFile, CI: "true", NO_COLOR: "1" } }) });
  }
  return { runs, summaryFile };
});

describe("pack:candidate", () => {
  test("leaves out the references, the bank, the fixtures and the interviewer material", () => {
    const packedFiles = files(dir);
    expect(packedFiles).toContain("katas/01-regex-dispatch/README.md");
    expect(packedFiles).toContain("scripts/grade.ts");
    for (const file of packedFiles.filter((f) => !/^(README(\.zh-CN)?\.md|package(-lock)?\.json|tsconfig\.json|\.gitignore|spec\/manifest\.json)$/.test(f))) {
      expect(leftOut(file), file).toBeUndefined();
    }
    expect(packedFiles.some((f) => f.startsWith("solutions/") || f.includes("/bank/") || f.startsWith("spec/fixtures/") || f.startsWith("scripts/lib/pack/"))).toBe(false);
    // No packed source may reach for a reference that is not there.
    for (const file of packedFiles.filter((f) => f.endsWith(".ts"))) {
      expect(read(file), file).not.toMatch(/from\s+["'][./]*solutions\//);
    }
    const manifest = json<{ katas: Record<string, { bank: unknown[] }> }>("spec/manifest.json");
    for (const entry of Object.values(manifest.katas)) expect(entry.bank).toEqual([]);
  });

  test("the file list is a rule: a new candidate tool and its lib are in the pack by default", () => {
    expect(leftOut("scripts/interview.ts")).toBeUndefined();
    expect(leftOut("scripts/lib/interview/session-log.ts")).toBeUndefined();
    expect(leftOut("scripts/compare.ts")).toBeDefined();
    expect(leftOut("CHANGELOG.md")).toBeDefined();
    expect(leftOut("scripts/lib/self-test/load-check.ts")).toBeDefined();
    const pkg: PackageJson = { scripts: { interview: "tsx scripts/interview.ts", compare: "tsx scripts/compare.ts" }, devDependencies: {} };
    const kept = candidatePackage(pkg, new Set(["scripts/interview.ts"]), { imported: new Set(), binaries: new Map(), tsTypes: [] });
    expect(Object.keys(kept.scripts).sort()).toEqual(["interview", "test"]);
  });

  test("its README is the candidate's: what the pack holds, in both languages, and nothing it lacks", () => {
    const en = read("README.md");
    const zh = read("README.zh-CN.md");
    expect(en).not.toBe(readFileSync(join(PROJECT_ROOT, "README.md"), "utf8"));
    for (const text of [en, zh]) {
      for (const command of ["npm run grade", "npm run watch", "npm run hint", "npm run live", "npm test"]) expect(text).toContain(command);
      expect(text).not.toMatch(/npm run (compare|bench|mutate|manifest|pack:candidate|test:browser)|solutions|--bank|interviewer-guide|self-test|mutation|<!--/);
    }
    expect(commandsAndFlags(zh)).toEqual(commandsAndFlags(en));
    // Every script of the pack is documented.
    for (const name of Object.keys(json<PackageJson>("package.json").scripts)) expect(en).toContain(name === "test" ? "npm test" : `npm run ${name}`);
  });

  test("the README templates document the interview, --level and the stages only when the pack has them", () => {
    for (const [template] of README_TEMPLATES) {
      const bare = candidateReadme(template, new Set());
      const full = candidateReadme(template, new Set(["interview", "level", "stages"]));
      expect(bare).not.toMatch(/npm run interview|--level|\*\*(Stages|阶段)\*\*/);
      expect(full).toMatch(/npm run interview -- --kata \d/);
      expect(full).toContain("--minutes");
      expect(full).toContain("--level 1,2");
      expect(full).toContain(".grade/");
      expect(full).toMatch(/\*\*(Stages|阶段)\*\*/);
    }
    const [en, zh] = README_TEMPLATES.map(([template]) => candidateReadme(template, new Set(["interview", "level", "stages"])));
    expect(commandsAndFlags(zh)).toEqual(commandsAndFlags(en));
  });

  test("no document of the pack names a command, file or folder that the pack does not have", () => {
    expect(describeMissing(packed.missing)).toBe("");
    expect(packed.missing).toEqual([]);
  });

  test("the check finds what the maintainers' documents name: commands, paths and links the pack lacks", () => {
    const fake = mkdtempSync(join(tmpdir(), "tuk-pack-docs-"));
    try {
      cpSync(join(dir, "package.json"), join(fake, "package.json"));
      mkdirSync(join(fake, "docs"));
      cpSync(join(PROJECT_ROOT, "README.md"), join(fake, "README.md"));
      writeFileSync(join(fake, "docs", "x.md"), "Read `CONTRIBUTING.md` and `interviewer-guide.md`, run `scripts/compare.ts`; `results.json` and `/items/0` are fine.\n");
      const names = missingReferences(fake, projectPaths()).map((m) => `${m.document} ${m.kind} ${m.name}`);
      expect(names).toEqual(expect.arrayContaining([
        "README.md command npm run compare",
        "README.md command npm run pack:candidate",
        "README.md path solutions/",
        "README.md link docs/interviewer-guide.md",
        "docs/x.md path CONTRIBUTING.md",
        "docs/x.md path interviewer-guide.md",
        "docs/x.md path scripts/compare.ts",
      ]));
      expect(names.filter((n) => n.startsWith("docs/x.md"))).toHaveLength(3);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  test("maintainer passages are dropped from packed documents, conditional ones kept only when the pack has the feature", () => {
    const text = "a\n<!-- not in pack -->\nb\n<!-- end -->\nc\n<!-- if interview -->\nd\n<!-- end -->\ne";
    expect(packPassages(text, () => true)).toBe("a\nc\nd\ne");
    expect(packPassages(text, () => false)).toBe("a\nc\ne");
    expect(() => packPassages("<!-- not in pack -->\nx", () => true)).toThrow(/never closed/);
    expect(read("docs/live-mode.md")).not.toMatch(/For maintainers|not in pack/);
  });

  test("package.json and its lock install only what the pack imports or runs", () => {
    const pkg = json<PackageJson>("package.json");
    const lock = json<Lock>("package-lock.json");
    const imported = importedPackages(dir, files(dir));
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(["@types/node", "esbuild", "fast-check", "tsx", "typescript", "vite", "vitest", ...(imported.has("ajv") ? ["ajv"] : [])].sort());
    expect(lock.packages[""].devDependencies).toEqual(pkg.devDependencies);
    expect(Object.keys(lock.packages).filter((key) => /stryker|playwright|cfworker/.test(key))).toEqual([]);
    // Pruning keeps every package that a kept one needs: the whole install, nothing missing.
    const full = JSON.parse(readFileSync(join(PROJECT_ROOT, "package-lock.json"), "utf8")) as Lock;
    expect(prunedLock(lock, pkg.devDependencies)).toEqual(lock);
    expect(Object.keys(lock.packages).length).toBeLessThan(Object.keys(full.packages).length);
    // npm itself agrees: with only the lock, it plans a complete install without the network.
    const ci = npmCiPlan();
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
  }, 30_000);

  test("is runnable: npm run grade inside it (the workflow's grade) grades the stubs at 0 with every visible test; npm test says it grades", () => {
    const { runs } = workflowRun();
    const grade = runs.find(({ step }) => /^npm run grade -- /.test(step.run!))!;
    expect(grade.result.status, grade.result.stdout + grade.result.stderr).toBe(0);
    expect(grade.result.stdout).not.toMatch(/differ from the committed ones/);
    const report = json<{ version: number; score: number; tests: Array<{ x_kata: string }> }>("results.json");
    expect(report.version).toBe(3);
    expect(report.score).toBe(0);
    for (const [kata, entry] of Object.entries(loadManifest()!.katas)) expect(report.tests.filter((t) => t.x_kata === kata).length, kata).toBe(entry.tests.length);
    expect(existsSync(join(dir, "solutions"))).toBe(false);

    const npmTest = spawnSync("npm", ["test", "-s", "--", "--help"], { cwd: dir, encoding: "utf8" });
    expect(npmTest.status, npmTest.stdout + npmTest.stderr).toBe(0);
    expect(npmTest.stdout).toMatch(/^npm test grades your katas: it runs npm run grade\n/);
    expect(npmTest.stdout).toMatch(/Usage: npm run grade/);
  }, 120_000);
});

describe("the pack's workflow", () => {
  test("is YAML that a strict reader takes as it is: no error, no warning, no key twice", () => {
    const doc = parseDocument(read(join(".github", "workflows", "grade.yml")), { uniqueKeys: true });
    expect([...doc.errors, ...doc.warnings].map((problem) => problem.message)).toEqual([]);
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
    const ci = npmCiPlan();
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    const { runs, summaryFile } = workflowRun();
    expect(runs.length).toBeGreaterThan(0);
    for (const { step, result } of runs) expect(result.status, `${step.run}\n${result.stdout}${result.stderr}`).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { version: number; score: number; max_score: number };
    expect(results).toMatchObject({ version: 3, score: 0, max_score: 100 });
    expect(readFileSync(join(dir, "report.html"), "utf8")).toMatch(/^<!doctype html>/);
    const summary = readFileSync(summaryFile, "utf8");
    expect(summary).toMatch(/^### tool-use-katas: 0\.0 \/ 100$/m);
    for (const kata of ["01-regex-dispatch", "02-schema-validation", "03-agent-loop"]) expect(summary).toMatch(new RegExp(`^\\| ${kata} \\| 0\\.0 \\|`, "m"));
    expect(existsSync(join(dir, "summary.md"))).toBe(true);
  }, 120_000);
});
