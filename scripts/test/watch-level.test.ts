// `npm run watch -- 1 --level 1`: the warm runner and the cold grade both run the L1 tests alone
// (an L2 test that would hang is never started), and every answer says so.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { WatchSession } from "../lib/watch/session.ts";
import { KATA1, kata1Variant } from "./support/kata1-variants.ts";
import { runMain } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-watch-level-"));
// Its calculator never returns on "% 0", which only L2 tests use: a run of any of them hangs, and
// watch would then print its "No test has ended" warning and grade cold.
const impl = kata1Variant(dir, "hangs");
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const l1Count = manifest.katas[KATA1].tests.filter((t) => / \[L1 w\d+( core)?\]$/.test(t.name)).length;
let session: WatchSession | undefined;
afterAll(() => {
  session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run watch --level", () => {
  test("--once grades the chosen levels alone, the grader's way", { timeout: 60_000 }, async () => {
    const r = await runMain("scripts/watch.ts", ["1", "--impl", impl, "--once", "--level", "1"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("! --level 1: L1 tests only; scores cover them alone");
    expect(r.out).toContain(`${KATA1}: ${l1Count} of ${l1Count} passing · L1 only`);
    expect(r.out).toContain("All L1 tests passing. Next stage: npm run watch -- 1 --level 1,2");
  });

  test("the warm runner leaves the other levels out, on the first run and on every save", { timeout: 120_000 }, async () => {
    session = new WatchSession(1, impl, { FC_NUM_RUNS: "20" }, ["--level", "1"]);
    const [first] = await session.untilFull(60_000);
    expect([first.passing, first.total]).toEqual([l1Count, l1Count]);
    expect(first.text).toContain("· L1 only");

    // Addition made subtraction: an L1 calculator test fails, and it is the one named next.
    const file = join(impl, KATA1, "calculate.ts");
    const source = readFileSync(file, "utf8");
    const broken = source.replace("value + right : value - right", "value - right : value + right");
    expect(broken).not.toBe(source);
    session.save(file, broken);
    const answers = await session.untilFull(60_000);
    const full = answers.at(-1)!;
    expect(full.total).toBe(l1Count);
    expect(full.passing).toBeLessThan(l1Count);
    expect(full.text).toMatch(/\n\s+next: .+ \[L1 w\d+( core)?\]\n/);
    expect(session.output).not.toContain("No test has ended");
  });
});
