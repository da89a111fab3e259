// `npm run grade -- --only TEXT`: which tests a narrowed grade chooses, and that it runs and reports
// those alone (the rest are neither run nor scored as failures or passes).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseArgs, UsageError } from "../lib/cli-args.ts";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { chooseTests } from "../lib/grader/only.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { runMain } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-only-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest: Manifest = {
  support: {},
  katas: {
    "01-a": {
      tests: [
        { file: "spec/01-a/x.spec.ts", name: "1. parse > nested parentheses [L2 w1]" },
        { file: "spec/01-a/y.spec.ts", name: "2. run > a call runs [L1 w1]" },
      ],
      bank: [{ file: "spec/01-a/bank/z.bank.spec.ts", name: "1. parse > nested, held out [L2 w1]" }],
      files: {},
    },
    "02-b": { tests: [{ file: "spec/02-b/x.spec.ts", name: "1. validate > nested objects [L1 w1]" }], bank: [], files: {} },
  },
};
const katas = [
  { id: "01-a", number: 1 },
  { id: "02-b", number: 2 },
];

describe("grade --only", () => {
  test("is repeatable: every value is kept, in order", () => {
    const args = parseArgs(["--only", "a", "--only=b"], { only: { value: true, repeatable: true, description: "" } });
    expect(args.lists.get("only")).toEqual(["a", "b"]);
  });

  test("chooses by the name the report shows (kata > task > test, no level tag), the bank only with --bank", () => {
    const chosen = chooseTests(manifest, katas, ["nested"], false);
    expect(chosen.get("01-a")).toEqual(new Set(["1. parse > nested parentheses [L2 w1]"]));
    // Every test of 02-b is chosen: graded as a whole, as without --only.
    expect(chosen.has("02-b")).toBe(true);
    expect(chosen.get("02-b")).toBeUndefined();
    expect(chooseTests(manifest, katas, ["nested"], true).get("01-a")?.size).toBe(2);
    // A kata prefix chooses a whole kata; a kata with no chosen test is left out.
    const one = chooseTests(manifest, katas, ["01-a > "], false);
    expect([...one.keys()]).toEqual(["01-a"]);
    expect(one.get("01-a")).toBeUndefined();
    // The tag is not part of the name matched; nothing chosen is a usage error.
    expect(() => chooseTests(manifest, katas, ["[L1"], false)).toThrow(UsageError);
  });

  test("a narrowed grade runs and reports the chosen tests alone", async () => {
    const real = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
    const tests = real.katas["03-agent-loop"].tests;
    const name = (t: { name: string }) => t.name.replace(/ \[L\d w\d+( core)?\]$/, "");
    const [first, second] = [tests[0], tests.find((t) => t.file !== tests[0].file)!];
    const out = join(dir, "r.json");
    const r = await runMain("scripts/grade.ts", ["--impl", "solutions", "--kata", "3", "--only", name(first), "--only", name(second), "--json", out]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/--only: 03-agent-loop: 2 of its tests/);
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.x_only).toEqual([name(first), name(second)]);
    expect(report.tests.map((t: { name: string; status: string }) => [t.name, t.status])).toEqual([
      [`03-agent-loop > ${name(first)}`, "pass"],
      [`03-agent-loop > ${name(second)}`, "pass"],
    ]);
    expect(report.x_katas).toMatchObject([{ kata: "03-agent-loop", score: 100, passed: 2, total: 2, problems: [] }]);
  });
});
