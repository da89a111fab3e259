// npm run grade:round's budget: a candidate whose grade runs past its budget is stopped, with
// every process of its grade (its sandboxes included), and costs only itself. Apart from
// grade-round.test.ts because it mostly waits for the budget: it runs beside the tests that work.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { processesWithEnv } from "./support/processes.ts";
import { runMain } from "./support/run-script.ts";

/** Processes whose command line holds `marker`. */
function processesNamed(marker: string): string[] {
  return spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout.split("\n").filter((line) => line.includes(marker));
}

const work = mkdtempSync(join(tmpdir(), "tuk-round-budget-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the stub of kata 1, as a candidate's checkout: `<dir>/katas/01-regex-dispatch`. */
function stubCheckout(name: string): string {
  const dir = join(work, name);
  cpSync(join(PROJECT_ROOT, "katas", "01-regex-dispatch"), join(dir, "katas", "01-regex-dispatch"), { recursive: true });
  return dir;
}

interface Index {
  candidates: Array<{ candidate: string; state: string; score: number; integrity: string; results: string | null }>;
}

describe("grade:round --budget", () => {
  test("a candidate that hangs past --budget is stopped, with all its processes, and costs only itself", { timeout: 150_000 }, async () => {
    const hang = stubCheckout("hangs");
    const marker = `hangs-${process.pid}-${Date.now()}`;
    // Every call blocked for good, as by an endless loop, but asleep (a loop would burn a core for
    // the whole budget): the sandbox's supervisor stops such a call after 30 s idle, and the next
    // call sleeps again, so the candidate outlasts the budget (30 s: a stub's whole grade on a busy machine).
    // It names its process after the marker, so that a sandbox of it left running would show.
    writeFileSync(join(hang, "katas", "01-regex-dispatch", "index.ts"), `process.title = ${JSON.stringify(marker)};\nexport const parseToolCalls = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\n`);
    const fine = stubCheckout("fine");
    const out = join(work, "round3");
    // A seed of its own: every vitest of this round has it in its environment.
    const seed = String(100_000 + (process.pid % 100_000));
    const started = Date.now();
    const stopped = await runMain("scripts/grade-round.ts", [hang, fine, "--kata", "1", "--budget", "30", "--seed", seed, "--json", out]);
    expect(stopped.code, stopped.out).toBe(0);
    expect(Date.now() - started).toBeLessThan(90_000);
    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8")) as Index;
    const hung = index.candidates.find((c) => c.candidate === "hangs")!;
    expect(hung).toMatchObject({ state: "over-budget", score: 0, results: null });
    expect(index.candidates.find((c) => c.candidate === "fine")).toMatchObject({ state: "graded", integrity: "ok" });
    expect(stopped.out).toMatch(/hangs: over the budget of 30 s/);
    // Nothing of the stopped grade is left: no process with the round's seed, no sandbox of its code.
    expect(processesWithEnv(`FC_SEED=${seed}`)).toEqual([]);
    expect(processesNamed(marker)).toEqual([]);
  });

});
