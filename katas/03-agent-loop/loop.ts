// The agent loop: ask the model, run the tools it asked for, feed the results back, repeat.
import type { AgentOptions, RunResult } from "./types.ts";

/**
 * TODO: the loop (the README's tasks 1-10 are its contract). In outline:
 *   first: options out of their ranges -> reject with a RangeError naming the option
 *   before each request: aborted? -> "aborted"; steps >= maxSteps? -> "max_steps";
 *     tokens used >= tokenBudget? -> "budget_exhausted"
 *   ask the model with { messages, tools (definitions only), toolChoice, signal }; add its usage
 *   no tool calls -> "completed" with its text (under toolChoice "required" / {name}: remind and go on)
 *   append ONE assistant message with all the calls, run them (concurrently, in a pool),
 *   append one tool message per call IN CALL ORDER, then check repeated calls, abort and $finish.
 * Every wait goes through options.clock. Every stop is a status, never an exception.
 * An onTrace that throws is ignored.
 */
export async function runAgent(options: AgentOptions): Promise<RunResult> {
  throw new Error("not implemented");
}
