// Kata 1 live: for models without native tool calling. The system prompt teaches the text
// protocol (calls written as `name(arg="value")`), and the chosen implementation's
// parseToolCalls / dispatch read every plain-text reply. Live mode only runs the conversation:
// ask, dispatch what the reply wrote, send the results back as a user message, repeat.
import type { CallResult, Registry, ToolDefinition } from "../../../katas/01-regex-dispatch/index.ts";
import type { RunContext, RunOutcome } from "./context.ts";
import { LiveError } from "./errors.ts";
import { implementationError, type Kata1Module } from "./load-impl.ts";
import { listSandbox, readSandboxFile, sendEmail, TOOL_DOCS, weatherLookup } from "./tools.ts";
import { messageLine, oneLine } from "./transcript.ts";

/** The first line of the message that carries the results back; the prompt announces it. */
export const RESULTS_HEADER = "Tool results (in the order of your calls):";
const MAX_RESULT_CHARS = 4_000;

export function kata1SystemPrompt(sandbox: string): string {
  const files = listSandbox(sandbox, 20);
  return [
    "You can use tools, but not through native function calling: you call a tool by writing the call as text.",
    "Write each call on a line of its own, in this form:",
    "",
    '    tool_name(argument_name="a string", other_argument=42)',
    "",
    "Rules:",
    "- Use keyword arguments, double quotes around strings, and nothing else on the line.",
    "- Write every call you need at once, then stop and wait. The next message starts with",
    `  "${RESULTS_HEADER}" and gives what each call returned, or its error.`,
    "- When you have what you need, answer in plain text with no call in it.",
    "- Never write a call in an example or an explanation: every call you write is run.",
    "",
    "Tools:",
    `- get_weather(city, date="today"): ${TOOL_DOCS.get_weather}`,
    `- calculate(expression): ${TOOL_DOCS.calculate} Example: calculate(expression="(17.5 * 4) + 3")`,
    `- read_file(path): ${TOOL_DOCS.read_file} Files: ${files.length > 0 ? files.join(", ") : "(none)"}.`,
    `- send_email(to, subject, body): ${TOOL_DOCS.send_email}`,
  ].join("\n");
}

/** Separates `<think>…</think>` blocks (an unclosed one runs to the end) from the answer. */
export function splitThinking(content: string): { thinking: string; answer: string } {
  const thoughts: string[] = [];
  let answer = "";
  let rest = content;
  for (;;) {
    const open = rest.indexOf("<think>");
    if (open === -1) break;
    const close = rest.indexOf("</think>", open);
    answer += rest.slice(0, open);
    thoughts.push(rest.slice(open + 7, close === -1 ? undefined : close).trim());
    rest = close === -1 ? "" : rest.slice(close + 8);
  }
  answer += rest;
  return thoughts.length === 0 ? { thinking: "", answer: content } : { thinking: thoughts.join("\n"), answer: answer.trim() };
}

class NotApprovedError extends Error {
  override name = "NotApprovedError";
}

/** The call as the model wrote it, for the results message and the trace. */
function callText(reply: string, result: CallResult): string {
  const text = reply.slice(result.span.start, result.span.end).replace(/\s+/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function describeResult(reply: string, result: CallResult): string {
  const call = result.call ? callText(reply, result) : `(unreadable call: ${oneLine(callText(reply, result), 80)})`;
  if (result.ok) {
    let value = oneLine(result.value ?? null, MAX_RESULT_CHARS);
    if (value.length >= MAX_RESULT_CHARS) value += " [truncated]";
    return `${call} returned ${value}`;
  }
  const error = result.error;
  const type = error?.type ? ` ${error.type}` : "";
  return `${call} failed: ${error?.code ?? "error"}${type}: ${error?.message ?? ""}`;
}

export async function runKata1(impl: Kata1Module, label: string, ctx: RunContext): Promise<RunOutcome> {
  // Approval is asked before dispatch (dispatch is synchronous); send_email's `run` then takes
  // the answers in call order.
  const approvals: boolean[] = [];
  const ownTools: ToolDefinition[] = [
    { name: "get_weather", params: [{ name: "city" }, { name: "date", optional: true }], run: (a) => weatherLookup(a.city, a.date) },
    { name: "read_file", params: [{ name: "path" }], run: (a) => readSandboxFile(ctx.sandbox, a.path) },
    {
      name: "send_email",
      params: [{ name: "to" }, { name: "subject" }, { name: "body" }],
      run: (a) => {
        if (approvals.shift() !== true) throw new NotApprovedError("the user did not approve this call: it did not run");
        return sendEmail(a.to, a.subject, a.body);
      },
    },
  ];
  let registry: Registry;
  try {
    // The calculator is the implementation's own (task 5 of kata 1).
    registry = impl.createRegistry([impl.calculateTool, ...ownTools]);
  } catch (error) {
    throw implementationError(label, "createRegistry", error);
  }

  const system = kata1SystemPrompt(ctx.sandbox);
  const messages: Array<{ role: "system" | "user" | "assistant"; content: string }> = [
    { role: "system", content: system },
    { role: "user", content: ctx.settings.prompt },
  ];
  ctx.out(messageLine("system", system));
  ctx.out(messageLine("user", ctx.settings.prompt));
  const usage = { input_tokens: 0, output_tokens: 0 };
  let steps = 0;

  const end = (status: string): RunOutcome => {
    ctx.out(`== ${status} after ${steps} step(s) · tokens ${usage.input_tokens} in + ${usage.output_tokens} out`);
    return { status, steps, usage };
  };

  for (;;) {
    if (ctx.signal.aborted) return end("aborted");
    if (steps >= ctx.settings.maxSteps) return end("max_steps");
    steps++;
    const body: Record<string, unknown> = { messages: messages.map((m) => ({ ...m })) };
    if (ctx.settings.temperature !== null) body.temperature = ctx.settings.temperature;
    let reply;
    try {
      reply = await ctx.client.complete(body, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) return end("aborted");
      throw error;
    }
    usage.input_tokens += reply.usage?.input_tokens ?? 0;
    usage.output_tokens += reply.usage?.output_tokens ?? 0;
    // Reasoning models (qwen3, deepseek-r1 on Ollama) think aloud in <think>…</think>: a call
    // written while thinking is not a call the model decided to make, so only the answer is read.
    const { thinking, answer: text } = splitThinking(reply.content ?? "");
    if (thinking !== "") ctx.out(messageLine("thinking", thinking));
    ctx.out(messageLine("assistant", text));
    ctx.out(`[trace] step ${steps} · usage ${reply.usage?.input_tokens ?? 0} in, ${reply.usage?.output_tokens ?? 0} out`);
    if (reply.toolCalls.length > 0) ctx.note(`note: the reply also carried ${reply.toolCalls.length} native tool call(s); kata 1 mode reads only the text`);

    // Ask about every dangerous call first, in text order (the order dispatch will run them in).
    approvals.length = 0;
    try {
      for (const call of impl.parseToolCalls(text).calls) {
        if (call.name.trim().toLowerCase() !== "send_email") continue;
        const written = text.slice(call.span.start, call.span.end);
        approvals.push(await ctx.approve("send_email", { call: written }, oneLine(written)));
      }
    } catch (error) {
      if (ctx.signal.aborted) return end("aborted");
      if (error instanceof LiveError) throw error; // from the approval (a replay that left the recording)
      throw implementationError(label, "parseToolCalls", error);
    }
    if (ctx.signal.aborted) return end("aborted");

    let dispatched;
    try {
      dispatched = impl.dispatch(text, registry);
    } catch (error) {
      throw implementationError(label, "dispatch", error);
    }
    const results = Array.isArray(dispatched?.results) ? dispatched.results : [];
    for (const result of results) {
      const outcome = result.ok ? "ok" : `${result.error?.code ?? "error"}${result.error?.type ? ` ${result.error.type}` : ""}: ${oneLine(result.error?.message ?? "", 200)}`;
      ctx.out(`[trace] dispatch ${result.call ? callText(text, result) : "(unreadable call)"} → ${outcome}`);
    }
    messages.push({ role: "assistant", content: text });
    // No call and no unreadable call: that was the answer.
    if (results.length === 0) return end("completed");
    const feedback = [RESULTS_HEADER, ...results.map((r, i) => `${i + 1}. ${describeResult(text, r)}`)].join("\n");
    messages.push({ role: "user", content: feedback });
    ctx.out(messageLine("user", feedback));
  }
}
