// `--core`: the core mark in a test's tag, the tests it chooses, and a grade and a watch that run
// and score the core tests alone, saying so (terminal, results.json), on code written the way the
// 20-minute round writes it (spec/fixtures/minimal/), which passes them and nothing like the whole.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { TAG_PATTERN, tagName } from "../../spec/support/test-tag.ts";
import { UsageError } from "../lib/cli-args.ts";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { CORE_NOTE } from "../lib/grader/core.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { chooseTests } from "../lib/grader/only.ts";
import { levelTag } from "../lib/grader/report-terminal.ts";
import { splitTag } from "../lib/grader/test-result.ts";
import { SPRINT } from "../lib/sprint.ts";
import { WatchSession } from "../lib/watch/session.ts";
import { runMain } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-core-"));
let session: WatchSession | undefined;
afterAll(() => {
  session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const MINIMAL = join(PROJECT_ROOT, "spec", "fixtures", "minimal");
const realManifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const coreOf = (kata: string) => realManifest.katas[kata].tests.filter((t) => splitTag(t.name).core);

const manifest: Manifest = {
  support: {},
  katas: {
    "01-a": {
      tests: [
        { file: "spec/01-a/x.spec.ts", name: "1. parse > a call [L1 w1 core]" },
        { file: "spec/01-a/x.spec.ts", name: "1. parse > nested parentheses [L2 w1]" },
        { file: "spec/01-a/y.spec.ts", name: "2. run > unknown tool [L2 w1 core]" },
      ],
      bank: [],
      files: {},
    },
    "02-b": { tests: [{ file: "spec/02-b/x.spec.ts", name: "1. validate > type [L1 w1]" }], bank: [], files: {} },
  },
};
const katas = [
  { id: "01-a", number: 1 },
  { id: "02-b", number: 2 },
];

describe("the core mark", () => {
  test("rides in the tag beside the level and weight, and reads back", () => {
    expect(tagName("1. parse > a call", "L1", 1, true)).toBe("1. parse > a call [L1 w1 core]");
    expect(tagName("1. parse > a call", "L1", 1)).toBe("1. parse > a call [L1 w1]");
    expect(splitTag("1. parse > a call [L2 w3 core]")).toMatchObject({ name: "1. parse > a call", level: "L2", weight: 3, core: true, tagged: true });
    expect(splitTag("1. parse > a call [L2 w3]")).toMatchObject({ core: false, tagged: true });
    for (const bad of ["x [L1 w1 Core]", "x [L1 core w1]", "x [L1 w1  core]", "x [L1 w1 core] "]) expect(TAG_PATTERN.test(bad), bad).toBe(false);
    expect(levelTag({ level: "L1", weight: 1, core: true })).toBe("[L1 w1 core]");
  });

  test("the sprint's katas each have 4 to 8 core tests, none in the bank", () => {
    for (const { kata } of SPRINT) {
      expect(coreOf(kata).length, kata).toBeGreaterThanOrEqual(4);
      expect(coreOf(kata).length, kata).toBeLessThanOrEqual(8);
      expect(realManifest.katas[kata].bank.filter((t) => splitTag(t.name).core), kata).toEqual([]);
    }
  });

  test("--core chooses the core tests, with --level the core tests of those levels; none is a usage error", () => {
    expect(chooseTests(manifest, katas, undefined, false, undefined, true)).toEqual(new Map([["01-a", new Set(["1. parse > a call [L1 w1 core]", "2. run > unknown tool [L2 w1 core]"])]]));
    expect(chooseTests(manifest, katas, undefined, false, ["L2"], true).get("01-a")).toEqual(new Set(["2. run > unknown tool [L2 w1 core]"]));
    expect(chooseTests(manifest, katas, ["parse"], false, undefined, true).get("01-a")).toEqual(new Set(["1. parse > a call [L1 w1 core]"]));
    expect(() => chooseTests(manifest, [katas[1]], undefined, false, undefined, true)).toThrow(UsageError);
    expect(() => chooseTests(manifest, [katas[1]], undefined, false, undefined, true)).toThrow(/--core: no test .* is a core test/);
  });
});

describe("npm run grade -- --core", () => {
  test("runs and scores the core tests alone, says so in the terminal and results.json, and suggests the L1 stage next", { timeout: 120_000 }, async () => {
    const json = join(dir, "core.json");
    const r = await runMain("scripts/grade.ts", ["--impl", MINIMAL, "--kata", "1,2,3", "--core", "--json", json]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`! ${CORE_NOTE}`);
    expect(r.out).toMatch(/replay: npm run grade -- --impl \S+ --kata 1,2,3 --core --seed -?\d+\)/);
    expect(r.out).toContain(`All graded katas pass their core tests. Next stage: npm run grade -- --impl ${MINIMAL} --level 1`);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.x_core_only).toBe(true);
    const expected = SPRINT.flatMap(({ kata }) => coreOf(kata).map((t) => `${kata} > ${splitTag(t.name).name}`));
    expect(report.tests.map((t: { name: string }) => t.name).sort()).toEqual(expected.sort());
    expect(report.tests.every((t: { x_core: boolean; status: string }) => t.x_core && t.status === "pass")).toBe(true);
    expect(report.score).toBe(100);
  });

  test("without --core the same code is far from the whole kata, and results.json marks the core tests among the rest", { timeout: 120_000 }, async () => {
    const json = join(dir, "all.json");
    const r = await runMain("scripts/grade.ts", ["--impl", MINIMAL, "--kata", "2", "--level", "1", "--json", json]);
    expect(r.code, r.out).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.x_core_only).toBe(false);
    expect(report.score).toBeLessThan(100);
    const core = report.tests.filter((t: { x_core: boolean }) => t.x_core);
    expect(core.length).toBe(coreOf("02-schema-validation").length);
    expect(report.tests.length).toBeGreaterThan(core.length);
  });
});

describe("npm run watch -- N --core", () => {
  test("--once grades the core tests alone, the grader's way, and names the L1 stage next", { timeout: 60_000 }, async () => {
    const r = await runMain("scripts/watch.ts", ["3", "--impl", MINIMAL, "--once", "--core"]);
    expect(r.code, r.out).toBe(0);
    const n = coreOf("03-agent-loop").length;
    expect(r.out).toContain(`! ${CORE_NOTE}`);
    expect(r.out).toContain(`03-agent-loop: ${n} of ${n} passing · core only`);
    expect(r.out).toContain("All core tests passing. Next stage: npm run watch -- 3 --level 1");
  });

  test("the warm runner runs the core tests alone, on the first run and on a save that breaks one", { timeout: 120_000 }, async () => {
    const impl = join(dir, "minimal");
    cpSync(MINIMAL, impl, { recursive: true });
    const n = coreOf("01-regex-dispatch").length;
    session = new WatchSession(1, impl, {}, ["--core"]);
    const [first] = await session.untilFull(60_000);
    expect([first.passing, first.total]).toEqual([n, n]);
    expect(first.text).toContain("· core only");
    // The whitelist no longer refuses: the core test of an unknown tool fails, and is named next.
    const file = join(impl, "01-regex-dispatch", "index.ts");
    const source = readFileSync(file, "utf8");
    const broken = source.replace("if (!tool) return", "if (!tool && false) return");
    expect(broken).not.toBe(source);
    session.save(file, broken);
    const full = (await session.untilFull(60_000)).at(-1)!;
    expect(full.total).toBe(n);
    expect(full.passing).toBeLessThan(n);
    expect(full.text).toMatch(/\n\s+next: .+ \[L\d w\d+ core\]\n/);
  });
});
