// Tasks 10-11: the trace that explains a run, and the two providers' renderings of its history.
import { describe, expect } from "vitest";
import { canonicalJson, toAnthropicMessages, toOpenAIMessages, type Message, type TraceEvent } from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../support/graded.ts";
import { FakeClock, reply, scriptedModel, tools } from "../support/agent-harness/index.ts";
import { envelope, run, toolEvents, toolMessages } from "./helpers.ts";

type ToolEvent = Extract<TraceEvent, { type: "tool_call" }>;

describe("10. Trace: events for every step and tool call, with the run id", () => {
  l1("a run's trace: run_start, a step per reply, a tool_call per call, run_end; all with the run id", async () => {
    const model = scriptedModel([reply.calls(["a", {}], ["b", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("a"), tools.ok("b")], runId: "run-7" });
    expect(r.trace.map((e) => e.type), "run_start, a step per reply, a tool_call per call, run_end").toEqual(["run_start", "step", "tool_call", "tool_call", "step", "run_end"]);
    for (const e of r.trace) expect(e.runId, "every event carries the run id").toBe("run-7");
    const end = r.trace.at(-1);
    expect(end?.type === "run_end" && [end.status, end.steps], "run_end says the status and the steps").toEqual(["completed", 2]);
  });

  l1("onTrace receives every event as it happens, the same as result.trace", async () => {
    const seen: TraceEvent[] = [];
    const model = scriptedModel([reply.calls(["a", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("a")], onTrace: (e) => seen.push(e) });
    expect(seen, "onTrace gets the same events as result.trace, in order").toEqual(r.trace);
    expect(seen.length, "five events for one call and a plain answer").toBe(5);
  });

  l2("a tool_call event says name, canonical arguments, validation, outcome, retries and duration", async () => {
    const clock = new FakeClock();
    const model = scriptedModel([
      reply.calls(["slow", { b: 2, a: 1 }, "c1"], ["get_weather", { city: 3 }, "c2"], ["nope", { x: 1 }, "c3"]),
      reply.text("ok"),
    ]);
    const r = await run({
      model,
      clock,
      tools: [
        tools.slow("slow", clock, 250, "done"),
        tools.ok("get_weather", "x", { parameters: { type: "object", properties: { city: { type: "string" } } } }),
      ],
    });
    const byId = Object.fromEntries(toolEvents(r).map((e) => [(e as ToolEvent).callId, e as ToolEvent]));
    expect(byId.c1, "a successful call's event: canonical arguments, validation ok, retries, duration").toMatchObject({ step: 1, name: "slow", arguments: '{"a":1,"b":2}', validation: "ok", outcome: "ok", retries: 0, durationMs: 250 });
    expect(byId.c2, "a schema failure's event: validation failed, outcome invalid_arguments").toMatchObject({ name: "get_weather", validation: "failed", outcome: "invalid_arguments", retries: 0 });
    expect(typeof byId.c2.error, "a failed call's event carries its error message").toBe("string");
    expect(byId.c3, "an unknown tool's event: validation not_checked").toMatchObject({ name: "nope", validation: "not_checked", outcome: "unknown_tool" });
  });

  l2("a step event says how many calls the reply had and its usage", async () => {
    const model = scriptedModel([reply.withUsage(reply.calls(["a", {}], ["a", { x: 1 }]), 10, 5), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("a")] });
    const steps = r.trace.filter((e) => e.type === "step");
    expect(steps.map((e) => e.type === "step" && [e.step, e.toolCalls, e.usage]), "a step event per reply: its number, call count and usage (zeros if none)").toEqual([
      [1, 2, { input_tokens: 10, output_tokens: 5 }],
      [2, 0, { input_tokens: 0, output_tokens: 0 }],
    ]);
  });

  l3("the trace answers 'why did this run fail': the failing calls and the stop status are in it", async () => {
    const clock = new FakeClock();
    const model = scriptedModel(Array.from({ length: 5 }, (_, i) => reply.calls(["search", { q: i }])));
    const r = await run({ model, clock, tools: [tools.transient("search")], maxSteps: 2, retries: 1, backoffBaseMs: 10 });
    expect(r.status, "two steps of unavailable calls: max_steps").toBe("max_steps");
    const events = toolEvents(r) as ToolEvent[];
    expect(events.map((e) => [e.outcome, e.retries]), "each failing call's outcome and retries are in the trace").toEqual([
      ["unavailable", 1],
      ["unavailable", 1],
    ]);
    const end = r.trace.at(-1);
    expect(end?.type === "run_end" && end.status, "run_end names the stop status").toBe("max_steps");
  });

  l2("canonicalJson sorts keys at every depth, keeps array order, and writes no spaces", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }, "x"], "é": null }), "canonicalJson sorts keys at every depth, keeps array order, no spaces").toBe('{"a":[{"c":3,"d":2},"x"],"b":1,"é":null}');
    expect(canonicalJson({ b: 1, a: 2 }), "key order does not change canonicalJson").toBe(canonicalJson({ a: 2, b: 1 }));
    expect(canonicalJson([3, 1, 2]), "array order is kept").toBe("[3,1,2]");
    expect(canonicalJson(undefined), "canonicalJson(undefined) is null").toBe("null");
    expect(canonicalJson("北京"), "a string is its JSON text").toBe('"北京"');
  });

  l3("event times come from the injected clock", async () => {
    const clock = new FakeClock({ start: 1_000 });
    const model = scriptedModel([reply.calls(["slow", {}]), reply.text("ok")]);
    const r = await run({ model, clock, tools: [tools.slow("slow", clock, 40)] });
    expect(r.trace.map((e) => e.at), "event times are clock.now() when emitted").toEqual([1000, 1000, 1040, 1040, 1040]);
  });

  l2("durationMs is the clock time the call took, whatever the clock's starting time", async () => {
    const clock = new FakeClock({ start: 1_000 });
    const model = scriptedModel([reply.calls(["slow", {}]), reply.text("ok")]);
    const r = await run({ model, clock, tools: [tools.slow("slow", clock, 100)] });
    const [event] = toolEvents(r) as Array<{ durationMs: number; at: number }>;
    expect(event.durationMs, "durationMs is clock time the call took").toBe(100);
    expect(event.at, "the event's at is clock.now() when emitted").toBe(1_100);
  });

  l2("an onTrace that throws changes nothing: the run goes on, every event is in the trace and reached onTrace", async () => {
    let calls = 0;
    const onTrace = () => {
      calls++;
      throw new Error("observer down");
    };
    const t = tools.ok("t", 1);
    const r = await run({ model: scriptedModel([reply.calls(["t", {}]), reply.text("ok")]), tools: [t], onTrace });
    expect(r.status, "the run completes as if onTrace had not thrown").toBe("completed");
    expect(t.executions, "the tool still ran").toBe(1);
    expect(r.trace.map((e) => e.type), "every event is in result.trace").toEqual(["run_start", "step", "tool_call", "step", "run_end"]);
    expect(calls, "onTrace got every event, not only the first").toBe(5);
  });

  l2("a tool_call event's error is the envelope's message: the same masked and cut text", async () => {
    const model = scriptedModel([reply.calls(["boom", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.throws("boom", () => new Error("z".repeat(80)))], maxResultChars: 20 });
    const e = envelope(toolMessages(r)[0]);
    const [event] = toolEvents(r) as ToolEvent[];
    expect(e.ok ? undefined : e.error.message, "the message is cut to maxResultChars").toContain("…[truncated ");
    expect(event.error, "the trace's error is the envelope's message").toBe(e.ok ? undefined : e.error.message);
  });

  l2("durationMs of a call that waited for a slot starts when a slot takes it", async () => {
    const clock = new FakeClock();
    const model = scriptedModel([reply.calls(["s", { i: 0 }], ["s", { i: 1 }], ["s", { i: 2 }]), reply.text("ok")]);
    const r = await run({ model, clock, concurrency: 1, tools: [tools.slow("s", clock, 100)] });
    expect((toolEvents(r) as ToolEvent[]).map((e) => e.durationMs), "each call took 100 ms once it had a slot").toEqual([100, 100, 100]);
    expect(clock.now(), "the three calls ran one after another").toBe(300);
  });

  l2("canonicalJson: undefined becomes null as an object member (the key is kept) and as an array item", () => {
    expect(canonicalJson({ b: undefined, a: 1 }), "an undefined member keeps its key, with null").toBe('{"a":1,"b":null}');
    expect(canonicalJson([1, undefined]), "an undefined array item is null").toBe("[1,null]");
    expect(canonicalJson({ z: { y: undefined } }), "at any depth").toBe('{"z":{"y":null}}');
  });
});

/** A fresh history for each test: an adapter that changes its input cannot spoil another test. */
const history = (): Message[] => [
  { role: "system", content: "be brief" },
  { role: "user", content: "天气？" },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      { id: "c1", name: "get_weather", arguments: '{"city":"北京"}' },
      { id: "c2", name: "get_weather", arguments: "not json" },
    ],
  },
  { role: "tool", tool_call_id: "c1", name: "get_weather", content: '{"ok":true,"data":"晴"}', is_error: false },
  { role: "tool", tool_call_id: "c2", name: "get_weather", content: '{"ok":false,"error":{"code":"invalid_arguments","message":"x"}}', is_error: true },
  { role: "assistant", content: "北京晴" },
];

describe("11. Adapters: the history in OpenAI and Anthropic formats", () => {
  l1("OpenAI: assistant tool_calls with type function and arguments as a string; one tool message per result", () => {
    expect(toOpenAIMessages(history()), "OpenAI: the documented mapping, message by message").toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "天气？" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"北京"}' } },
          { id: "c2", type: "function", function: { name: "get_weather", arguments: "not json" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: '{"ok":true,"data":"晴"}' },
      { role: "tool", tool_call_id: "c2", content: '{"ok":false,"error":{"code":"invalid_arguments","message":"x"}}' },
      { role: "assistant", content: "北京晴" },
    ]);
  });

  l1("Anthropic: system apart, tool_use blocks in the assistant turn, tool_result blocks with is_error in one user turn", () => {
    expect(toAnthropicMessages(history()), "Anthropic: system apart, tool_use in the assistant turn, tool_results in one user turn").toEqual({
      system: "be brief",
      messages: [
        { role: "user", content: [{ type: "text", text: "天气？" }] },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "c1", name: "get_weather", input: { city: "北京" } },
            { type: "tool_use", id: "c2", name: "get_weather", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: '{"ok":true,"data":"晴"}', is_error: false },
            { type: "tool_result", tool_use_id: "c2", content: '{"ok":false,"error":{"code":"invalid_arguments","message":"x"}}', is_error: true },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "北京晴" }] },
      ],
    });
  });

  l2("Anthropic: an assistant's text comes before its tool_use blocks; a user message after tool results joins their turn", () => {
    const msgs: Message[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: "let me check", tool_calls: [{ id: "t1", name: "f", arguments: "{}" }] },
      { role: "tool", tool_call_id: "t1", name: "f", content: "{}", is_error: false },
      { role: "user", content: "also this" },
    ];
    const out = toAnthropicMessages(msgs);
    expect(out.system, "no system key without system messages").toBeUndefined();
    expect(out.messages, "text before tool_use; a user message after tool results joins their turn").toEqual([
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [{ type: "text", text: "let me check" }, { type: "tool_use", id: "t1", name: "f", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "{}", is_error: false }, { type: "text", text: "also this" }] },
    ]);
  });

  l2("the adapters render a real run: every tool_use / tool_call id is answered in the following turn", async () => {
    const model = scriptedModel([reply.calls(["a", {}, "x1"], ["nope", {}, "x2"]), reply.calls(["a", { k: 1 }, "x3"]), reply.text("done")]);
    const r = await run({ model, tools: [tools.ok("a")] });
    const anthropic = toAnthropicMessages(r.messages).messages;
    expect(anthropic.map((m) => m.role), "Anthropic turns alternate user / assistant").toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    const uses = anthropic[1].content.filter((b) => b.type === "tool_use").map((b) => (b as { id: string }).id);
    const results = anthropic[2].content.map((b) => (b.type === "tool_result" ? [b.tool_use_id, b.is_error] : null));
    expect(uses, "the tool_use ids of the first reply").toEqual(["x1", "x2"]);
    expect(results, "each tool_result answers its tool_use in the next user turn, with is_error").toEqual([
      ["x1", false],
      ["x2", true],
    ]);
    const openai = toOpenAIMessages(r.messages);
    expect(openai.filter((m) => m.role === "tool").map((m) => (m as { tool_call_id: string }).tool_call_id), "OpenAI: one tool message per call id, in order").toEqual(["x1", "x2", "x3"]);
  });

  l3("several system messages are joined with a blank line; the history is not modified", () => {
    const msgs: Message[] = [
      { role: "system", content: "a" },
      { role: "system", content: "b" },
      { role: "user", content: "u" },
    ];
    const copy = structuredClone(msgs);
    expect(toAnthropicMessages(msgs).system, "system messages are joined with a blank line").toBe("a\n\nb");
    toOpenAIMessages(msgs);
    expect(msgs, "the adapters never modify their input").toEqual(copy);
  });

  const call = { id: "c1", name: "f", arguments: '{"a":1}' };
  l2("OpenAI: an assistant's non-empty content is kept next to its tool_calls", () => {
    const messages: Message[] = [{ role: "assistant", content: "checking", tool_calls: [call] }];
    const [m] = toOpenAIMessages(messages) as Array<{ content: unknown }>;
    expect(m.content, "OpenAI: non-empty content is kept next to tool_calls").toBe("checking");
  });

  l2("Anthropic: an assistant message with empty content and no calls is still one text block", () => {
    const messages: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "" },
    ];
    expect(toAnthropicMessages(messages).messages, "Anthropic: an assistant message with empty content and no calls is one text block").toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "" }] },
    ]);
  });

  l2("Anthropic: a system message in the middle joins system; an empty tool_calls is no calls", () => {
    const messages: Message[] = [
      { role: "system", content: "first" },
      { role: "user", content: "q" },
      { role: "system", content: "later" },
      { role: "assistant", content: "", tool_calls: [] },
    ];
    const out = toAnthropicMessages(messages);
    expect(out.system, "system messages wherever they stand, joined with a blank line").toBe("first\n\nlater");
    expect(out.messages, "an empty tool_calls renders as a plain (empty) text block").toEqual([
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [{ type: "text", text: "" }] },
    ]);
  });
});
