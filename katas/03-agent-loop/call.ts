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
 * TODO: run one call through the gates, in this order, stopping at the first that fails:
 * unknown tool -> toolChoice -> arguments (parse + check) -> policy -> approval (dangerous tools)
 * -> execution with timeout and retries. Never throw: every failure becomes an error envelope.
 * Emit one "tool_call" trace event when the call settles. Add whatever parameters you need.
 */
export async function runCall(call: ToolCall): Promise<CallResult> {
  throw new Error("not implemented");
}
