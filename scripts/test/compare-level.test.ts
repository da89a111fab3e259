// `npm run compare -- --level 1`: both sides run and are counted on the chosen levels' tests alone
// (an L2 test that would hang on the candidate's side is never started), and the report says so.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { KATA1, kata1Variant } from "./support/kata1-variants.ts";
import { runMain } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-compare-level-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const l1Count = manifest.katas[KATA1].tests.filter((t) => / \[L1 w\d+( core)?\]$/.test(t.name)).length;

describe("npm run compare --level", () => {
  test("compares the chosen levels' tests alone and says so", { timeout: 120_000 }, async () => {
    const impl = kata1Variant(dir, "hangs");
    const r = await runMain("scripts/compare.ts", ["--impl", impl, "--kata", "1", "--level", "1", "--no-speed"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("! --level 1: L1 tests only; scores cover them alone");
    expect(r.out).toContain(`${KATA1}   you: ${l1Count}/${l1Count}   reference: ${l1Count}/${l1Count}   (L1 only)`);
    expect(r.out).toContain("(the same verdict on every test)");
  });
});
