// A machine slow to start a sandbox costs no test: until the sandbox's process exists, no graded
// code has run, so the load's limits (CPU time and idle time, spec/support/sandbox/client.ts)
// count from then. Here `unshare` takes 12 s to begin, longer than a load may sit idle
// (LOAD_LIMIT_MS), as a kernel lock on making namespaces held it on CI's loaded machine.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { detectConfinement } from "../../spec/support/sandbox/confinement.ts";
import { LOAD_LIMIT_MS, START_LIMIT_MS } from "../../spec/support/sandbox/client.ts";
import { runCommand } from "./support/run-script.ts";

const work = mkdtempSync(join(tmpdir(), "tuk-slow-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const confinement = detectConfinement();
const DELAY_S = 12;

/** An `unshare` that waits DELAY_S seconds in its own process (no child) before it becomes the real one; the grader's probe (`unshare ... true`) it answers at once. */
function slowUnshare(real: string): string {
  const bin = join(work, "bin");
  mkdirSync(bin, { recursive: true });
  const file = join(bin, "unshare");
  writeFileSync(file, `#!/usr/bin/perl\nsleep ${DELAY_S} if $ARGV[-1] ne "true";\nexec(${JSON.stringify(real)}, @ARGV) or die "exec: $!";\n`);
  chmodSync(file, 0o755);
  return bin;
}

describe("a sandbox slow to start", () => {
  test("the delay is longer than a load may sit idle, and shorter than a start may take", () => {
    expect(DELAY_S * 1000).toBeGreaterThan(LOAD_LIMIT_MS);
    expect(DELAY_S * 1000).toBeLessThan(START_LIMIT_MS);
  });

  // Only where the grader confines with unshare: elsewhere there is no unshare to slow down.
  test.runIf(confinement.level === "namespaces")("costs the reference no test: kata 1's L1 still scores 100", { timeout: 120_000 }, async () => {
    const bin = slowUnshare(confinement.unshare!);
    const json = join(work, "results.json");
    const graded = await runCommand("scripts/grade.ts", ["--impl", join(PROJECT_ROOT, "solutions"), "--kata", "1", "--level", "1", "--seed", "7", "--jobs", "1", "--json", json], { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` });
    expect(graded.code, graded.out).toBe(0);
    const results = JSON.parse(readFileSync(json, "utf8")) as { score: number; tests: Array<{ name: string; status: string; message?: string }> };
    const failed = results.tests.filter((t) => t.status !== "pass").map((t) => `${t.name}: ${(t.message ?? "").slice(0, 200)}`);
    expect(failed).toEqual([]);
    expect(results.score).toBe(100);
  });
});
