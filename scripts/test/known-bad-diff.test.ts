import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { FLAW_DIFF, applyHunks, knownBadImplRoot, parseUnifiedDiff } from "../lib/fixtures/known-bad.ts";
import { runMain } from "./support/run-script.ts";

const DIFF = `--- a/step.ts
+++ b/step.ts
@@ -1,4 +1,4 @@
 const a = 1;
-const b = 2;
+const b = 3;
 const c = 4;

`;

const work = mkdtempSync(join(tmpdir(), "tuk-known-bad-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("known-bad fixtures kept as a diff against the reference", () => {
  test("a hunk is applied where its lines are, whatever its line numbers say", () => {
    const [[file, hunks]] = [...parseUnifiedDiff(DIFF)];
    expect(file).toBe("step.ts");
    const source = "// moved down by a new first line\nconst a = 1;\nconst b = 2;\nconst c = 4;\n";
    expect(applyHunks(source, hunks, file)).toBe("// moved down by a new first line\nconst a = 1;\nconst b = 3;\nconst c = 4;\n");
  });

  test("a hunk whose lines are gone, or found twice, is an error that says so", () => {
    const [[file, hunks]] = [...parseUnifiedDiff(DIFF)];
    expect(() => applyHunks("const a = 1;\nconst b = 5;\nconst c = 4;\n", hunks, file)).toThrow(/no longer in the reference/);
    const twice = "const a = 1;\nconst b = 2;\nconst c = 4;\nconst a = 1;\nconst b = 2;\nconst c = 4;\n";
    expect(() => applyHunks(twice, hunks, file)).toThrow(/occur 2 times/);
  });

  test("every fixture's flaw.diff applies to today's reference, and changes it", () => {
    const root = join(PROJECT_ROOT, "spec", "fixtures", "known-bad");
    const withDiff = readdirSync(root).filter((name) => existsSync(join(root, name, FLAW_DIFF)));
    expect(withDiff.length).toBeGreaterThan(0);
    for (const name of withDiff) {
      const { kata } = JSON.parse(readFileSync(join(root, name, "expect.json"), "utf8")) as { kata: string };
      const out = knownBadImplRoot(join(root, name), kata, join(work, name));
      const files = [...parseUnifiedDiff(readFileSync(join(root, name, FLAW_DIFF), "utf8")).keys()];
      for (const file of files) {
        const made = readFileSync(join(out, kata, file), "utf8");
        expect(made, `${name}: ${file}`).not.toBe(readFileSync(join(PROJECT_ROOT, "solutions", kata, file), "utf8"));
        expect(made, `${name}: ${file}`).toContain("FLAW");
      }
    }
  });

  test("a fixture written whole is graded from its own folder", () => {
    const dir = join(PROJECT_ROOT, "spec", "fixtures", "known-bad", "naive-regex");
    expect(knownBadImplRoot(dir, "01-regex-dispatch", join(work, "unused"))).toBe(dir);
  });
});

describe("npm run grade -- --impl <a fixture kept as a diff>", () => {
  test("grades the reference with the flaw applied, says so, and leaves no copy of it behind", async () => {
    const out = join(work, "r.json");
    // A temp folder of this call's own, so that what it holds afterwards is this grade's leftovers.
    const temp = mkdirSync(join(work, "temp"), { recursive: true })!;
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    let r: Awaited<ReturnType<typeof runMain>>;
    try {
      r = await runMain("scripts/grade.ts", ["--impl", "spec/fixtures/known-bad/single-decode-arguments", "--kata", "2", "--only", "a double-encoded string is decoded twice", "--json", out]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    // In-process, as grade:round and these tests run it: the fixture made for the grade goes when its main returns.
    expect(readdirSync(temp)).toEqual([]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("Grading spec/fixtures/known-bad/single-decode-arguments (solutions/02-schema-validation with its flaw.diff)");
    const report = JSON.parse(readFileSync(out, "utf8")) as { tests: Array<{ name: string; status: string }> };
    expect(report.tests.length).toBeGreaterThan(0);
    for (const t of report.tests) expect(t.status, t.name).toBe("fail");
  });
});
