// A failed deep equality names the first path where the values part, both values there written
// whole, before vitest's own line (spec/support/first-difference.ts and its setup file).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { firstDifference } from "../../spec/support/first-difference.ts";
import { forgetCall, lastCall, noteCall } from "../../spec/support/last-call.ts";
import { notedExport } from "../../spec/support/noted-export.ts";
import { listKatas } from "../lib/grader/katas.ts";
import { bridgedNames } from "../lib/noted-impl.ts";

describe("the first difference", () => {
  test("a value deep inside: its path and both values, JSON-quoted", () => {
    expect(firstDifference([{ name: "get_weather", arguments: { city: "Beijing" } }], [{ name: "get_weather", arguments: { city: "北京" } }]))
      .toBe('at $[0].arguments.city: got "Beijing", expected "北京" (the strings part at character 0)');
    expect(firstDifference(['a"b', "it's", 1, 2, 3, 4], ['a"b', "it's", 1, 2, 3, 5])).toBe("at $[5]: got 4, expected 5");
  });

  test("an array too short or too long, a key missing or extra, a key that is not an identifier", () => {
    expect(firstDifference([], [{ name: "get_weather" }])).toBe('at $[0]: got undefined, expected {"name":"get_weather"} (0 items, expected 1)');
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 })).toBe("at $.b: got undefined, expected 2 (missing)");
    expect(firstDifference({ a: 1, "x-y": 2 }, { a: 1 })).toBe('at $["x-y"]: got 2, expected undefined (not expected)');
    // toEqual holds a key whose value is undefined for absent.
    expect(firstDifference({ a: 1, b: undefined }, { a: 1 })).toBeUndefined();
  });

  test("a long value is described, never cut inside", () => {
    const long = "x".repeat(500);
    expect(firstDifference({ text: long }, { text: `${long}y` })).toBe("at $.text: got a string of 500 characters, expected a string of 501 characters (the strings part at character 500)");
    expect(firstDifference({ list: Array.from({ length: 50 }, (_, i) => i) }, { list: "no" })).toBe('at $.list: got an array of 50 items, expected "no"');
  });

  test("a matcher stands for every value it accepts", () => {
    expect(firstDifference({ id: "call_1", n: 1 }, { id: expect.any(String), n: 2 })).toBe("at $.n: got 1, expected 2");
    expect(firstDifference({ id: 7 }, { id: expect.any(String) })).toBe('at $.id: got 7, expected "Any<String>" (a matcher)');
  });
});

describe("the input a failed test gave the kata", () => {
  test("the last call of the failing test, its arguments JSON-quoted; none of another test's", () => {
    noteCall("1. parse > quotes", "parseToolCalls", ['f(a="x, y")']);
    expect(lastCall("1. parse > quotes")).toBe('parseToolCalls("f(a=\\"x, y\\")")');
    expect(lastCall("1. parse > another test")).toBeUndefined();
    expect(lastCall(undefined)).toBeUndefined();
  });

  test("a long argument is described, never cut; a batch of calls names none", () => {
    noteCall("t", "validate", [{ type: "object" }, "y".repeat(1000)]);
    expect(lastCall("t")).toBe('validate({"type":"object"}, a string of 1000 characters)');
    forgetCall();
    expect(lastCall("t")).toBeUndefined();
  });
});

describe("the input in one process with the kata (watch, npm run spec)", () => {
  test("each export a kata's bridge forwards is found, so each is noted: every export of the reference but its classes", async () => {
    for (const kata of listKatas()) {
      const names = bridgedNames(readFileSync(join(PROJECT_ROOT, "spec", kata.id, "bridge.ts"), "utf8"));
      const reference = (await import(join(PROJECT_ROOT, "solutions", kata.id, "index.ts"))) as Record<string, unknown>;
      const classes = Object.keys(reference).filter((name) => /^class\b/.test(String(reference[name])));
      expect([...names, ...classes].sort(), kata.id).toEqual(Object.keys(reference).sort());
    }
  });

  test("a noted function calls the kata's own with its this and arguments; objects and classes pass through", () => {
    class Refused extends Error {}
    const tool = { name: "calc" };
    expect(notedExport("Refused", Refused)).toBe(Refused);
    expect(notedExport("calculateTool", tool)).toBe(tool);
    const own = function (this: { base: number }, a: number, b: number) { return this.base + a + b; };
    const noted = notedExport("add", own);
    expect(noted.call({ base: 1 }, 2, 3)).toBe(6);
    expect([noted.name, noted.length]).toEqual(["own", 2]);
    expect(lastCall(expect.getState().currentTestName)).toBe("add(2, 3)");
  });
});

describe("in a spec run", () => {
  const dir = mkdtempSync(join(PROJECT_ROOT, "spec", ".first-difference-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a failed toEqual's message starts with the first difference; a passing one and not.toEqual are untouched", () => {
    writeFileSync(join(dir, "probe.spec.ts"), `import { expect, test } from "vitest";
test("differs", () => { expect([{ name: "a", args: { city: "Beijing" } }]).toEqual([{ name: "a", args: { city: "北京" } }]); });
test("strict", () => { expect({ a: [1, 2] }).toStrictEqual({ a: [1, 3] }); });
test("same", () => { expect({ a: 1 }).toEqual({ a: 1 }); });
test("not", () => { expect({ a: 1 }).not.toEqual({ a: 1 }); });
`);
    const out = join(dir, "out.json");
    const r = spawnSync(process.execPath, [join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", join(dir, "probe.spec.ts"), "--reporter=json", `--outputFile=${out}`], { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const report = JSON.parse(readFileSync(out, "utf8")) as { testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }> };
    const byTitle = Object.fromEntries(report.testResults[0].assertionResults.map((t) => [t.title, t]));
    expect(byTitle.differs.failureMessages[0], r.stdout + r.stderr).toMatch(/^AssertionError: at \$\[0\]\.args\.city: got "Beijing", expected "北京" \(the strings part at character 0\) · expected /);
    expect(byTitle.strict.failureMessages[0]).toMatch(/^AssertionError: at \$\.a\[1\]: got 2, expected 3 · /);
    expect(byTitle.same.status).toBe("passed");
    expect(byTitle.not.failureMessages[0]).not.toMatch(/ at \$/);
  });

  test("said once in every spec file of a run whose files share one realm, as the grader's and watch's do", () => {
    const files = ["first", "second", "third"].map((name) => {
      const file = join(dir, `${name}.spec.ts`);
      writeFileSync(file, `import { expect, test } from "vitest";\ntest("differs", () => { expect([1, 2]).toEqual([1, 3]); });\n`);
      return file;
    });
    const out = join(dir, "shared.json");
    const r = spawnSync(process.execPath, [join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", ...files, "--isolate=false", "--maxWorkers=1", "--reporter=json", `--outputFile=${out}`], { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const report = JSON.parse(readFileSync(out, "utf8")) as { testResults: Array<{ assertionResults: Array<{ failureMessages: string[] }> }> };
    expect(report.testResults, r.stdout + r.stderr).toHaveLength(3);
    for (const file of report.testResults) expect(file.assertionResults[0].failureMessages[0].match(/at \$\[1\]: got 2, expected 3/g)).toHaveLength(1);
  });
});
