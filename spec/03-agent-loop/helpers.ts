// Small helpers shared by kata 3's specs: run with a fake clock, abort at a fake time, read tool
// messages back.
// Every run gets inputs of its own (a fresh copy of the opening messages, a fresh clock): a flaw
// such as pushing onto the caller's array then fails the test about it, not every test after it.
import { expect, vi } from "vitest";
import { runAgent, type AgentOptions, type Envelope, type Message, type RunResult, type TraceEvent } from "@impl/03-agent-loop";
import { FakeClock, reply, scriptedModel, tools } from "../support/agent-harness/index.ts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The opening messages, frozen: compare with it, never pass it to runAgent (use freshUser()). */
export const USER: readonly Message[] = deepFreeze([
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "北京今天天气怎么样？" },
]);

/** A fresh deep copy of USER, for one run. */
export const freshUser = (): Message[] => structuredClone(USER) as Message[];

/** runAgent with a fresh auto-advancing fake clock and a fresh copy of USER, unless given. */
export function run(options: Partial<AgentOptions> & Pick<AgentOptions, "model">): Promise<RunResult> & { clock: FakeClock } {
  const clock = (options.clock as FakeClock | undefined) ?? new FakeClock();
  const promise = runAgent({ tools: [], messages: freshUser(), clock, ...options });
  return Object.assign(promise, { clock });
}

export type ToolMessage = Extract<Message, { role: "tool" }>;
export type AssistantMessage = Extract<Message, { role: "assistant" }>;

export const toolMessages = (r: { messages: Message[] }) => r.messages.filter((m): m is ToolMessage => m.role === "tool");
export const assistantMessages = (r: { messages: Message[] }) =>
  r.messages.filter((m): m is AssistantMessage => m.role === "assistant");

export const envelope = (m: ToolMessage): Envelope => JSON.parse(m.content) as Envelope;

export function errorCode(m: ToolMessage): string | undefined {
  const e = envelope(m);
  return e.ok ? undefined : e.error.code;
}

export const toolEvents = (r: RunResult) => r.trace.filter((e) => e.type === "tool_call");

/** A controller whose abort fires at fake time `at` (the fake clock runs its timers in time order). */
export function abortAt(clock: FakeClock, at: number): AbortController {
  const controller = new AbortController();
  void clock.sleep(at).then(() => controller.abort());
  return controller;
}

export type ToolEvent = Extract<TraceEvent, { type: "tool_call" }>;

/**
 * Runs with `options` and checks the documented refusal: a RangeError naming `option`, and
 * nothing happened first (no model request, no trace event).
 */
export async function expectRefused(option: string, options: Partial<AgentOptions>, label: string): Promise<void> {
  const model = scriptedModel([reply.text("never")]);
  const onTrace = vi.fn();
  let thrown: unknown;
  try {
    await run({ model, onTrace, tools: [tools.ok("t")], ...options });
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `${label}: runAgent rejects on an option out of its range`).toBeInstanceOf(RangeError);
  expect(String((thrown as Error).message), `${label}: the RangeError's message names the option`).toContain(option);
  expect(model.requests.length, `${label}: the model is not asked before the options are checked`).toBe(0);
  expect(onTrace.mock.calls.length, `${label}: no trace event before the options are checked`).toBe(0);
}
