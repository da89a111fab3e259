// npm run compare's speed ratios, which a candidate must be able to trust: the ratio and its spread, the staging that loads
// both sides the same way and runs them confined, the self-test's verdict, and a whole run that
// tells identical code from code that does twice the work.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { caseKind, formatRatio, quantile, speedRatio } from "../lib/compare/ratio.ts";
import { compareSpeed } from "../lib/compare/speed.ts";
import { confinedCommand, stageConfined } from "../lib/compare/confine.ts";
import { detectConfinement } from "../../spec/support/sandbox/confinement.ts";
import { persistentProblems, selfCompareFindings, selfCompareProblems } from "../lib/self-test/compare-check.ts";

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
  test("of two tries, a problem counts only when both have it: noise picks another case each time, a bias the same one", () => {
    const bad = (name: string, ratio: number) => ({ name, clock: "cpu" as const, referenceMs: 1, ratio, low: ratio - 0.05, high: ratio + 0.05 });
    const first = selfCompareFindings([bad("a: x, 1 KiB", 1.2), ok("b: y, 1 KiB", 1)]);
    expect(persistentProblems(first, selfCompareFindings([ok("a: x, 1 KiB", 1), bad("b: y, 1 KiB", 0.8)]))).toEqual([]);
    expect(persistentProblems(first, selfCompareFindings([bad("a: x, 1 KiB", 1.19), ok("b: y, 1 KiB", 1)]))).toEqual([
      "a: x, 1 KiB: 1.19x (1.14-1.24) for identical code (and on the first try: a: x, 1 KiB: 1.20x (1.15-1.25) for identical code)",
      "a: geometric mean 1.190x over 1 cases, outside 0.9-1.1 (and on the first try: a: geometric mean 1.200x over 1 cases, outside 0.9-1.1)",
    ]);
    expect(persistentProblems(selfCompareFindings("stopped"), selfCompareFindings("stopped again"))).toHaveLength(1);
  });
});

describe("staging and confinement", () => {
  test("both sides are staged as JavaScript the same way: the same code makes the same module", { timeout: 60_000 }, async () => {
    const staged = await stageConfined(KATA1, join(PROJECT_ROOT, "solutions"), join(PROJECT_ROOT, "solutions"), join(dir, "staged"));
    // The bundler names each source file in a comment (a scratch path of its own): the code is the same.
    const code = (file: string) => readFileSync(file, "utf8").replace(/^\/\/ .*$/gm, "");
    expect(code(staged.files.yours)).toBe(code(staged.files.reference));
    for (const file of [staged.child, staged.files.cases, staged.files.yours]) expect(file.startsWith(staged.root), file).toBe(true);
    const launch = confinedCommand(staged, ["yours", "100", "2"]);
    expect(launch.args).toContain(`--allow-fs-read=${staged.root}/*`);
    expect(launch.args.some((a) => a.startsWith("--allow-child-process") || a.startsWith("--allow-addons"))).toBe(false);
  });

  test("code that does not build, or imports what a kata may not, is said so and not measured", { timeout: 60_000 }, async () => {
    const bad = join(dir, "imports");
    cpSync(join(PROJECT_ROOT, "solutions", KATA1), join(bad, KATA1), { recursive: true });
    writeFileSync(join(bad, KATA1, "index.ts"), `import "node:child_process";\n${readFileSync(join(bad, KATA1, "index.ts"), "utf8")}`);
    const result = await compareSpeed(KATA1, bad, join(PROJECT_ROOT, "solutions"), join(dir, "scratch-imports"), { budgetMs: 40, rounds: 2, processes: 1, sizes: [10_240, 10_240], timeoutMs: 60_000 });
    expect(result).toMatch(/your code imports what a kata may not \(01-regex-dispatch\/index\.ts imports 'node:child_process'\)/);
  });

  // The candidate's code runs in the measuring process: there it writes no file, reaches no
  // listener (where namespaces hold) and reads nothing but the staged code.
  test("the candidate's code, measured, writes no file, reads nothing outside the staged code, and reaches no listener", { timeout: 120_000 }, async () => {
    expect(typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule, "the probe needs process.getBuiltinModule").toBe("function");
    const target = join(dir, "written-by-candidate.txt");
    writeFileSync(join(dir, "writable.txt"), "this folder is writable");
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const probe = join(dir, "probe");
    cpSync(join(PROJECT_ROOT, "solutions", KATA1), join(probe, KATA1), { recursive: true });
    const index = join(probe, KATA1, "index.ts");
    const bank = join(PROJECT_ROOT, "spec", KATA1, "bank");
    writeFileSync(index, [
      "const load = (globalThis as any).process.getBuiltinModule;",
      `try { load("node:fs").writeFileSync(${JSON.stringify(target)}, "read: " + load("node:fs").readdirSync(${JSON.stringify(bank)}).join()); } catch {}`,
      `try { load("node:fs").writeFileSync(${JSON.stringify(target)}, "written"); } catch {}`,
      `try { load("node:net").connect(${port}, "127.0.0.1").on("error", () => {}); } catch {}`,
      readFileSync(index, "utf8"),
    ].join("\n"));
    try {
      const result = await compareSpeed(KATA1, probe, join(PROJECT_ROOT, "solutions"), join(dir, "scratch-probe"), { budgetMs: 40, rounds: 2, processes: 1, sizes: [10_240, 10_240], timeoutMs: 60_000 });
      expect(typeof result === "string" ? result : result.filter((r) => "error" in r), "the comparison itself still runs").toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(existsSync(target), "a file written by the candidate's code").toBe(false);
      if (detectConfinement().level === "namespaces") expect(connections, "connections from the candidate's code").toBe(0);
    } finally {
      server.close();
    }
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
        // A spread that reaches 1 reads "no measurable difference": a problem of this try, not a
        // throw, or the second try below would never run.
        const shown = formatRatio(r);
        if (!/^\d\.\d\dx \(\d\.\d\d-\d\.\d\d\)$/.test(shown) || !(r.ratio > 1.3 && r.ratio < 2.7 && r.low > 1.05)) problems.push(`${r.name}: ${shown}`);
      }
      return problems;
    };
    // A burst of load can flatten one case once; a compare that cannot see the slowdown fails
    // both tries, so the second decides.
    const first = await measure("scratch-twice");
    const problems = first.length === 0 ? [] : await measure("scratch-twice-again");
    expect(problems, `first try: ${first.join("; ")}`).toEqual([]);
  });
});
