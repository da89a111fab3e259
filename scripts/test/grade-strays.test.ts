// A grade stopped by its time limit while a sandbox spins in an endless loop leaves no process
// behind (scripts/lib/grader/strays.ts): the test process that kept the sandbox dies with the
// limit, and before the grader swept them, such sandboxes ran on, a core each, for hours.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { stopStrays } from "../lib/grader/strays.ts";
import { runCommand } from "./support/run-script.ts";

const KATA = "01-regex-dispatch";
// The grade's own scratch folders go here (TMPDIR), so that its processes can be told from every other grade's.
const root = mkdtempSync(join(tmpdir(), "tuk-strays-"));
afterAll(() => {
  stopStrays(root);
  rmSync(root, { recursive: true, force: true });
});

const running = () => (spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout ?? "").split("\n").filter((line) => line.includes(root));

describe("a grade stopped by its time limit", () => {
  test("leaves no sandbox running, though its code never returns", { timeout: 120_000 }, async () => {
    const impl = join(root, "impl");
    cpSync(join(PROJECT_ROOT, "solutions", KATA), join(impl, KATA), { recursive: true });
    const parse = join(impl, KATA, "parse.ts");
    const source = readFileSync(parse, "utf8");
    const looping = source.replace(/(export function parseToolCalls\([^)]*\)[^{]*\{)/, "$1\n  for (;;) {}\n");
    expect(looping).not.toBe(source);
    writeFileSync(parse, looping);
    const scratch = join(root, "tmp");
    mkdirSync(scratch);
    // 3 s for the run: the limit falls while the first sandbox spins, inside its 5 s of CPU per call.
    const r = await runCommand("scripts/grade.ts", ["--impl", impl, "--kata", "1", "--timeout", "3", "--jobs", "1"], { TMPDIR: scratch });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/stopped by its time limit|more than 5 s of CPU time/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(running(), "processes of the grade's sandboxes still running").toEqual([]);
  });
});
