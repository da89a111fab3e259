// Small helpers shared by kata 4's specs: reading a run's updates, checking a generated stream's
// run against what it must give, and the linear-time check. The streams themselves (events of each
// dialect, raw streams, the README's rules as oracles) are in streams.ts, re-exported here.
import { expect } from "vitest";
import { cpuTimeMs } from "../support/time-limits.ts";
import { StreamUsageError, type ErrorCode, type Replay, type StreamError, type ToolCall, type Update } from "@impl/04-stream-assembly";
import type { Reading, Stream } from "./streams.ts";

export * from "./streams.ts";

// ---------------------------------------------------------------------------------------------
// Reading results

/** Each ready call with the step it became ready in (`steps.length` means end()). */
export function readyLog(run: Replay): { at: number; call: ToolCall }[] {
  return [...run.steps, run.end].flatMap((update, at) => update.ready.map((call) => ({ at, call })));
}

/** The concatenated text of every update of a run. */
export const releasedText = (run: Replay) => [...run.steps, run.end].map((u) => u.text).join("");

/** The errors of every update, in order. */
export const releasedErrors = (run: Replay) => [...run.steps, run.end].flatMap((u) => u.errors);

export const codes = (errors: readonly StreamError[]) => errors.map((e) => e.code);

/** What a call error says about its call (the part the specs compare). */
export const aboutCall = (e: StreamError) => ({ code: e.code, callIndex: e.callIndex, id: e.id, name: e.name });

/** A ready call without its raw text. */
export const brief = (c: ToolCall) => ({ id: c.id, name: c.name, arguments: c.arguments });

export const emptyUpdate = (u: Update) => u.text === "" && u.ready.length === 0 && u.errors.length === 0;

/** The calls a stream must make ready, in the order they must become ready. */
export function expectedCalls(s: Stream): ToolCall[] {
  return s.outcomes.filter((o) => o.reading.ok).sort((a, b) => a.at - b.at || a.index - b.index).map((o) => {
    const reading = o.reading as Extract<Reading, { ok: true }>;
    const call: ToolCall = { index: o.index, id: o.id, name: o.name, arguments: reading.value, rawArguments: reading.raw };
    if (o.thoughtSignature !== undefined) call.thoughtSignature = o.thoughtSignature;
    return call;
  });
}

/**
 * The run gave exactly what the stream must: its text, each call ready (or its one error) in the
 * step of the event that ends it, nothing else. `stepOf` maps an event to the step that delivers it
 * (the event itself for parsed events; the chunk that completes it for raw ones).
 */
export function expectStream(run: Replay, s: Stream, stepOf: (event: number) => number = (k) => k): void {
  const { result } = run;
  const ordered = [...s.outcomes].sort((a, b) => a.at - b.at || a.index - b.index);
  expect(result.text, "the text").toBe(s.text);
  expect(releasedText(run), "the text the updates released").toBe(s.text);
  expect(result.calls, "the ready calls").toEqual(expectedCalls(s));
  expect(readyLog(run).map(({ at, call }) => [call.index, at]), "the step in which each call became ready")
    .toEqual(ordered.filter((o) => o.reading.ok).map((o) => [o.index, stepOf(o.at)]));
  const errorAt = [...run.steps, run.end].flatMap((u, at) => u.errors.map((e) => ({ ...aboutCall(e), raw: e.raw, at })));
  expect(errorAt, "the errors, each in the step of its call's end").toEqual(ordered.filter((o) => !o.reading.ok).map((o) => ({
    code: (o.reading as { code: ErrorCode }).code, callIndex: o.index, id: o.id, name: o.name, raw: o.reading.raw, at: stepOf(o.at),
  })));
  expect(result.status, "the status").toBe("complete");
  expect(result.finishReason, "the finish reason").toBe(s.finishReason);
  expect(result.toolTurn, "toolTurn").toBe(s.outcomes.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Messages (free text, never empty)

/** Each run raised its code, and every error it raised carries a message that is not empty. */
export function expectErrorsWithMessages(runs: readonly [label: string, code: ErrorCode, run: Replay][]): void {
  for (const [label, code, run] of runs) {
    expect(codes(run.result.errors), label).toContain(code);
    for (const error of run.result.errors) expect([error.code, typeof error.message, error.message.length > 0], label).toEqual([error.code, "string", true]);
  }
}

/** Each misuse throws a StreamUsageError whose message is not empty. */
export function expectUsageErrorsWithMessages(misuses: readonly [label: string, misuse: () => unknown][]): void {
  for (const [label, misuse] of misuses) {
    let thrown: unknown;
    try {
      misuse();
    } catch (error) {
      thrown = error;
    }
    expect(thrown, label).toBeInstanceOf(StreamUsageError);
    expect(typeof (thrown as Error).message === "string" && (thrown as Error).message.length > 0, label).toBe(true);
  }
}

// ---------------------------------------------------------------------------------------------
// Linear time

/**
 * Linear-time check that a quadratic implementation cannot pass and a linear one cannot fail by
 * noise: sizes grow 8x at a time, 16 KiB, 128 KiB, 1 MiB, and each step must take less than 24x
 * the time of the step before (linear grows about 8x, quadratic 64x). Steps of 8x rather than
 * kata 1's 4x because an assembly that parses its whole buffer again per fragment still has a
 * large linear part at small sizes (it grew 9x and 11x per 4x step, measured): at 8x it is far
 * out of reach of a linear one at the first step, so it fails within a second instead of reaching
 * the mebibyte. Time is CPU time (spec/support/time-limits.ts); a step that fails is measured
 * again, up to 3 times. `make` builds the input of a size (not timed); `run` does one whole
 * operation on it (one `replay`), so the cost of a call into the kata is paid once per size.
 */
export function expectLinear<T>(label: string, make: (size: number) => T, run: (input: T) => unknown): void {
  const RATIO = 24;
  // The time of a tiny run is mostly noise: anything faster counts as this.
  const FLOOR_MS = 4;
  const time = (size: number) => {
    const input = make(size);
    return Math.max(cpuTimeMs(() => run(input)), FLOOR_MS);
  };
  const timed = new Map<number, number>();
  const timeOf = (size: number, fresh: boolean) => {
    if (fresh || !timed.has(size)) timed.set(size, time(size));
    return timed.get(size)!;
  };
  for (let size = 16 << 10; size < 1 << 20; size *= 8) {
    let ratio: number;
    let message: string;
    let attempts = 0;
    do {
      const small = timeOf(size, attempts > 0);
      const large = timeOf(size * 8, attempts > 0);
      ratio = large / small;
      message = `${label}: ${size >> 10} KiB -> ${(size * 8) >> 10} KiB took ${small.toFixed(1)} -> ${large.toFixed(1)} ms`;
      attempts++;
      if (process.env.LINEAR_DEBUG) console.log(message);
    } while (attempts < 3 && ratio >= RATIO);
    expect(ratio, message).toBeLessThan(RATIO);
  }
}

