// Kata 3 live: the chosen implementation's runAgent drives a real model. Live mode supplies the
// model function (an OpenAI-compatible HTTP call) and the demo tools; everything else (the
// history, the gates, the masking, the trace) is the implementation's own work, shown as it goes.
import type { Message, Model, ModelReply, Tool, ToolChoice, TraceEvent } from "../../../katas/03-agent-loop/index.ts";
import type { RunContext, RunOutcome } from "./context.ts";
import { LiveError } from "./errors.ts";
import { implementationError, type Kata3Module } from "./load-impl.ts";
import { calculator, listSandbox, readSandboxFile, sendEmail, TOOL_DOCS, weatherLookup } from "./tools.ts";
import { messageLine, oneLine, traceLine } from "./transcript.ts";

export const KATA3_SYSTEM_PROMPT =
  "You are a helpful assistant in a terminal demo. Use the tools when they help; call several at once when they are " +
  "independent. When a tool result has ok: false, read its error and decide what to do. Answer briefly.";

export function kata3Tools(sandbox: string): Tool[] {
  const files = listSandbox(sandbox, 20);
  const text = (description: string) => ({ type: "string" as const, description });
  return [
    {
      name: "get_weather",
      description: TOOL_DOCS.get_weather,
      parameters: {
        type: "object",
        properties: { city: text("the city, e.g. Beijing or 北京"), date: text("today (default), tomorrow or YYYY-MM-DD") },
        required: ["city"],
        additionalProperties: false,
      },
      execute: (args) => weatherLookup(args.city, args.date),
    },
    {
      name: "calculate",
      description: TOOL_DOCS.calculate,
      parameters: { type: "object", properties: { expression: text("the arithmetic expression") }, required: ["expression"], additionalProperties: false },
      execute: (args) => calculator(args.expression),
    },
    {
      name: "read_file",
      description: `${TOOL_DOCS.read_file} Files: ${files.length > 0 ? files.join(", ") : "(none)"}.`,
      parameters: { type: "object", properties: { path: text("a path relative to the sandbox, e.g. notes.txt") }, required: ["path"], additionalProperties: false },
      execute: (args) => readSandboxFile(sandbox, args.path),
    },
    {
      name: "send_email",
      description: TOOL_DOCS.send_email,
      parameters: {
        type: "object",
        properties: { to: text("the recipient's address"), subject: text("the subject line"), body: text("the text of the e-mail") },
        required: ["to", "subject", "body"],
        additionalProperties: false,
      },
      dangerous: true,
      execute: (args) => sendEmail(args.to, args.subject, args.body),
    },
  ];
}

/** `--tool-choice` as the kata's ToolChoice: auto, none, required, or a tool's name. */
export function parseToolChoice(text: string): ToolChoice {
  return text === "auto" || text === "none" || text === "required" ? text : { name: text };
}

/** The kata's ToolChoice in OpenAI's wire format. */
function wireToolChoice(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

export async function runKata3(impl: Kata3Module, label: string, ctx: RunContext): Promise<RunOutcome> {
  const tools = kata3Tools(ctx.sandbox);
  const messages: Message[] = [
    { role: "system", content: KATA3_SYSTEM_PROMPT },
    { role: "user", content: ctx.settings.prompt },
  ];
  // History messages are printed the first time the loop shows them (in the next request, or
  // in the result); the assistant's replies are printed as they arrive from the server.
  for (const m of messages) ctx.out(messageLine(m.role, m.content));
  let printed = messages.length;
  const printHistory = (history: readonly Message[]) => {
    for (const m of history.slice(printed)) {
      if (m.role === "tool") ctx.out(messageLine(`tool ${m.name} · ${m.tool_call_id}${m.is_error ? " · error" : ""}`, m.content));
      else if (m.role !== "assistant") ctx.out(messageLine(m.role, m.content));
    }
    printed = Math.max(printed, history.length);
  };

  const mask = (text: string): string => {
    try {
      return impl.maskSecrets(text);
    } catch {
      return "(hidden: maskSecrets failed)";
    }
  };

  const model: Model = async (request) => {
    printHistory(request.messages);
    let wire: unknown;
    try {
      wire = impl.toOpenAIMessages(request.messages);
    } catch (error) {
      throw implementationError(label, "toOpenAIMessages", error);
    }
    const body: Record<string, unknown> = { messages: wire };
    if (ctx.settings.temperature !== null) body.temperature = ctx.settings.temperature;
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
      body.tool_choice = wireToolChoice(request.toolChoice);
    }
    // Ctrl-C must stop the request even if a loop forgets to pass (or link) its signal.
    const signal = request.signal instanceof AbortSignal ? AbortSignal.any([request.signal, ctx.signal]) : ctx.signal;
    const reply = await ctx.client.complete(body, signal);
    ctx.out(messageLine("assistant", reply.content ?? ""));
    for (const call of reply.toolCalls) {
      ctx.out(`    → call ${call.id ?? "(no id)"} ${oneLine(call.name)} ${oneLine(call.arguments ?? null)}`);
    }
    if (reply.finishReason === "length") ctx.note("note: the server cut this reply off (finish_reason: length)");
    const out: ModelReply = {
      content: reply.content,
      // The arguments go to the loop exactly as the server sent them: string, object or junk.
      tool_calls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments as string | null | undefined })),
    };
    if (reply.usage) out.usage = reply.usage;
    return out;
  };

  let result;
  try {
    result = await impl.runAgent({
      model,
      tools,
      messages,
      maxSteps: ctx.settings.maxSteps,
      toolChoice: parseToolChoice(ctx.settings.toolChoice),
      toolTimeoutMs: 10_000,
      retries: 0,
      runId: ctx.runId,
      signal: ctx.signal,
      approve: (req) => ctx.approve(req.call.name, req.call.arguments, `${mask(req.call.name)} ${mask(JSON.stringify(req.call.arguments))}`),
      onTrace: (event: TraceEvent) => ctx.out(traceLine(event as unknown as Record<string, unknown>, ctx.timings)),
    });
  } catch (error) {
    // The model function's failures (HTTP, replay, the adapter) come through runAgent as they are.
    if (error instanceof LiveError) throw error;
    throw implementationError(label, "runAgent", error);
  }
  if (!result || !Array.isArray(result.messages)) throw new LiveError("implementation", `runAgent in ${label} returned no messages`);
  printHistory(result.messages);
  const usage = result.usage ?? { input_tokens: 0, output_tokens: 0 };
  ctx.out(`== ${result.status} after ${result.steps} step(s) · tokens ${usage.input_tokens} in + ${usage.output_tokens} out`);
  if (result.status === "finished" && result.finalText !== null) ctx.out(messageLine("final", result.finalText));
  return { status: String(result.status), steps: result.steps, usage };
}
