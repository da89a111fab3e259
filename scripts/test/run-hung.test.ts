// A test whose call hung, in a run that the time limit ended before the test could report: its
// own verdict says it hung (not "not run"), and the hang is one problem however many of the
// kata's sandboxes were stopped for it. What watch's cold answer names next is then the truth.
import { describe, expect, test } from "vitest";
import { emptyIntegrity } from "../lib/grader/integrity.ts";
import { kataResult } from "../lib/grader/kata-result.ts";
import type { SandboxEvent } from "../lib/grader/sandbox-events.ts";
import type { SpecRun } from "../lib/grader/spec-run.ts";

const kata = { id: "01-a", number: 1 };
const manifest = {
  tests: [
    { file: "spec/01-a/x.spec.ts", name: "1. parse > hangs [L1 w1]" },
    { file: "spec/01-a/x.spec.ts", name: "1. parse > after it [L1 w1]" },
  ],
  bank: [],
  files: {},
};
const why = "a call took more than 5 s of CPU time without returning (an endless loop?), so its process was stopped";
const run: SpecRun = {
  verdicts: new Map(),
  fileErrors: new Map(),
  listed: new Map(),
  reportWritten: false,
  child: { exitCode: null, signal: "SIGKILL", timedOut: true, outputTail: "", outputBytes: 0, durationMs: 3000 },
  limitMs: 3000,
};
const stopped = (test: string): SandboxEvent => ({ kata: kata.id, event: "exit", why, outputBytes: 0, test });
const context = { durationMs: 3000, integrity: emptyIntegrity(), sandbox: { level: "namespaces" as const, words: "" }, includeBank: false };

describe("a run the time limit ended just after a hang was caught", () => {
  test("the hung test says it hung, the next one that it was not run, and the hang is said once", () => {
    const result = kataResult({ kata, manifest }, manifest.tests, run, [stopped("1. parse > hangs [L1 w1]"), stopped("1. parse > hangs [L1 w1]")], context);
    const [hung, after] = result.tests;
    expect(hung).toMatchObject({ status: "error", summary: `it hung: ${why}` });
    expect(after.summary).toBe("not run: the run was stopped by the time limit before this test");
    expect(result.hungTests).toEqual(["1. parse > hangs"]);
    expect(result.problems.filter((p) => p.startsWith("timed out in test"))).toEqual([`timed out in test '1. parse > hangs': ${why}`]);
  });
});
