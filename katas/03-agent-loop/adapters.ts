// Render the provider-neutral history in the OpenAI and Anthropic wire formats.
import type { Message } from "./types.ts";

export type OpenAIMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    }
  | { role: "tool"; tool_call_id: string; content: string };

export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error: boolean };

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

/**
 * TODO: one OpenAI message per message. Assistant with calls: content "" becomes null and each call
 * becomes { id, type: "function", function: { name, arguments } }; without calls: no tool_calls key.
 * Tool: { role: "tool", tool_call_id, content } (no name, no is_error).
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessage[] {
  throw new Error("not implemented");
}

/**
 * TODO: system messages joined with "\n\n" into `system` (key absent when there are none);
 * user -> text block; assistant -> a text block (unless content is "" and there are calls), then
 * one tool_use block per call with `input` = the parsed arguments ({} if they are not a JSON object);
 * tool -> a tool_result block { tool_use_id, content, is_error } in a user turn. Consecutive blocks
 * of the same role merge into one turn.
 */
export function toAnthropicMessages(messages: readonly Message[]): { system?: string; messages: AnthropicMessage[] } {
  throw new Error("not implemented");
}
