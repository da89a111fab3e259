// One tool call, from the model's request to the envelope the model will read.
// (Not part of the public API: a suggested place for this piece of the loop.)
import type { Envelope, ToolCall } from "./types.ts";

export interface CallResult {
  call: ToolCall;
  envelope: Envelope;
  /** The answer, when the tool returned the completion signal { $finish: "<answer>" }. */
  finish?: string;
}

/**
 * TODO: if the run is already aborted, the call gets "aborted" and no gate runs. Otherwise run it
 * through the gates, in this order, stopping at the first that fails:
 * unknown tool -> toolChoice -> arguments (parse + check) -> policy -> approval (dangerous tools)
 * -> execution with timeout and retries. Policy and approval are asked once per call, and their
 * answers are raced against the run's abort. Never throw: every failure becomes an error envelope.
 * Emit one "tool_call" trace event when the call settles. Add whatever parameters you need (the
 * run's state: tools, options, clock, signal, trace).
 */
export async function runCall(call: ToolCall): Promise<CallResult> {
  throw new Error("not implemented");
}
