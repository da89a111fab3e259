// Small helpers shared by kata 1's specs.
import { expect } from "vitest";
import { cpuTimeMs } from "../support/time-limits.ts";
import { parseToolCalls, type ParsedCall, type ToolDefinition, type Value } from "@impl/01-regex-dispatch";

/** What a call means, without where it was: the part most specs compare. */
export const brief = (call: ParsedCall) => ({ name: call.name, args: call.args, kwargs: call.kwargs });

/** The text of a span. */
export const sliceOf = (text: string, span: { start: number; end: number }) => text.slice(span.start, span.end);

/** A tool that records every call it gets. */
export interface SpyTool extends ToolDefinition {
  calls: Record<string, Value>[];
}

export function spyTool(name: string, params: ToolDefinition["params"] = [], result: unknown = `${name}:ok`): SpyTool {
  const calls: Record<string, Value>[] = [];
  return {
    name,
    params,
    calls,
    run(args) {
      calls.push(args);
      return result;
    },
  };
}

/** A parse result (or a dispatch result) for `text`: its lists are lists, its spans lie inside it. */
function expectAnswer(result: unknown, text: string): void {
  const r = result as { calls?: unknown; errors?: unknown; prose?: unknown; results?: unknown; text?: unknown };
  const spans = [...(Array.isArray(r?.calls) ? r.calls : []), ...(Array.isArray(r?.errors) ? r.errors : []), ...(Array.isArray(r?.results) ? r.results : [])]
    .map((item) => (item as { span?: { start?: unknown; end?: unknown } }).span);
  const wellFormed = (Array.isArray(r?.calls) && Array.isArray(r?.errors) && typeof r?.prose === "string") || (Array.isArray(r?.results) && typeof r?.text === "string");
  const inside = spans.every((span) => typeof span?.start === "number" && typeof span?.end === "number" && span.start >= 0 && span.start <= span.end && span.end <= text.length);
  expect(wellFormed && inside, "rule: every input gets a result, its spans inside the text").toBe(true);
}

/** The one call of `text`, which must hold exactly one call and no error. */
export function onlyCall(text: string): ParsedCall {
  const result = parseToolCalls(text);
  expect(result.errors).toEqual([]);
  expect(result.calls).toHaveLength(1);
  return result.calls[0];
}

/** Parameters that accept any of the given keyword names, all optional. */
export const optionalParams = (...names: string[]) => names.map((name) => ({ name, optional: true }));

/**
 * Linear-time check that a quadratic implementation cannot pass and a linear one cannot fail by
 * noise. Sizes grow 4x at a time, 4 KiB up to 1 MiB; at each step the larger input must take
 * less than 12x as long as the smaller one: linear time grows about 4x per step, quadratic time
 * 16x. Time is CPU time (spec/support/time-limits.ts), not wall time: a busy machine makes a run
 * wait for a core, not work more, so load cannot change a ratio of CPU times the way it changes
 * one of wall times (a run that waited counted as a slow one). Each size is run once, and a step
 * that fails is measured again, up to 3 times, since a garbage collection of the many calls a
 * mebibyte holds can still land in any one run; a quadratic step fails every time. (Three runs of
 * every size, best kept, would be most of a grade's test time, for no verdict a re-measured
 * failure does not give.) Growing step by step makes a quadratic parser fail within a second or
 * so instead of hanging on the mebibyte.
 */
export function expectLinear(make: (size: number) => string, run: (text: string) => unknown): void {
  const RATIO = 12;
  // The time of a tiny run is mostly noise: anything faster counts as this.
  const FLOOR_MS = 4;
  // Fast is not enough: what comes back must be an answer (a parse result whose spans lie in the
  // text), or a function that returns nothing at once would pass.
  const time = (text: string): number => {
    let result: unknown;
    const ms = cpuTimeMs(() => (result = run(text)));
    expectAnswer(result, text);
    return Math.max(ms, FLOOR_MS);
  };
  // Each size is timed once and reused as the next step's smaller input; a step measured again
  // times both of its sizes afresh.
  const timed = new Map<number, number>();
  const timeOf = (size: number, fresh: boolean): number => {
    if (fresh || !timed.has(size)) timed.set(size, time(make(size)));
    return timed.get(size)!;
  };
  for (let size = 4 << 10; size < 1 << 20; size *= 4) {
    let ratio: number;
    let message: string;
    let attempts = 0;
    do {
      const tSmall = timeOf(size, attempts > 0);
      const tLarge = timeOf(size * 4, attempts > 0);
      ratio = tLarge / tSmall;
      message = `${size} -> ${size * 4} chars took ${tSmall.toFixed(1)} -> ${tLarge.toFixed(1)} ms`;
      attempts++;
      if (process.env.LINEAR_DEBUG) console.log(message);
    } while (attempts < 3 && ratio >= RATIO);
    expect(ratio, message).toBeLessThan(RATIO);
  }
}
