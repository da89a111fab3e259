// The least an agent loop can do, as a yardstick for kata 3's loop overhead: ask the model, run
// every call it asked for at once, append the results, repeat. No argument check, no envelope, no
// masking, no truncation, no timeout, no trace, no stop but the step limit: everything the kata
// adds for safety is what the reference costs beyond this.
import type { AgentOptions, Message } from "../../../solutions/03-agent-loop/index.ts";

export async function bareLoop(options: Pick<AgentOptions, "model" | "tools" | "messages" | "maxSteps">): Promise<Message[]> {
  const messages: Message[] = [...options.messages];
  const tools = new Map(options.tools.map((t) => [t.name, t]));
  const definitions = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const signal = new AbortController().signal;
  for (let step = 0; step < (options.maxSteps ?? 10); step++) {
    const reply = await options.model({ messages, tools: definitions, toolChoice: "auto", signal });
    const calls = (reply.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${step}_${i}`,
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    }));
    messages.push({ role: "assistant", content: reply.content ?? "", ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    if (calls.length === 0) break;
    const results = await Promise.all(
      calls.map(async (call) => JSON.stringify(await tools.get(call.name)!.execute(JSON.parse(call.arguments), { signal, callId: call.id, runId: "bare", attempt: 1 }))),
    );
    calls.forEach((call, i) => messages.push({ role: "tool", tool_call_id: call.id, name: call.name, content: results[i], is_error: false }));
  }
  return messages;
}
