// `npm run compare -- --level 1`: both sides run and are counted on the chosen levels' tests alone
// (an L2 test that would hang on the candidate's side is never started), and the report says so.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { KATA1, kata1Variant } from "./support/kata1-variants.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-compare-level-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const l1Count = manifest.katas[KATA1].tests.filter((t) => / \[L1 w\d+\]$/.test(t.name)).length;

describe("npm run compare --level", () => {
  test("compares the chosen levels' tests alone and says so", { timeout: 120_000 }, () => {
    const impl = kata1Variant(dir, "hangs");
    const r = spawnSync(process.execPath, [join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/compare.ts", "--impl", impl, "--kata", "1", "--level", "1", "--no-speed"], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("! --level 1: L1 tests only; scores cover them alone");
    expect(r.stdout).toContain(`${KATA1}   you: ${l1Count}/${l1Count}   reference: ${l1Count}/${l1Count}   (L1 only)`);
    expect(r.stdout).toContain("(the same verdict on every test)");
  });
});
