import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { loadManifest } from "../lib/grader/manifest.ts";
import { leftOut, packCandidate } from "../pack-candidate.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    if (name === "node_modules") return [];
    return statSync(path).isDirectory() ? files(path) : [relative(dir, path)];
  });
}

describe("pack:candidate", () => {
  test("leaves out the references, the bank, the fixtures and the interviewer material", () => {
    packCandidate(dir);
    const packed = files(dir);
    expect(packed).toContain("katas/01-regex-dispatch/README.md");
    expect(packed).toContain("scripts/grade.ts");
    for (const file of packed) expect(leftOut(file), file).toBeUndefined();
    expect(packed.some((f) => f.startsWith("solutions/") || f.includes("/bank/") || f.startsWith("spec/fixtures/"))).toBe(false);
    // No packed source may reach for a reference that is not there.
    for (const file of packed.filter((f) => f.endsWith(".ts"))) {
      expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(/from\s+["'][./]*solutions\//);
    }
    const manifest = JSON.parse(readFileSync(join(dir, "spec", "manifest.json"), "utf8"));
    for (const entry of Object.values(manifest.katas) as Array<{ bank: unknown[] }>) expect(entry.bank).toEqual([]);
  });

  test("is runnable: npm run grade inside it grades the stub at 0 with every visible test", () => {
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
  }, 60_000);
});
