// Turning a model's reply, whatever shape the provider gave it, into a flat list of tool calls.
import type { ExtractResult } from "./types.ts";

/**
 * TODO (README tasks 1 and 2): extract every tool call from `message`:
 *   - a string: <tool_call> tags, and JSON values found in the prose (code fences included);
 *   - an object: an OpenAI message (`tool_calls`) or tool-call entry (`function`), an Anthropic
 *     message (`content` array) or `tool_use` block, a message whose `content` is text, or a bare
 *     {name, arguments} / {name, parameters} object;
 *   - an array of such objects.
 * Decode each call's arguments (JSON string, object, double-encoded string, ""/null = {}), keep
 * calls with broken arguments (with `argumentsError`, whose message never quotes the raw text),
 * and give calls without an id `call_<i>`.
 * `knownToolNames`, when given, decides whether bare JSON is a call.
 */
export function extractToolCalls(message: unknown, knownToolNames?: readonly string[]): ExtractResult {
  throw new Error("not implemented");
}
