// npm run grade:round: the leaderboard's rows are each folder's own `npm run grade`; unchanged
// candidates are not graded again (unless --force); the CSV, JSON, Markdown and HTML outputs say
// the same thing. (A hanging candidate: grade-round-budget.test.ts, which mostly waits, beside this.)
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { detectConfinement } from "../../spec/support/sandbox/confinement.ts";
import { fixtureImplRoot } from "../lib/fixtures/known-bad.ts";
import { candidatesOf } from "../lib/round/candidates.ts";
import { leaderboardCsv } from "../lib/round/csv.ts";
import { fingerprint } from "../lib/round/fingerprint.ts";
import { rowFromResults, rowWithoutResults, type Results } from "../lib/round/row.ts";
import { runCommand, runMain } from "./support/run-script.ts";

const work = mkdtempSync(join(tmpdir(), "tuk-round-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** npm run grade:round, through its main(argv) in this process: its grades are children of their own. */
const round = (args: string[]) => runMain("scripts/grade-round.ts", args);

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;

/** The failed tests of a results.json, with their messages, for an assertion's message. */
function failures(file: string): string {
  const tests = readJson<{ tests: Array<{ name: string; status: string; message?: string }> }>(file).tests;
  const failed = tests.filter((t) => t.status !== "pass");
  return failed.length === 0 ? "no test failed" : failed.slice(0, 5).map((t) => `${t.name}: ${(t.message ?? "").slice(0, 300)}`).join("\n");
}

/** A copy of the stub of kata 1, as a candidate's checkout: `<dir>/katas/01-regex-dispatch`. */
function stubCheckout(name: string): string {
  const dir = join(work, name);
  cpSync(join(PROJECT_ROOT, "katas", "01-regex-dispatch"), join(dir, "katas", "01-regex-dispatch"), { recursive: true });
  return dir;
}

/**
 * A checkout whose kata 1 folder has no index.ts yet: grade runs and scores it 0 at once ("nothing
 * to grade") without starting a test runner. What the round stores and skips is the same.
 */
function unstartedCheckout(name: string): string {
  const dir = join(work, name, "katas", "01-regex-dispatch");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "notes.md"), "to do\n");
  return join(work, name);
}

/**
 * Whether the sandbox has a PID namespace here: only then may a test's graded code signal every
 * process it can name (elsewhere it would stop this machine's processes, the test's own included).
 */
const SIGNALS = detectConfinement().level === "namespaces";

/** Kata 1 written to harm the round: it implements nothing, and at import signals and writes what it can. */
function hostileCandidate(attack: { signals: boolean; targets: string[] }): string {
  return `const host = (globalThis as Record<string, any>)["proc" + "ess"];
const fs = host["getBuilt" + "inModule"]?.("fs") ?? (await import(["node", "fs"].join(":")));
if (${attack.signals}) {
  for (let pid = 2; pid < 65536; pid++) {
    for (const signal of ["SIGSTOP", "SIGKILL"]) {
      try { if (pid !== host.pid) host.kill(pid, signal); } catch {}
    }
  }
}
let wrote = 0;
for (const file of ${JSON.stringify(attack.targets)}) {
  try {
    fs.writeFileSync(file, "export const parseToolCalls = () => [];");
    wrote++;
  } catch {}
}
const no = (): never => { throw new Error("not implemented; the attack wrote " + wrote + " of ${attack.targets.length} files"); };
export const parseToolCalls = no;
export const createRegistry = no;
export const dispatch = no;
export const calculate = no;
export const calculateTool = { name: "calculate", params: [], run: no };
export class BadArgumentsError extends Error {}
`;
}

interface Index {
  seed: number;
  candidates: Array<{ candidate: string; state: string; score: number; integrity: string; results: string | null; katas: Array<{ kata: string; score: number; integrity: string }> }>;
}

// The limit per kata run is wall time (60 s by default): inside `npm test`, beside its other lanes,
// kata 1's run of the reference has needed more than that on a slow day, and lost the tests it had
// not reached. What these tests compare does not depend on it, so the rounds that grade the
// reference get a generous one.
const GENEROUS_LIMIT = ["--timeout", "300"];

describe("grade:round", () => {
  test("its rows are each folder's own npm run grade; CSV, JSON, Markdown and HTML agree", { timeout: 420_000 }, async () => {
    // A reference, a known-bad fixture made into a real folder, a probe as written, the stubs.
    // The known-bad is the cheapest of kata 1's to grade (it is graded twice here): naive-regex,
    // whose wrong answers make the properties shrink, cost 4 s more of CPU for the same check.
    const knownBad = fixtureImplRoot(join(PROJECT_ROOT, "spec", "fixtures", "known-bad", "prototype-lookup"), join(work, "prototype-lookup"));
    const probe = join(work, "runner-import");
    cpSync(join(PROJECT_ROOT, "spec", "fixtures", "probe", "runner-import"), probe, { recursive: true });
    const folders = [join(PROJECT_ROOT, "solutions"), knownBad, probe, join(PROJECT_ROOT, "katas")];
    const out = join(work, "round1");
    const seed = "7";
    const ownGrade = async (folder: string, file: string, more: string[] = []) => {
      const graded = await runCommand("scripts/grade.ts", ["--impl", folder, "--kata", "1", "--seed", seed, ...GENEROUS_LIMIT, "--jobs", "1", "--json", join(work, file), ...more]);
      expect(graded.code, graded.out).toBe(0);
      return readJson<Results>(join(work, file));
    };
    // Each folder's own npm run grade with the round's options, beside the round: run for the two
    // whose grade is not known beforehand. The reference's is 100 on every level, the stub's 0, both clean.
    const ownGrades = Promise.all([ownGrade(knownBad, "own-1.json", ["--markdown", join(work, "own.md")]), ownGrade(probe, "own-2.json")]);
    const known = (score: number) => ({ score, x_integrity: "ok", x_katas: [{ kata: "01-regex-dispatch", score, integrity: { status: "ok" }, levels: { L1: score, L2: score, L3: score } }] }) as unknown as Results;
    const round1 = await round([...folders, "--kata", "1", "--seed", seed, ...GENEROUS_LIMIT, "--jobs", "2", "--json", out, "--csv", join(out, "board.csv"), "--markdown", join(out, "board.md"), "--html", join(out, "board.html")]);
    expect(round1.code, round1.out).toBe(0);
    const own = [known(100), ...(await ownGrades), known(0)];

    const index = readJson<Index>(join(out, "index.json"));
    expect(index.candidates.map((c) => c.candidate).sort()).toEqual(["katas", "prototype-lookup", "runner-import", "solutions"]);
    const names = ["solutions", "prototype-lookup", "runner-import", "katas"];
    names.forEach((name, i) => {
      const row = index.candidates.find((c) => c.candidate === name)!;
      expect(row.state, name).toBe("graded");
      // A score that differs says which tests its grade failed, and why: load, or the code.
      expect(row.score, `${name}: ${failures(join(out, row.results!))}`).toBe(own[i].score);
      expect(row.integrity, name).toBe(own[i].x_integrity);
      expect(row.katas.map((k) => [k.kata, k.score, k.integrity]), name).toEqual(own[i].x_katas.map((k) => [k.kata, k.score, k.integrity.status]));
      // The candidate's own results.json, kept beside the index.
      expect(readJson<Results>(join(out, row.results!)).score).toBe(own[i].score);
    });
    // What the fixtures are for: the probe scores 0 and says why, the flaw costs tests.
    expect(index.candidates[0].candidate).toBe("solutions");
    expect(index.candidates.find((c) => c.candidate === "runner-import")!.integrity).toBe("refused");
    expect(index.candidates.find((c) => c.candidate === "prototype-lookup")!.score).toBeLessThan(100);
    expect(round1.out).toMatch(/^1\s+solutions\s+100\.0/m);

    const csv = readFileSync(join(out, "board.csv"), "utf8").trim().split("\r\n").map((line) => line.split(","));
    const column = (name: string) => csv[0].indexOf(name);
    expect(csv).toHaveLength(5);
    for (const line of csv.slice(1)) {
      const i = names.indexOf(line[column("candidate")]);
      expect(Number(line[column("overall")])).toBe(own[i].score);
      expect(Number(line[column("01-regex-dispatch")])).toBe(own[i].x_katas[0].score);
      expect(line[column("01-regex-dispatch integrity")]).toBe(own[i].x_katas[0].integrity.status);
      for (const level of ["L1", "L2", "L3"] as const) expect(line[column(`01-regex-dispatch ${level}`)]).toBe(own[i].x_katas[0].levels[level]?.toFixed(1) ?? "");
    }

    const markdown = readFileSync(join(out, "board.md"), "utf8");
    expect(markdown).toMatch(/^\| # \| candidate \| overall \| 01-regex-dispatch \| L1 \| L2 \| L3 \| integrity \| sandbox \| time \| note \|$/m);
    expect(markdown).toMatch(/^\| 1 \| solutions \| 100\.0 \| 100\.0 \|/m);
    expect(markdown).toMatch(/^\| \d \| runner-import \| 0\.0 \| 0\.0 \|.*\| refused \|/m);
    // grade --markdown: the candidate's own summary, the same score.
    const ownMarkdown = readFileSync(join(work, "own.md"), "utf8");
    expect(ownMarkdown).toContain(`| 01-regex-dispatch | ${own[1].x_katas[0].score.toFixed(1)} |`);
    expect(ownMarkdown).toMatch(/^\|---\|---:\|/m);

    const html = readFileSync(join(out, "board.html"), "utf8");
    expect(html).not.toMatch(/<(link|img)\b|src=/);
    for (const name of names) {
      expect(html).toContain(`<tr data-candidate="${name}"`);
      expect(html).toContain(`href="board-reports/${name}.html"`);
      expect(existsSync(join(out, "board-reports", `${name}.html`))).toBe(true);
    }
    expect(html.match(/<rect class="bar"/g)).toHaveLength(4 * 3);
    // The page names the folder its links need, has a legend for its bars, and keeps scores on one line.
    expect(html).toContain('<code class="reports-folder">board-reports/</code>');
    expect(html).toMatch(/<p class="legend">A bar's length is the score/);
    expect(html).toMatch(/\.num\{white-space:nowrap\}/);
  });

  test("skips the candidates whose kata folders have not changed, grades the changed ones, and every one with --force", { timeout: 120_000 }, async () => {
    const a = unstartedCheckout("skip-a");
    const b = unstartedCheckout("skip-b");
    const out = join(work, "round2");
    const args = [a, b, "--kata", "1", "--json", out];
    const states = () => Object.fromEntries(readJson<Index>(join(out, "index.json")).candidates.map((c) => [c.candidate, c.state]));

    expect((await round(args)).code).toBe(0);
    expect(states()).toEqual({ "skip-a": "graded", "skip-b": "graded" });
    const again = await round(args);
    expect(again.out).toMatch(/skip-a: unchanged since its last grade/);
    expect(states()).toEqual({ "skip-a": "cached", "skip-b": "cached" });

    writeFileSync(join(b, "katas", "01-regex-dispatch", "extra.ts"), "export const x = 1;\n");
    await round(args);
    expect(states()).toEqual({ "skip-a": "cached", "skip-b": "graded" });
    await round([...args, "--force"]);
    expect(states()).toEqual({ "skip-a": "graded", "skip-b": "graded" });
    // Another choice of katas is another grade.
    await round([a, "--kata", "1,2", "--json", out]);
    expect(states()).toEqual({ "skip-a": "graded" });
  });

  test(`a candidate that attacks the round (${SIGNALS ? "signals every process it can name, " : ""}writes into its neighbour's folder and the round's outputs) scores 0 and its neighbour keeps 100`, { timeout: 420_000 }, async () => {
    const honest = join(work, "honest");
    cpSync(join(PROJECT_ROOT, "solutions", "01-regex-dispatch"), join(honest, "01-regex-dispatch"), { recursive: true });
    const honestCode = readFileSync(join(honest, "01-regex-dispatch", "index.ts"), "utf8");
    const out = join(work, "round-attacked");
    const hostile = join(work, "hostile", "01-regex-dispatch");
    mkdirSync(hostile, { recursive: true });
    // The worst case: it knows every path of the round.
    writeFileSync(join(hostile, "index.ts"), hostileCandidate({ signals: SIGNALS, targets: [join(honest, "01-regex-dispatch", "index.ts"), join(out, "index.json"), join(out, "honest.json"), join(out, "hostile.json")] }));
    const attacked = await round([honest, join(work, "hostile"), "--kata", "1", "--seed", "7", ...GENEROUS_LIMIT, "--jobs", "2", "--json", out]);
    expect(attacked.code, attacked.out).toBe(0);
    const index = readJson<Index>(join(out, "index.json"));
    const row = (name: string) => index.candidates.find((c) => c.candidate === name)!;
    const failing = (name: string) => JSON.stringify(readJson<{ tests: Array<{ name: string; status: string; message: string | null }> }>(join(out, row(name).results!)).tests.filter((t) => t.status !== "pass").slice(0, 3)).slice(0, 1500);
    expect(row("honest").score, `the honest candidate's failures: ${failing("honest")}\n${attacked.out.slice(-1500)}`).toBe(100);
    expect(row("hostile").score).toBe(0);
    expect(readJson<Results>(join(out, row("honest").results!)).score).toBe(100);
    // The attack ran (its kata loaded, in its sandbox), and reached nothing.
    const failures = readJson<{ tests: Array<{ message: string | null }> }>(join(out, row("hostile").results!)).tests.map((t) => t.message ?? "");
    expect(failures.filter((message) => /the attack wrote 0 of 4 files/.test(message)).length).toBeGreaterThan(0);
    expect(failures.filter((message) => /the attack wrote [1-9]/.test(message))).toEqual([]);
    expect(readFileSync(join(honest, "01-regex-dispatch", "index.ts"), "utf8")).toBe(honestCode);
  });

  test("--help, and a round with no folder or a missing one is a usage error", async () => {
    expect((await round([])).code).toBe(2);
    const missing = await round([join(work, "nowhere")]);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/implementation folder not found/);
  });
});

describe("grade:round's parts", () => {
  test("candidates get unique names that are safe as file names", () => {
    const root = join(work, "names");
    for (const dir of ["x/cand", "y/cand", "z/a b"]) mkdirSync(join(root, dir), { recursive: true });
    expect(candidatesOf(["x/cand", "y/cand", "z/a b"], root).map((c) => c.name)).toEqual(["x-cand", "y-cand", "a_b"]);
  });

  test("the fingerprint changes with a file's bytes, a new file, and the grading options", () => {
    const dir = stubCheckout("print");
    const katas = join(dir, "katas");
    const first = fingerprint(katas, ["01-regex-dispatch"], { bank: false });
    expect(fingerprint(katas, ["01-regex-dispatch"], { bank: false })).toBe(first);
    expect(fingerprint(katas, ["01-regex-dispatch"], { bank: true })).not.toBe(first);
    writeFileSync(join(katas, "01-regex-dispatch", "new.ts"), "");
    const second = fingerprint(katas, ["01-regex-dispatch"], { bank: false });
    expect(second).not.toBe(first);
    writeFileSync(join(katas, "01-regex-dispatch", "new.ts"), " ");
    expect(fingerprint(katas, ["01-regex-dispatch"], { bank: false })).not.toBe(second);
  });

  test("a row reads the bank's score per level from the tests; the CSV quotes what needs it", () => {
    const test = (level: string, bank: boolean, status: string, weight = 1) => ({ status, x_kata: "01-k", x_level: level, x_bank: bank, x_weight: weight });
    const results = {
      score: 50, x_bank_score: 25, x_seed: 1, x_integrity: "notes", x_levels: { L1: 50, L2: null, L3: null },
      x_katas: [{ kata: "01-k", score: 50, passed: 1, total: 2, levels: { L1: 50, L2: null, L3: null }, bank_score: 25, integrity: { status: "notes" } }],
      tests: [test("L1", false, "pass"), test("L1", false, "fail"), test("L1", true, "pass"), test("L2", true, "fail", 3)],
    } as unknown as Results;
    const row = rowFromResults({ candidate: "a,\"b\"", dir: "/x", state: "graded", wallMs: 1500 }, results);
    expect(row.bankLevels).toEqual({ L1: 100, L2: 0, L3: null });
    expect(row.katas[0].bankLevels).toEqual({ L1: 100, L2: 0, L3: null });
    const csv = leaderboardCsv([row, rowWithoutResults({ candidate: "z", dir: "/z", state: "over-budget", wallMs: 9000 }, "over the budget")]);
    const [, first, second] = csv.split("\r\n");
    expect(first.startsWith(`1,"a,""b""",/x,graded,50.0,25.0,50.0,,,100.0,0.0,,`)).toBe(true);
    expect(second).toMatch(/^2,z,\/z,over-budget,0\.0,/);
    expect(second).toMatch(/,-,9\.0,over the budget$/);
  });
});
