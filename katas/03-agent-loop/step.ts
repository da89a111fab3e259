// One step: run a reply's calls concurrently (at most `concurrency` at a time) and hand the
// results back in the calls' order. (Not part of the public API: a suggested place.)
import type { CallResult } from "./call.ts";
import type { ToolCall } from "./types.ts";

/**
 * TODO: start up to `concurrency` calls at once, start the next one as soon as one settles, and
 * return the results in the order of `calls`, whatever order they finished in. Add whatever
 * parameters you need (the run's state, for runCall).
 */
export async function runStep(calls: ToolCall[], concurrency: number): Promise<CallResult[]> {
  throw new Error("not implemented");
}
