// npm run compare's speed ratios (issue 17): the ratio and its spread, the staging that loads
// both sides the same way, the self-test's verdict, and a whole run that tells identical code
// from code that does twice the work.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { caseKind, formatRatio, quantile, speedRatio } from "../lib/compare/ratio.ts";
import { compareSpeed } from "../lib/compare/speed.ts";
import { stageSides } from "../lib/compare/stage.ts";
import { selfCompareProblems } from "../lib/self-test/compare-check.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-compare-speed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KATA1 = "01-regex-dispatch";

describe("the ratio and its spread", () => {
  test("a spread away from 1 prints the ratio; one that covers 1 says there is no measurable difference", () => {
    expect(formatRatio({ ratio: 1.62, low: 1.48, high: 1.77 })).toBe("1.62x (1.48-1.77)");
    expect(formatRatio({ ratio: 0.5, low: 0.45, high: 0.55 })).toBe("0.50x (0.45-0.55)");
    expect(formatRatio({ ratio: 1.03, low: 0.94, high: 1.12 })).toBe("no measurable difference (0.94-1.12)");
  });

  test("a process that favours the side it starts with is cancelled by one that starts with the other", () => {
    const r = speedRatio([
      { yours: [1.2, 1.2, 1.2, 1.2], reference: [1, 1, 1, 1] },
      { yours: [1, 1, 1, 1], reference: [1.2, 1.2, 1.2, 1.2] },
    ]);
    expect(r.ratio).toBeCloseTo(1, 10);
    expect(r.low).toBeLessThan(1);
    expect(r.high).toBeGreaterThan(1);
  });

  test("the ratio is the lower quartiles' (slow rounds do not move it); the spread is a bootstrap that holds each process's luck", () => {
    const r = speedRatio([{ yours: [2, 2, 2, 2, 2, 2, 2, 2, 2, 50], reference: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] }]);
    expect(r.ratio).toBe(2);
    expect(r.low).toBe(2);
    expect(r.high).toBeLessThan(3);
    // Two processes that disagree: the spread reaches from one to the other.
    const two = speedRatio([
      { yours: [1.3, 1.31, 1.29, 1.3], reference: [1, 1, 1, 1] },
      { yours: [1.1, 1.11, 1.09, 1.1], reference: [1, 1, 1, 1] },
    ]);
    expect(two.low).toBeLessThan(1.11);
    expect(two.high).toBeGreaterThan(1.29);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(() => speedRatio([{ yours: [], reference: [] }])).toThrow(/too fast to time/);
  });

  test("the kind of a case is its name before the first colon or comma", () => {
    expect(caseKind("adversarial: deep nesting, 10 KiB")).toBe("adversarial");
    expect(caseKind("BFCL replies as text, 1 KiB")).toBe("BFCL replies as text");
  });
});

describe("the self-test's verdict on a self-comparison", () => {
  const ok = (name: string, ratio: number, width = 0.1) => ({ name, clock: "cpu" as const, referenceMs: 1, ratio, low: ratio - width, high: ratio + width });
  test("within noise: no problem", () => {
    expect(selfCompareProblems([ok("a: x, 1 KiB", 1.05), ok("a: y, 1 KiB", 0.95)])).toEqual([]);
  });
  test("a spread that misses 1, a kind whose geometric mean is off, an error, nothing measured: problems", () => {
    expect(selfCompareProblems([{ name: "a: x", clock: "cpu", referenceMs: 1, ratio: 1.2, low: 1.1, high: 1.3 }])).toEqual([
      "a: x: 1.20x (1.10-1.30) for identical code",
      "a: geometric mean 1.200x over 1 cases, outside 0.9-1.1",
    ]);
    expect(selfCompareProblems([ok("b: x", 1.15, 0.2), ok("b: y", 1.12, 0.2)])).toEqual(["b: geometric mean 1.135x over 2 cases, outside 0.9-1.1"]);
    expect(selfCompareProblems([{ name: "c", error: "boom\nstack" }])).toEqual(["c: boom"]);
    expect(selfCompareProblems([])).toEqual(["no case was measured"]);
    expect(selfCompareProblems("stopped after 90 s")).toEqual(["the comparison did not run: stopped after 90 s"]);
  });
});

describe("staging", () => {
  // The cause of the 1.2x: outside a folder whose package.json says "type": "module", tsx
  // compiles a .ts file to CommonJS, and every imported function is then called through a getter.
  /** How tsx loads each root's k/index.ts, in one process: "cjs" or "esm" per root, in order. */
  const probe = (...roots: string[]) => {
    const files = roots.map((root) => pathToFileURL(join(root, "k", "index.ts")).href);
    const script = `for (const file of ${JSON.stringify(files)}) { const m = await import(file); console.log(m.format ?? m.default?.format); }`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: PROJECT_ROOT, encoding: "utf8" });
    return r.stdout.trim().split("\n").length === roots.length ? r.stdout.trim().split("\n") : [r.stdout + r.stderr];
  };

  test("a copy outside the repository loads as CommonJS; staged, both sides load as ES modules", { timeout: 60_000 }, () => {
    const outside = join(dir, "outside");
    mkdirSync(join(outside, "k"), { recursive: true });
    writeFileSync(join(outside, "k", "index.ts"), 'export const format: string = typeof exports === "object" ? "cjs" : "esm";\n');
    const sides = stageSides("k", outside, outside, join(dir, "scratch"));
    expect(JSON.parse(readFileSync(join(dir, "scratch", "package.json"), "utf8")).type).toBe("module");
    expect(probe(outside, sides.yours, sides.reference)).toEqual(["cjs", "esm", "esm"]);
  });
});

describe("a whole comparison", () => {
  // Enough rounds that one disturbed round cannot widen the spread to 1 (6 rounds of 120 ms read
  // 0.96-... once under a whole npm test's load).
  const options = { budgetMs: 160, rounds: 10, processes: 2, sizes: [10_240, 10_240] as [number, number], timeoutMs: 60_000 };

  // About 2x on an idle machine; under the load of a whole npm test (and a mutation run beside it)
  // 1.48x was seen on one case: what must hold is a clear slowdown, its spread away from 1.
  test("code that parses every text twice reads clearly slower on every case, its spread away from 1", { timeout: 180_000 }, async () => {
    const twice = join(dir, "twice");
    cpSync(join(PROJECT_ROOT, "solutions", KATA1), join(twice, KATA1), { recursive: true });
    const index = join(twice, KATA1, "index.ts");
    const line = 'export { parseToolCalls } from "./parse.ts";';
    expect(readFileSync(index, "utf8")).toContain(line);
    writeFileSync(index, readFileSync(index, "utf8").replace(line, [
      'import { parseToolCalls as once } from "./parse.ts";',
      "export function parseToolCalls(text: string) {",
      "  once(text);",
      "  return once(text);",
      "}",
    ].join("\n")));
    const measure = async (scratch: string) => {
      const results = await compareSpeed(KATA1, twice, join(PROJECT_ROOT, "solutions"), join(dir, scratch), options);
      if (typeof results === "string") throw new Error(results);
      expect(results.length).toBeGreaterThanOrEqual(5); // the adversarial shapes of exactly 10 KiB
      const problems: string[] = [];
      for (const r of results) {
        if ("error" in r) throw new Error(`${r.name}: ${r.error}`);
        expect(formatRatio(r)).toMatch(/^\d\.\d\dx \(\d\.\d\d-\d\.\d\d\)$/);
        if (!(r.ratio > 1.3 && r.ratio < 2.7 && r.low > 1.05)) problems.push(`${r.name}: ${formatRatio(r)}`);
      }
      return problems;
    };
    // A burst of load can flatten one case once; a compare that cannot see the slowdown fails
    // both tries, so the second decides.
    const first = await measure("scratch-twice");
    const problems = first.length === 0 ? [] : await measure("scratch-twice-again");
    expect(problems, `first try: ${first.join("; ")}`).toEqual([]);
    expect(existsSync(join(dir, "scratch-twice", "package.json"))).toBe(true);
  });
});
