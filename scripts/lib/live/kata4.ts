// Kata 4 live: the chosen implementation's assembler reads a real streamed reply. Live mode asks
// the server with `stream: true` and hands each chunk of the body to the assembler as it arrives
// (pushBytes, pushText of its text, or push of each event: --feed); what each push releases is
// printed at once: the text as it comes, each call the moment the assembler makes it ready, each
// error as it reports it, and at the end the stream's finish and a summary. When the model asked
// for tools, the ready calls run (the demo tools of kata 3), their results go back, and the next
// reply streams in the same way.
import type { Assembler, AssemblerOptions, StreamError, StreamResult, ToolCall, Update } from "../../../katas/04-stream-assembly/index.ts";
import type { RunContext, RunOutcome } from "./context.ts";
import { LiveError } from "./errors.ts";
import { KATA3_SYSTEM_PROMPT, kata3Tools, parseToolChoice } from "./kata3.ts";
import { implementationError, type Kata4Module } from "./load-impl.ts";
import type { Feed } from "./recording.ts";
import { createSseReader } from "./sse.ts";
import { messageLine, oneLine } from "./transcript.ts";

/** The assembler method each chunk goes to, by feed. */
export const FEED_METHOD: Record<Feed, "pushBytes" | "pushText" | "push"> = { bytes: "pushBytes", text: "pushText", events: "push" };

/**
 * The assistant's text as it streams: `[assistant] ` and the text, written as it comes (with
 * `write`), continuation lines indented as in the other transcripts; any other line first ends it.
 * Without `write`, the text is kept and printed as one line when it ends.
 */
class StreamTranscript {
  private open = false;
  private wrote = false;
  private held = 0;
  private kept = "";
  constructor(
    private readonly out: (line: string) => void,
    private readonly write: ((text: string) => void) | undefined,
  ) {}

  text(text: string): void {
    if (text === "") return;
    if (!this.write) {
      this.kept += text;
      this.open = true;
      return;
    }
    if (!this.open) {
      this.write("[assistant] ");
      this.open = true;
      this.wrote = false;
      this.held = 0;
    }
    // A line end is written when text follows it: the text's last line ends when the text does.
    const parts = text.split(/\r\n|\r|\n/);
    parts.forEach((part, k) => {
      if (k > 0 && this.wrote) this.held++;
      if (part === "") return;
      this.write!("\n    ".repeat(this.held) + part);
      this.held = 0;
      this.wrote = true;
    });
  }

  line(line: string): void {
    this.end();
    this.out(line);
  }

  end(): void {
    if (!this.open) return;
    this.open = false;
    if (this.write) this.write("\n");
    else this.out(messageLine("assistant", this.kept.replace(/[\r\n]+$/, "")));
    this.kept = "";
  }
}

interface Answer {
  index: number;
  id: string;
  name: string;
  call?: ToolCall;
  error?: StreamError;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function usageText(usage: unknown): string {
  if (!isObject(usage)) return "no usage";
  const { prompt_tokens: input, completion_tokens: output } = usage;
  return typeof input === "number" && typeof output === "number" ? `usage ${input} in, ${output} out` : `usage ${oneLine(usage, 200)}`;
}

function errorLine(error: StreamError, where: string): string {
  const e = (isObject(error) ? error : { code: oneLine(error) }) as Partial<StreamError>;
  const call = e.callIndex !== undefined ? ` · call ${oneLine(e.callIndex)} ${oneLine(e.id ?? "(no id)")} ${oneLine(e.name ?? "(no name)")}` : "";
  const raw = e.raw !== undefined ? ` · raw ${oneLine(e.raw, 200)}` : "";
  return `[error] ${oneLine(e.code)}${call} · ${oneLine(e.message ?? "", 200)}${raw} · ${where}`;
}

export async function runKata4(impl: Kata4Module, label: string, ctx: RunContext): Promise<RunOutcome> {
  const feed: Feed = ctx.settings.feed ?? "bytes";
  const method = FEED_METHOD[feed];
  const options: AssemblerOptions = { dialect: "chat-completions", ...(ctx.settings.toolCallTags ? { toolCallTags: true } : {}) };
  const tools = kata3Tools(ctx.sandbox);

  /** Calls the implementation; what it throws names the function (and, unfinished, says so). */
  const call = <T>(fn: string, run: () => T): T => {
    try {
      return run();
    } catch (error) {
      const explained = implementationError(label, fn, error);
      if (/not implemented/i.test((error as Error)?.message ?? "") && (fn === "pushBytes" || fn === "pushText")) {
        explained.message += ` (Raw streams are task 5: --feed events has live mode frame the stream and push each parsed event.)`;
      }
      throw explained;
    }
  };
  const createAssembler = (): Assembler => {
    const assembler = call("createAssembler", () => impl.createAssembler(options));
    if (!isObject(assembler)) throw new LiveError("implementation", `createAssembler in ${label} returned no assembler`);
    return assembler;
  };
  // Before anything is sent: an unfinished assembler says so now, not halfway through a reply.
  const probe = createAssembler();
  if (feed === "bytes") call("pushBytes", () => probe.pushBytes(new Uint8Array(0)));
  else if (feed === "text") call("pushText", () => probe.pushText(""));

  const transcript = new StreamTranscript(ctx.out, ctx.write);
  const messages: Array<Record<string, unknown>> = [
    { role: "system", content: KATA3_SYSTEM_PROMPT },
    { role: "user", content: ctx.settings.prompt },
  ];
  ctx.out(messageLine("system", KATA3_SYSTEM_PROMPT));
  ctx.out(messageLine("user", ctx.settings.prompt));
  const usage = { input_tokens: 0, output_tokens: 0 };
  let steps = 0;
  const end = (status: string): RunOutcome => {
    transcript.end();
    ctx.out(`== ${status} after ${steps} step(s) · tokens ${usage.input_tokens} in + ${usage.output_tokens} out`);
    return { status, steps, usage };
  };

  for (;;) {
    if (ctx.signal.aborted) return end("aborted");
    if (steps >= ctx.settings.maxSteps) return end("max_steps");
    steps++;
    const assembler = createAssembler();
    const body: Record<string, unknown> = {
      messages: messages.map((m) => ({ ...m })),
      tools: tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } })),
      tool_choice: wireToolChoice(ctx.settings.toolChoice),
    };
    if (ctx.settings.temperature !== null) body.temperature = ctx.settings.temperature;
    ctx.out(`[stream] step ${steps} · each ${feed === "events" ? "event" : "chunk"} → ${method}`);

    // What the updates released, put together: the result must hold the same (README, the public API).
    const released = { text: "", calls: 0, errors: 0 };
    const show = (fn: string, update: Update, where: string) => {
      if (!isObject(update)) throw new LiveError("implementation", `${fn} in ${label} returned ${oneLine(update, 80)}, not an update ({ text, ready, errors })`);
      const { text, ready, errors } = update;
      if (typeof text === "string") {
        released.text += text;
        transcript.text(text);
      }
      for (const c of Array.isArray(ready) ? (ready as ToolCall[]) : []) {
        released.calls++;
        transcript.line(`[ready] ${oneLine(c?.id ?? "(no id)")} ${oneLine(c?.name ?? "(no name)")} ${oneLine(c?.arguments ?? null)} · ${where}`);
      }
      for (const e of Array.isArray(errors) ? (errors as StreamError[]) : []) {
        released.errors++;
        transcript.line(errorLine(e, where));
      }
    };

    let chunks = 0;
    let head = "";
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const sse = createSseReader();
    const sink = {
      chunk(bytes: Uint8Array) {
        chunks++;
        const where = `chunk ${chunks}`;
        if (head.length < 64) head += new TextDecoder().decode(bytes.subarray(0, 64));
        if (feed === "bytes") show("pushBytes", call("pushBytes", () => assembler.pushBytes(bytes)), where);
        else if (feed === "text") {
          const text = decoder.decode(bytes, { stream: true });
          if (text !== "") show("pushText", call("pushText", () => assembler.pushText(text)), where);
        } else {
          for (const event of sse.push(bytes)) show("push", call("push", () => assembler.push(event)), where);
        }
      },
    };
    /** The connection closed: what is pending, then end(), then the outcome. */
    const finish = (): StreamResult => {
      const where = "at the end";
      if (feed === "text") {
        const text = decoder.decode();
        if (text !== "") show("pushText", call("pushText", () => assembler.pushText(text)), where);
      } else if (feed === "events") {
        for (const event of sse.end()) show("push", call("push", () => assembler.push(event)), where);
      }
      show("end", call("end", () => assembler.end()), where);
      const result = call("result", () => assembler.result());
      if (!isObject(result)) throw new LiveError("implementation", `result in ${label} returned ${oneLine(result, 80)}, not a result`);
      const r = result as StreamResult;
      const calls = Array.isArray(r.calls) ? r.calls : [];
      const errors = Array.isArray(r.errors) ? r.errors : [];
      transcript.line(
        `[stream] ${oneLine(r.status)} · finish ${r.finishReason === null || r.finishReason === undefined ? "none" : oneLine(r.finishReason)} · ` +
          `${calls.length} ready · ${errors.length} error(s) · ${r.toolTurn ? "tool turn" : "no tool turn"} · ${usageText(r.usage)} · ${chunks} chunk(s)`,
      );
      const differs = [
        r.text !== released.text && "its text",
        calls.length !== released.calls && `${calls.length} call(s) (the updates made ${released.calls} ready)`,
        errors.length !== released.errors && `${errors.length} error(s) (the updates reported ${released.errors})`,
      ].filter(Boolean);
      if (differs.length > 0) ctx.out(`[check] result() differs from what the updates released: ${differs.join(", ")}`);
      if (isObject(r.usage)) {
        const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
        usage.input_tokens += n(r.usage.prompt_tokens);
        usage.output_tokens += n(r.usage.completion_tokens);
      }
      if (r.status === "cut" && calls.length === 0 && r.text === "" && head.trimStart().startsWith("{")) {
        ctx.note("note: the server answered with one JSON document, not a stream of server-sent events: does it support stream: true?");
      }
      return r;
    };

    let result: StreamResult;
    try {
      const { dropped } = await ctx.client.stream(body, ctx.signal, sink);
      if (dropped !== undefined) transcript.line(`[stream] cut short: ${dropped}`);
      result = finish();
    } catch (error) {
      // Ctrl-C in the middle of a reply: the assembler still says what the cut leaves.
      if (ctx.signal.aborted && !(error instanceof LiveError && error.kind === "implementation")) {
        if (chunks > 0) finish();
        return end("aborted");
      }
      throw error;
    }

    if (result.status !== "complete") return end(String(result.status));
    if (!result.toolTurn) return end("completed");

    // Every call that started and can be answered gets a tool message: its result, or its error.
    const answers: Answer[] = [];
    for (const c of Array.isArray(result.calls) ? result.calls : []) {
      if (isObject(c) && typeof c.id === "string" && typeof c.name === "string" && c.name !== "") answers.push({ index: Number(c.index), id: c.id, name: c.name, call: c });
    }
    for (const e of Array.isArray(result.errors) ? result.errors : []) {
      if (isObject(e) && e.callIndex !== undefined && typeof e.id === "string" && typeof e.name === "string" && e.name !== "") {
        answers.push({ index: Number(e.callIndex), id: e.id, name: e.name, error: e });
      }
    }
    answers.sort((a, b) => a.index - b.index);
    if (answers.length === 0) return end("completed");
    messages.push({
      role: "assistant",
      content: typeof result.text === "string" && result.text !== "" ? result.text : null,
      tool_calls: answers.map((a) => ({
        id: a.id,
        type: "function",
        // A call in error goes back with empty arguments: servers that parse the history refuse broken JSON.
        function: { name: a.name, arguments: a.call && typeof a.call.rawArguments === "string" && a.call.rawArguments.trim() !== "" ? a.call.rawArguments : "{}" },
      })),
    });
    for (const a of answers) {
      const { content, isError } = await runTool(a);
      if (ctx.signal.aborted) return end("aborted");
      messages.push({ role: "tool", tool_call_id: a.id, content });
      ctx.out(messageLine(`tool ${a.name} · ${a.id}${isError ? " · error" : ""}`, content));
    }
  }

  async function runTool(a: Answer): Promise<{ content: string; isError: boolean }> {
    const fail = (code: string, message: string) => ({ content: JSON.stringify({ ok: false, error: { code, message } }), isError: true });
    if (a.error) return fail(String(a.error.code), String(a.error.message ?? ""));
    const tool = tools.find((t) => t.name === a.name);
    if (!tool) return fail("unknown_tool", `no tool named ${JSON.stringify(a.name)}; the tools are ${tools.map((t) => t.name).join(", ")}`);
    const args = isObject(a.call?.arguments) ? a.call.arguments : {};
    if (tool.dangerous && !(await ctx.approve(a.name, args, `${a.name} ${JSON.stringify(args)}`))) {
      return fail("not_approved", "the user did not approve this call: it did not run");
    }
    try {
      const data = await tool.execute(args, {} as never);
      return { content: JSON.stringify({ ok: true, data }), isError: false };
    } catch (error) {
      return fail("tool_error", error instanceof Error ? error.message : String(error));
    }
  }
}

/** `--tool-choice` in OpenAI's wire format. */
function wireToolChoice(text: string): unknown {
  const choice = parseToolChoice(text);
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}
