// One graded test's outcome, as the grader reports it, and how it is read out of a failure.
import type { Level } from "../../../spec/support/test-tag.ts";
import { TAG_PATTERN } from "../../../spec/support/test-tag.ts";
import { INPUT_MARK } from "../../../spec/support/last-call.ts";

export type TestStatus = "pass" | "fail" | "error";

export interface TestResult {
  kata: string;
  /** Spec file relative to the project root. */
  file: string;
  /** Full name without the level/weight tag: "1. parsing > nested parentheses". */
  name: string;
  level: Level;
  weight: number;
  /** A core test (`[L1 w1 core]`): one of the few the sprint and `--core` grade. */
  core?: boolean;
  /** A held-out bank test (scored apart from the visible specs). */
  bank: boolean;
  /** The top-level describe's number ("1. parsing" -> 1): Exercism's task_id. */
  taskId: number | undefined;
  status: TestStatus;
  /** First meaningful line of the failure. */
  summary?: string;
  /** The whole failure message (stack traces removed). */
  message?: string;
  /** The input the test gave the kata last, when a deep equality failed: `parseToolCalls("f(")`. */
  input?: string;
  /** fast-check's replay data when a property failed. */
  property?: { seed?: string; path?: string; counterexample?: string };
  durationMs?: number;
}

export function splitTag(fullName: string): { name: string; level: Level; weight: number; core: boolean; tagged: boolean } {
  const match = TAG_PATTERN.exec(fullName);
  if (!match) return { name: fullName, level: "L1", weight: 1, core: false, tagged: false };
  return { name: fullName.slice(0, match.index), level: match[1] as Level, weight: Number(match[2]), core: match[3] !== undefined, tagged: true };
}

export function taskIdOf(name: string): number | undefined {
  const match = /^(\d+)\.\s/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * Terminal colour codes, which some transformers write whatever NO_COLOR says. Colour codes only,
 * so not util.stripVTControlCharacters: it drops every escape, and a screen or cursor code in a
 * candidate's message must reach visible.ts, which shows it as text.
 */
export function withoutAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

/**
 * Why a spec file could not be loaded, in one line: for a syntax error in the candidate's code,
 * "SyntaxError at katas/01-regex-dispatch/parse.ts:12:5: Expected `)`", as the transformer says it.
 */
export function loadErrorLine(message: string): string {
  const text = withoutAnsi(message);
  const parse = /\[PARSE_ERROR\]\s*(.+)/.exec(text) ?? /ERROR:\s*(.+)/.exec(text);
  const location = /([\w./@-]+\.[cm]?[jt]sx?):(\d+):(\d+)/.exec(text);
  if (parse || /Transform failed/.test(text)) {
    const where = location ? ` at ${location[1]}:${location[2]}:${location[3]}` : "";
    return `SyntaxError${where}: ${(parse?.[1] ?? summaryLine(text)).trim()}`;
  }
  return summaryLine(text);
}

/** Drops stack frames: they point into the grader's and vitest's files, and say nothing to a candidate. */
export function withoutStack(message: string): string {
  return withoutAnsi(message)
    .split("\n")
    .filter((line) => !/^\s+at\s/.test(line) && !line.startsWith("Hint: Enable verbose mode"))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** `{ input }` when the message names one, `{}` otherwise: a result with no input has no such key. */
export function optionalInput(message: string): Pick<TestResult, "input"> {
  const input = inputOf(message);
  return input === undefined ? {} : { input };
}

export function parsePropertyFailure(message: string): TestResult["property"] | undefined {
  if (!/Property failed after/.test(message)) return undefined;
  const seed = /seed:\s*(-?\d+)/.exec(message)?.[1];
  const path = /path:\s*"([^"]*)"/.exec(message)?.[1];
  const counterexample = /^Counterexample:\s*(.*)$/m.exec(message)?.[1];
  return { seed, path, counterexample };
}

/** The line that says what failed: fast-check's "Got error:" line, or the message's first line. */
function failureLine(message: string): string {
  const gotError = /^Got error:\s*(.*)$/m.exec(message)?.[1];
  return gotError ?? message.split("\n").find((l) => l.trim() !== "") ?? "";
}

/**
 * The input a failed deep equality names (spec/support/setup/first-difference.ts puts it last on
 * the line), to be shown on a line of its own: a summary cut to its length would cut it first.
 */
export function inputOf(message: string): string | undefined {
  const line = failureLine(message);
  const at = line.lastIndexOf(INPUT_MARK);
  return at < 0 ? undefined : line.slice(at + INPUT_MARK.length).trim() || undefined;
}

/** The line a candidate should read first: the check that failed, not fast-check's preamble. */
export function summaryLine(message: string): string {
  const line = failureLine(message);
  const inputAt = line.lastIndexOf(INPUT_MARK);
  const clean = (inputAt < 0 ? line : line.slice(0, inputAt)).replace(/^(Assertion)?Error:\s*/, "").trim();
  if (clean.length <= SUMMARY_CHARS) return clean;
  // A long assertion message before "expected ..." is cut, never the expectation itself.
  const at = clean.search(/\bexpected\b/);
  if (at > 0) {
    const head = clean.slice(0, at);
    const shortHead = head.length > SUMMARY_HEAD_CHARS ? `${head.slice(0, SUMMARY_HEAD_CHARS - 4)}... ` : head;
    const expectation = clean.slice(at);
    const room = SUMMARY_CHARS - shortHead.length;
    return shortHead + (expectation.length > room ? `${expectation.slice(0, room - 3)}...` : expectation);
  }
  return `${clean.slice(0, SUMMARY_CHARS - 3)}...`;
}

/** A failure's one-line summary, at most this long... */
const SUMMARY_CHARS = 200;
/** ... of which the assertion's own words before "expected" take at most this much. */
const SUMMARY_HEAD_CHARS = 70;
