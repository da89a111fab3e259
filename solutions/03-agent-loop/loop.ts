// The agent loop: ask the model, run the tools it asked for, feed the results back, repeat,
// until the model answers in plain text or one of the stop conditions fires. Every stop is a
// status in the result, never an exception: a caller must always learn why the run ended.
import { ABORTED, raceAbort } from "./abort.ts";
import { canonicalJson } from "./canonical.ts";
import { errorEnvelope } from "./envelope.ts";
import { parseArguments } from "./arguments.ts";
import { maskSecrets } from "./redact.ts";
import type { CallEnv, CallResult } from "./call.ts";
import { systemClock } from "./clock.ts";
import { checkOptions } from "./options.ts";
import { runStep } from "./step.ts";
import type { AgentOptions, Message, ModelReply, RunResult, RunStatus, ToolCall, TraceEvent, Usage } from "./types.ts";

/** Sent as a user message when toolChoice demands a call and the reply has none. */
export const TOOL_CHOICE_REMINDER = "tool_choice requires a tool call: answer by calling a tool.";

/** `base`, or `base_2`, `base_3`, ...: the first that no call of the run has used yet. */
function freshId(base: string, seenIds: Set<string>): string {
  if (!seenIds.has(base)) return base;
  for (let n = 2; ; n++) if (!seenIds.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** Reply -> calls with unique ids and arguments as JSON text, as the history stores them. */
function normalizeCalls(reply: ModelReply, step: number, seenIds: Set<string>): ToolCall[] {
  const raw = Array.isArray(reply.tool_calls) ? reply.tool_calls : [];
  return raw.map((c, index) => {
    // Two calls with one id would make their results ambiguous: a missing, empty or already used
    // id is replaced, and so is a generated one that the model happened to use before.
    const given = typeof c.id === "string" && c.id !== "" && !seenIds.has(c.id) ? c.id : undefined;
    const id = given ?? freshId(`call_${step}_${index}`, seenIds);
    seenIds.add(id);
    const args = c.arguments;
    const text = typeof args === "string" ? args : args == null ? "{}" : JSON.stringify(args);
    return { id, name: String(c.name ?? ""), arguments: text };
  });
}

/** Arguments as one comparable text: canonical JSON when they parse, the raw text otherwise. */
function canonicalArguments(text: string): string {
  const parsed = parseArguments(text);
  return parsed.ok ? canonicalJson(parsed.value) : text;
}

function tokens(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}

export async function runAgent(options: AgentOptions): Promise<RunResult> {
  // A limit that means nothing is the caller's bug: say so before anything happens.
  checkOptions(options);
  const maxSteps = options.maxSteps ?? 10;
  const maxRepeatedCalls = options.maxRepeatedCalls ?? 3;
  const tokenBudget = options.tokenBudget ?? Infinity;
  const toolChoice = options.toolChoice ?? "auto";
  const clock = options.clock ?? systemClock;
  const runId = options.runId ?? `run_${globalThis.crypto.randomUUID()}`;

  // One internal signal, linked to the caller's, that tools, timeouts and backoff all listen to.
  const controller = new AbortController();
  const signal = controller.signal;
  const forwardAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forwardAbort();
  else options.signal?.addEventListener("abort", forwardAbort, { once: true });

  const trace: TraceEvent[] = [];
  const emit = (event: TraceEvent) => {
    trace.push(event);
    try {
      options.onTrace?.(event);
    } catch {
      // Observing a run must never change it: a throwing onTrace is ignored.
    }
  };
  const messages: Message[] = [...options.messages];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const history: CallEnv["history"] = [];
  const tools = new Map(options.tools.map((t) => [t.name, t]));
  const definitions = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  // Ids already in the caller's history count as used: the model must never see one id twice.
  const seenIds = new Set<string>();
  for (const m of options.messages) {
    if (m.role === "assistant") for (const c of m.tool_calls ?? []) seenIds.add(c.id);
    if (m.role === "tool") seenIds.add(m.tool_call_id);
  }
  let steps = 0;
  let lastCallKey: string | undefined;
  let streak = 0;

  const end = (status: RunStatus, finalText: string | null = null): RunResult => {
    options.signal?.removeEventListener("abort", forwardAbort);
    emit({ type: "run_end", runId, at: clock.now(), status, steps });
    const total = usage.input_tokens + usage.output_tokens;
    return { runId, status, finalText, messages, steps, usage: { ...usage, total_tokens: total }, trace };
  };

  emit({ type: "run_start", runId, at: clock.now() });
  for (;;) {
    // Every stop is checked before asking again, so the last reply's calls always got their answers.
    if (signal.aborted) return end("aborted");
    if (steps >= maxSteps) return end("max_steps");
    if (usage.input_tokens + usage.output_tokens >= tokenBudget) return end("budget_exhausted");

    steps++;
    let reply: ModelReply | typeof ABORTED;
    try {
      reply = await raceAbort(options.model({ messages: [...messages], tools: definitions, toolChoice, signal }), signal);
    } catch (error) {
      // A model that gives up because we aborted it is an abort, not a failure.
      if (signal.aborted) return end("aborted");
      throw error;
    }
    if (reply === ABORTED) return end("aborted");

    const replyUsage = { input_tokens: tokens(reply.usage?.input_tokens), output_tokens: tokens(reply.usage?.output_tokens) };
    usage.input_tokens += replyUsage.input_tokens;
    usage.output_tokens += replyUsage.output_tokens;
    const content = typeof reply.content === "string" ? reply.content : "";
    const calls = normalizeCalls(reply, steps, seenIds);
    emit({ type: "step", runId, at: clock.now(), step: steps, toolCalls: calls.length, usage: replyUsage });

    if (calls.length === 0) {
      messages.push({ role: "assistant", content });
      const callRequired = toolChoice === "required" || typeof toolChoice === "object";
      if (!callRequired) return end("completed", content);
      messages.push({ role: "user", content: TOOL_CHOICE_REMINDER });
      continue;
    }
    // One assistant message carries all of the reply's calls; the tool messages follow it.
    messages.push({ role: "assistant", content, tool_calls: calls });

    // The same call (name + canonical arguments) N times in a row across the run: a stuck model.
    let repeated = false;
    for (const call of calls) {
      const key = `${call.name}\u0000${canonicalArguments(call.arguments)}`;
      streak = key === lastCallKey ? streak + 1 : 1;
      lastCallKey = key;
      if (streak >= maxRepeatedCalls) repeated = true;
    }

    let results: CallResult[];
    if (repeated) {
      // The calls are not run, but each still gets its answer: no call id is left without one.
      const message = `the same call was repeated ${maxRepeatedCalls} times in a row`;
      const envelope = errorEnvelope("repeated_call", message, Infinity);
      results = calls.map((call) => ({ call, envelope }));
      for (const call of calls) {
        emit({
          type: "tool_call",
          runId,
          at: clock.now(),
          step: steps,
          callId: call.id,
          name: maskSecrets(call.name),
          arguments: maskSecrets(canonicalArguments(call.arguments)),
          validation: "not_checked",
          outcome: "repeated_call",
          error: message,
          retries: 0,
          durationMs: 0,
        });
      }
    } else {
      const env: CallEnv = {
        runId,
        step: steps,
        tools,
        toolChoice,
        timeoutMs: options.toolTimeoutMs ?? 30_000,
        retries: options.retries ?? 2,
        backoffBaseMs: options.backoffBaseMs ?? 100,
        maxResultChars: options.maxResultChars ?? 4_000,
        clock,
        signal,
        history: [...history],
        approve: options.approve,
        policy: options.policy,
        emit,
      };
      results = await runStep(calls, env, options.concurrency ?? 4);
    }
    for (const { call, envelope, executed } of results) {
      messages.push({ role: "tool", tool_call_id: call.id, name: call.name, content: JSON.stringify(envelope), is_error: !envelope.ok });
      if (executed) history.push(executed);
    }
    if (repeated) return end("repeated_call");
    if (signal.aborted) return end("aborted");
    const finished = results.find((r) => r.finish !== undefined);
    if (finished) return end("finished", finished.finish ?? "");
  }
}
