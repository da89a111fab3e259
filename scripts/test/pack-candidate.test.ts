import { spawnSync } from "node:child_process";
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

const dir = mkdtempSync(join(tmpdir(), "tuk-pack-"));
let packed: PackResult;
beforeAll(() => {
  packed = packCandidate(dir);
}, 30_000);
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
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(["@types/node", "fast-check", "tsx", "typescript", "vite", "vitest", ...(imported.has("ajv") ? ["ajv"] : [])].sort());
    expect(lock.packages[""].devDependencies).toEqual(pkg.devDependencies);
    expect(Object.keys(lock.packages).filter((key) => /stryker|playwright|cfworker/.test(key))).toEqual([]);
    // Pruning keeps every package that a kept one needs: the whole install, nothing missing.
    const full = JSON.parse(readFileSync(join(PROJECT_ROOT, "package-lock.json"), "utf8")) as Lock;
    expect(prunedLock(lock, pkg.devDependencies)).toEqual(lock);
    expect(Object.keys(lock.packages).length).toBeLessThan(Object.keys(full.packages).length);
    // npm itself agrees: with only the lock, it plans a complete install without the network.
    const ci = spawnSync("npm", ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8" });
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
  }, 30_000);

  test("is runnable: npm run grade inside it grades the stub at 0 with every visible test; npm test says it grades", () => {
    // The dependencies as `npm install` would put them, without the network: a link to ours.
    symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"));
    const out = join(dir, "r.json");
    const run = spawnSync("npm", ["run", "-s", "grade", "--", "--kata", "3", "--json", out], { cwd: dir, encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/differ from the committed ones/);
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.version).toBe(3);
    expect(report.score).toBe(0);
    expect(report.tests.length).toBe(loadManifest()!.katas["03-agent-loop"].tests.length);
    expect(existsSync(join(dir, "solutions"))).toBe(false);

    const npmTest = spawnSync("npm", ["test", "-s", "--", "--help"], { cwd: dir, encoding: "utf8" });
    expect(npmTest.status, npmTest.stdout + npmTest.stderr).toBe(0);
    expect(npmTest.stdout).toMatch(/^npm test grades your katas: it runs npm run grade\n/);
    expect(npmTest.stdout).toMatch(/Usage: npm run grade/);
  }, 60_000);
});
