// The last call a test made into the graded code, for a failure to show the input it gave: a
// failed deep equality on what parseToolCalls returned says which text it was given. The sandbox's
// bridge notes every call (spec/support/sandbox/client.ts), and the first-difference setup reads
// the note of the failing test. A note lives in one slot of the global object, so that the
// bridge's own copy of this module (bundled apart, loaded once per process) and the specs' copies
// (loaded afresh for every spec file) share it.
import { describeValue } from "./first-difference.ts";

const SLOT = Symbol.for("tool-use-katas.last-call");

/** What a failure's message says the input with, last on its first line; the grader reads it back. */
export const INPUT_MARK = " · input: ";

interface Note {
  test: string | undefined;
  name: string;
  /** As the call was given them: written out only when a test fails. */
  args: readonly unknown[];
}

const store = globalThis as unknown as { [SLOT]?: Note };

/** A call of the kata's `name` with `args`, during the test named `test`. */
export function noteCall(test: string | undefined, name: string, args: readonly unknown[]): void {
  store[SLOT] = { test, name, args };
}

/** No call to show: a batch of calls (one property's runs) has no single input. */
export function forgetCall(): void {
  store[SLOT] = undefined;
}

/** `parseToolCalls("get_weather(city=\"北京\")")`: the last call of the test named `test`, if it made one. */
export function lastCall(test: string | undefined): string | undefined {
  const note = store[SLOT];
  if (!note || test === undefined || note.test !== test) return undefined;
  return `${note.name}(${note.args.map((arg) => describeValue(arg, INPUT_CHARS)).join(", ")})`;
}

/** An argument longer than this, written out, is described instead ("a string of 5000 characters"). */
const INPUT_CHARS = 300;
