import { describe, expect, test } from "vitest";
import { inputOf, parsePropertyFailure, splitTag, summaryLine, taskIdOf, withoutStack } from "../lib/grader/test-result.ts";
import { percent, score } from "../lib/grader/score.ts";
import type { KataResult } from "../lib/grader/kata-result.ts";
import type { TestResult } from "../lib/grader/test-result.ts";

const fastCheckFailure = `Error: Property failed after 3 tests
{ seed: -1234, path: "2:0", endOnFailure: true }
Counterexample: ["a(\\"b\\")"]
Shrunk 4 time(s)
Got error: expected 1 call, got 0
    at Object.<anonymous> (/somewhere/spec.ts:1:1)

Hint: Enable verbose mode in order to have the list of all failing values encountered during the run`;

describe("reading test results", () => {
  test("level and weight come from the trailing tag; untagged tests are flagged", () => {
    expect(splitTag("1. parse > nested [L2 w3]")).toEqual({ name: "1. parse > nested", level: "L2", weight: 3, core: false, tagged: true });
    expect(splitTag("1. parse > nested").tagged).toBe(false);
    expect(taskIdOf("12. limits > x")).toBe(12);
    expect(taskIdOf("limits > x")).toBeUndefined();
  });
  test("a fast-check failure yields its seed, path, counterexample and the failing check", () => {
    expect(parsePropertyFailure(fastCheckFailure)).toEqual({ seed: "-1234", path: "2:0", counterexample: '["a(\\"b\\")"]' });
    expect(summaryLine(fastCheckFailure)).toBe("expected 1 call, got 0");
    expect(withoutStack(fastCheckFailure)).not.toMatch(/\bat Object|verbose mode/);
    expect(parsePropertyFailure("AssertionError: expected 1 to be 2")).toBeUndefined();
  });
  test("a long assertion message is cut before its expectation, never the expectation", () => {
    const message = `AssertionError: rule: any non-finite value on the way: 1 / 1${"0".repeat(300)}: expected Infinity to be null // Object.is equality`;
    const summary = summaryLine(message);
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary).toMatch(/^rule: any non-finite value on the way: 1 \/ 10+\.\.\. expected Infinity to be null \/\/ Object\.is equality$/);
    expect(summaryLine(`AssertionError: ${"x".repeat(300)}`)).toBe(`${"x".repeat(197)}...`);
    expect(summaryLine("AssertionError: expected 1 to be 2")).toBe("expected 1 to be 2");
  });
  test("the input a failed deep equality names is read out whole and kept out of the summary, which a long input would cut", () => {
    const input = `parseToolCalls(${JSON.stringify(`get_weather(city="北京", note="${"x".repeat(250)}")`)})`;
    const message = `AssertionError: at $.args[0]: got "今天", expected "北京" (the strings part at character 0) · expected { name: 'get_weather', …(2) } to deeply equal { name: 'get_weather', …(2) } · input: ${input}\n    at spec.ts:1:1`;
    expect(inputOf(message)).toBe(input);
    expect(summaryLine(message)).toBe(`at $.args[0]: got "今天", expected "北京" (the strings part at character 0) · expected { name: 'get_weather', …(2) } to deeply equal { name: 'get_weather', …(2) }`);
    // In a property, on fast-check's "Got error:" line.
    expect(inputOf(fastCheckFailure.replace("got 0", "got 0 · input: f(1)"))).toBe("f(1)");
    expect(inputOf("AssertionError: expected 1 to be 2")).toBeUndefined();
  });
});

describe("scoring", () => {
  const result = (level: TestResult["level"], weight: number, status: TestResult["status"]): TestResult =>
    ({ kata: "01-x", file: "f", name: "n", level, weight, bank: false, taskId: 1, status });
  const run = (tests: TestResult[]): KataResult => ({ kata: { id: "01-x", number: 1 }, tests, problems: [], hungTests: [], durationMs: 0 });

  test("a kata's score is the weighted share of passing tests, per level too", () => {
    const scores = score([run([result("L1", 1, "pass"), result("L2", 3, "fail"), result("L2", 1, "pass")])]);
    expect(scores.katas[0].score).toBe(40);
    expect(percent(scores.katas[0].levels.L1)).toBe(100);
    expect(percent(scores.katas[0].levels.L2)).toBe(25);
    expect(Number.isNaN(percent(scores.katas[0].levels.L3))).toBe(true);
  });
  test("bank tests are scored apart and never move the visible score", () => {
    const banked = { ...result("L2", 1, "fail"), bank: true };
    const scores = score([run([result("L1", 1, "pass"), banked])]);
    expect(scores.katas[0].score).toBe(100);
    expect(scores.katas[0].bank?.score).toBe(0);
    expect(scores.bankOverall).toBe(0);
  });
  test("the overall score is the mean of the kata scores; errors count as failures", () => {
    const scores = score([run([result("L1", 1, "pass")]), run([result("L1", 1, "error")])]);
    expect(scores.overall).toBe(50);
  });
  test("an overall level is the mean of the katas' scores at that level, as the overall score is, not a pooled count", () => {
    // Kata 1 has one L1 test and passes it; kata 2 has nine and passes none: pooled, L1 would read 10.
    const many = Array.from({ length: 9 }, () => result("L1", 1, "fail"));
    const scores = score([run([result("L1", 1, "pass")]), run([...many, result("L2", 1, "pass")])]);
    expect(scores.levels.L1).toBe(50);
    // A level only one kata has is that kata's; a level none has is no figure.
    expect(scores.levels.L2).toBe(100);
    expect(Number.isNaN(scores.levels.L3)).toBe(true);
  });
});
