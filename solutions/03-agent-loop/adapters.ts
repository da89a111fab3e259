// The run's history is provider-neutral. These two functions render it in the two wire formats
// an interviewer will ask about. The differences are the point: OpenAI gives each result its own
// `tool` message; Anthropic puts `tool_use` blocks in the assistant turn and answers them with
// `tool_result` blocks inside the next *user* turn, and its turns must alternate.
import { parseArguments } from "./arguments.ts";
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

export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessage[] {
  return messages.map((m): OpenAIMessage => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.content };
      case "assistant": {
        const calls = m.tool_calls ?? [];
        if (calls.length === 0) return { role: "assistant", content: m.content };
        return {
          role: "assistant",
          // OpenAI's own replies carry null, not "", when a turn is only tool calls.
          content: m.content === "" ? null : m.content,
          tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
        };
      }
      case "tool":
        return { role: "tool", tool_call_id: m.tool_call_id, content: m.content };
    }
  });
}

export function toAnthropicMessages(messages: readonly Message[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const append = (role: AnthropicMessage["role"], blocks: AnthropicBlock[]) => {
    const last = out[out.length - 1];
    // Consecutive turns of one role merge: all of a step's tool results form one user turn.
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "user") append("user", [{ type: "text", text: m.content }]);
    else if (m.role === "tool") {
      append("user", [{ type: "tool_result", tool_use_id: m.tool_call_id, content: m.content, is_error: m.is_error }]);
    } else {
      const blocks: AnthropicBlock[] = [];
      const calls = m.tool_calls ?? [];
      if (m.content !== "" || calls.length === 0) blocks.push({ type: "text", text: m.content });
      for (const c of calls) {
        // `input` must be an object: arguments that are not a JSON object render as {}.
        const parsed = parseArguments(c.arguments);
        blocks.push({ type: "tool_use", id: c.id, name: c.name, input: parsed.ok ? parsed.value : {} });
      }
      append("assistant", blocks);
    }
  }
  return system.length > 0 ? { system: system.join("\n\n"), messages: out } : { messages: out };
}
