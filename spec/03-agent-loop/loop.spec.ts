// Tasks 1-4: the loop itself, the shape of the history, concurrency, and every way a run stops.
import fc from "fast-check";
import { describe, expect, vi } from "vitest";
import type { AgentOptions, Message, ModelReply } from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../support/graded.ts";
import { idle } from "../support/realm.ts";
import { FakeClock, reply, scriptedModel, spyTool, tools, type CallSpec } from "../support/agent-harness/index.ts";
import { USER, abortAt, assistantMessages, envelope, errorCode, expectRefused, freshUser, run, toolEvents, toolMessages, type ToolEvent } from "./helpers.ts";

const weather = () => tools.ok("get_weather", { city: "北京", temp_c: 21 });

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
  l1("a reply without tool calls ends the run with status completed and its text", async () => {
    const model = scriptedModel([reply.text("你好！")]);
    const r = await run({ model });
    expect(r.status, "a reply without calls ends the run: status completed").toBe("completed");
    expect(r.finalText, "finalText is the plain reply's content").toBe("你好！");
    expect(r.steps, "steps counts the requests made: one").toBe(1);
    expect(r.messages, "messages: the caller's, then the assistant's answer").toEqual([...USER, { role: "assistant", content: "你好！" }]);
  }, { core: true });

  l1("a tool call is run, its result fed back, and the next reply ends the run", async () => {
    const tool = weather();
    const model = scriptedModel([reply.calls(["get_weather", { city: "北京" }]), reply.text("北京 21°C")]);
    const r = await run({ model, tools: [tool] });
    expect(r.status, "after the tool's result the plain reply completes the run").toBe("completed");
    expect(r.finalText, "finalText is the last reply's content").toBe("北京 21°C");
    expect(r.steps, "steps: two requests").toBe(2);
    expect(tool.calls, "the tool gets the call's arguments as an object").toEqual([{ city: "北京" }]);
    // The second request shows the model its call and the result.
    const seen = model.requests[1].messages;
    expect(seen.map((m) => m.role), "the second request shows the call and its tool message").toEqual(["system", "user", "assistant", "tool"]);
    expect(envelope(toolMessages(r)[0]), "the tool message holds the ok envelope with the result").toEqual({ ok: true, data: { city: "北京", temp_c: 21 } });
  }, { core: true });

  l1("usage is summed over every reply; total_tokens is input + output", async () => {
    const model = scriptedModel([
      reply.withUsage(reply.calls(["get_weather", { city: "上海" }]), 100, 20),
      reply.withUsage(reply.text("ok"), 150, 30),
    ]);
    const r = await run({ model, tools: [weather()] });
    expect(r.usage, "usage sums every reply; total_tokens = input + output").toEqual({ input_tokens: 250, output_tokens: 50, total_tokens: 300 });
  });

  l1("the model gets the tool definitions (no execute) and the toolChoice on every request", async () => {
    const tool = weather();
    tool.parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const model = scriptedModel([reply.calls(["get_weather", { city: "x" }]), reply.text("ok")]);
    await run({ model, tools: [tool] });
    expect(model.requests, "two requests were made").toHaveLength(2);
    for (const req of model.requests) {
      expect(req.tools, "the model sees definitions only: name, description, parameters").toEqual([{ name: "get_weather", description: tool.description, parameters: tool.parameters }]);
      expect(req.toolChoice, "toolChoice defaults to \"auto\", on every request").toBe("auto");
    }
  });

  l2("the caller's messages array is never mutated and the result starts with it", async () => {
    const initial = freshUser();
    const model = scriptedModel([reply.calls(["get_weather", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [weather()], messages: initial });
    expect(initial, "the caller's messages array is never mutated").toEqual(USER);
    expect(r.messages.slice(0, 2), "the result's messages start with the caller's").toEqual(USER);
    expect(r.messages.length, "result messages: 2 of the caller's, assistant, tool, assistant").toBe(5);
  });

  l2("arguments given as an object or as a JSON string both reach the tool as an object", async () => {
    const tool = tools.echo("echo");
    const model = scriptedModel([reply.calls(["echo", { a: 1 }], ["echo", '{"b": [2]}']), reply.text("ok")]);
    await run({ model, tools: [tool] });
    expect(tool.calls, "object and JSON-text arguments both reach the tool as objects").toEqual([{ a: 1 }, { b: [2] }]);
  });

  l2("empty, null and missing arguments mean {}", async () => {
    const tool = tools.echo("echo");
    const model = scriptedModel([
      { content: "", tool_calls: [{ id: "a", name: "echo", arguments: "" }, { id: "b", name: "echo", arguments: null }, { id: "c", name: "echo" }] },
      reply.text("ok"),
    ]);
    await run({ model, tools: [tool], maxRepeatedCalls: 10 });
    expect(tool.calls, "\"\", null and missing arguments all mean {}").toEqual([{}, {}, {}]);
  });

  l2("the runId option is used; without it every run gets a distinct one", async () => {
    const a = await run({ model: scriptedModel([reply.text("a")]), runId: "run-42" });
    expect(a.runId, "the runId option is used as given").toBe("run-42");
    const b = await run({ model: scriptedModel([reply.text("b")]) });
    const c = await run({ model: scriptedModel([reply.text("c")]) });
    expect(typeof b.runId, "a generated runId is a string").toBe("string");
    expect(b.runId.length, "a generated runId is not empty").toBeGreaterThan(0);
    expect(b.runId, "two runs without runId get distinct ids").not.toBe(c.runId);
  });

  l2("content that is not a string becomes \"\": in the history and as the final text", async () => {
    const model = scriptedModel([
      { content: null, tool_calls: [{ id: "c1", name: "f", arguments: {} }] },
      { content: undefined } as ModelReply,
    ]);
    const r = await run({ model, tools: [tools.ok("f", 1)] });
    expect(r.status, "a plain reply with undefined content completes").toBe("completed");
    expect(r.finalText, "content that is not a string becomes \"\" as the final text").toBe("");
    const assistants = assistantMessages(r);
    expect(assistants.map((m) => m.content), "non-string content becomes \"\" in the history").toEqual(["", ""]);
    expect(r.messages.at(-1), "the final assistant message has content \"\"").toEqual({ role: "assistant", content: "" });
  });

  l2("a call's arguments null or missing become \"{}\" in the history", async () => {
    const model = scriptedModel([
      { content: "", tool_calls: [{ id: "a", name: "f", arguments: null }, { id: "b", name: "f" }] },
      reply.text("ok"),
    ]);
    const f = tools.ok("f", 1);
    const r = await run({ model, tools: [f] });
    expect(assistantMessages(r)[0].tool_calls?.map((c) => c.arguments), "null or missing arguments become \"{}\" in the history").toEqual(["{}", "{}"]);
    expect(f.calls, "the tool gets {} for null or missing arguments").toEqual([{}, {}]);
  });

  l2("usage: negative and non-numeric token counts count as 0", async () => {
    const model = scriptedModel([
      { ...reply.calls(["f", {}]), usage: { input_tokens: -5, output_tokens: "7" as unknown as number } },
      reply.withUsage(reply.text("ok"), 10, 5),
    ]);
    const r = await run({ model, tools: [tools.ok("f", 1)] });
    expect(r.usage, "negative and non-numeric token counts count as 0").toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    expect(r.trace.filter((e) => e.type === "step").map((e) => (e as { usage: unknown }).usage), "the step events' usage counts them as 0 too").toEqual([
      { input_tokens: 0, output_tokens: 0 },
      { input_tokens: 10, output_tokens: 5 },
    ]);
  });

  l2("a model that throws makes runAgent reject with that very error", async () => {
    const boom = new Error("model backend down");
    const model = scriptedModel([
      reply.calls(["f", {}]),
      () => {
        throw boom;
      },
    ]);
    await expect(run({ model, tools: [tools.ok("f", 1)] }), "a model that throws: runAgent rejects with that very error").rejects.toBe(boom);
  });

  l2("maxSteps must be an integer >= 1: otherwise a RangeError naming it, before anything happens", async () => {
    for (const maxSteps of [0, -1, 2.5, Number.NaN, Infinity, "3" as unknown as number]) {
      await expectRefused("maxSteps", { maxSteps }, `maxSteps ${String(maxSteps)}`);
    }
    const r = await run({ model: scriptedModel([reply.calls(["t", {}]), reply.text("no")]), tools: [tools.ok("t")], maxSteps: 1 });
    expect(r.status, "maxSteps 1 is valid: one request, then max_steps").toBe("max_steps");
  });

  l2("maxRepeatedCalls must be an integer >= 2 or Infinity; Infinity never stops a run for repeats", async () => {
    for (const maxRepeatedCalls of [1, 0, -3, 2.5, Number.NaN]) {
      await expectRefused("maxRepeatedCalls", { maxRepeatedCalls }, `maxRepeatedCalls ${String(maxRepeatedCalls)}`);
    }
    const t = tools.ok("same", 1);
    const model = scriptedModel([...Array.from({ length: 6 }, () => reply.calls(["same", { k: 1 }])), reply.text("enough")]);
    const r = await run({ model, tools: [t], maxRepeatedCalls: Infinity });
    expect(r.status, "maxRepeatedCalls Infinity: six identical calls do not stop the run").toBe("completed");
    expect(t.executions, "maxRepeatedCalls Infinity: every identical call runs").toBe(6);
  });

  l2("tokenBudget must be a number >= 0 or Infinity; 0 ends the run before the first request", async () => {
    for (const tokenBudget of [-1, Number.NaN, "100" as unknown as number]) {
      await expectRefused("tokenBudget", { tokenBudget }, `tokenBudget ${String(tokenBudget)}`);
    }
    const model = scriptedModel([reply.text("never")]);
    const r = await run({ model, tokenBudget: 0 });
    expect(r.status, "tokenBudget 0: 0 tokens used >= 0, budget_exhausted").toBe("budget_exhausted");
    expect(r.steps, "tokenBudget 0: the model is never asked").toBe(0);
    expect(model.requests.length, "tokenBudget 0: no request").toBe(0);
  });

  l2("concurrency must be an integer >= 1 or Infinity; Infinity runs every call of a step at once", async () => {
    for (const concurrency of [0, -2, 1.5, Number.NaN]) {
      await expectRefused("concurrency", { concurrency }, `concurrency ${String(concurrency)}`);
    }
    const clock = new FakeClock();
    const work = tools.slow("work", clock, 100);
    const model = scriptedModel([reply.calls(...Array.from({ length: 9 }, (_, i) => ["work", { i }] as [string, object])), reply.text("ok")]);
    await run({ model, tools: [work], clock, concurrency: Infinity });
    expect(work.maxInFlight, "concurrency Infinity: no cap, all nine calls in flight together").toBe(9);
    expect(clock.now(), "concurrency Infinity: nine 100 ms calls end at 100 ms").toBe(100);
  });

  l2("timeouts, retries, backoff and the result budget out of their ranges: a RangeError naming the option", async () => {
    const cases: Array<[string, Partial<AgentOptions>]> = [
      ["toolTimeoutMs", { toolTimeoutMs: 0 }],
      ["toolTimeoutMs", { toolTimeoutMs: -5 }],
      ["toolTimeoutMs", { toolTimeoutMs: Number.NaN }],
      ["toolTimeoutMs", { toolTimeoutMs: Infinity }],
      ["toolTimeoutMs", { toolTimeoutMs: 2 ** 31 }],
      ["retries", { retries: -1 }],
      ["retries", { retries: 0.5 }],
      ["backoffBaseMs", { backoffBaseMs: -1 }],
      ["backoffBaseMs", { backoffBaseMs: Infinity }],
      ["maxResultChars", { maxResultChars: -1 }],
      ["maxResultChars", { maxResultChars: 2.5 }],
      ["timeoutMs", { tools: [tools.ok("t", 1, { timeoutMs: 0 })] }],
      ["retries", { tools: [tools.ok("t", 1, { retries: -2 })] }],
    ];
    for (const [option, options] of cases) await expectRefused(option, options, `${option} in ${JSON.stringify(options, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v))}`);
    const r = await run({
      model: scriptedModel([reply.calls(["t", {}]), reply.text("ok")]),
      tools: [tools.ok("t", "x".repeat(5), { timeoutMs: 2 ** 31 - 1, retries: 0 })],
      retries: 0,
      backoffBaseMs: 0,
      maxResultChars: 0,
    });
    expect(r.status, "the edge values 2 ** 31 - 1, retries 0, backoffBaseMs 0 and maxResultChars 0 are valid").toBe("completed");
    expect(envelope(toolMessages(r)[0]), "maxResultChars 0 cuts every character").toEqual({ ok: true, data: "…[truncated 5 chars]" });
  });

  l2("two tools with one name, or a toolChoice that is none of the four forms: a RangeError naming the option", async () => {
    await expectRefused("tools", { tools: [tools.ok("twin", 1), tools.ok("twin", 2)] }, "two tools named twin");
    for (const toolChoice of ["any", "AUTO", { name: 42 }, null]) {
      await expectRefused("toolChoice", { toolChoice: toolChoice as AgentOptions["toolChoice"] }, `toolChoice ${JSON.stringify(toolChoice)}`);
    }
    // The second request aborts the run, so this check needs no other stop to work.
    const controller = new AbortController();
    const model = scriptedModel([reply.calls(["t", {}]), () => (controller.abort(), new Promise(() => {}))]);
    const r = await run({ model, tools: [tools.ok("t")], toolChoice: { name: "not_a_tool" }, signal: controller.signal });
    expect(toolMessages(r).map(errorCode), "toolChoice { name } may name a tool that does not exist; other calls get tool_choice").toEqual(["tool_choice"]);
  });

  l2("usage counts that are not finite (NaN, Infinity) count as 0", async () => {
    const model = scriptedModel([
      { ...reply.calls(["t", {}]), usage: { input_tokens: Infinity, output_tokens: Number.NaN } },
      reply.withUsage(reply.text("ok"), 3, 4),
    ]);
    const r = await run({ model, tools: [tools.ok("t")], tokenBudget: 1000 });
    expect(r.status, "an Infinity usage must not exhaust the budget").toBe("completed");
    expect(r.usage, "Infinity and NaN count as 0").toEqual({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });
});

describe("2. History: one assistant message with all its calls, then one tool message per call", () => {
  l1("one assistant message carries every call of the reply, then one tool message per call", async () => {
    const model = scriptedModel([
      reply.calls(["get_weather", { city: "北京" }, "c1"], ["get_weather", { city: "上海" }, "c2"], ["get_time", {}, "c3"]),
      reply.text("done"),
    ]);
    const r = await run({ model, tools: [weather(), tools.ok("get_time", "12:00")] });
    const added = r.messages.slice(2);
    expect(added.map((m) => m.role), "one assistant message with all calls, then one tool message per call").toEqual(["assistant", "tool", "tool", "tool", "assistant"]);
    const asst = assistantMessages(r)[0];
    expect(asst.tool_calls?.map((c) => c.id), "the assistant message carries every call's id, in order").toEqual(["c1", "c2", "c3"]);
    expect(toolMessages(r).map((m) => [m.tool_call_id, m.name]), "one tool message per call, in call order, with its name").toEqual([
      ["c1", "get_weather"],
      ["c2", "get_weather"],
      ["c3", "get_time"],
    ]);
  }, { core: true });

  l1("in the history a call's arguments are JSON text", async () => {
    const model = scriptedModel([reply.calls(["get_weather", { city: "北京" }, "c1"], ["get_weather", '{"city":"上海"}', "c2"]), reply.text("ok")]);
    const r = await run({ model, tools: [weather()] });
    const calls = assistantMessages(r)[0].tool_calls ?? [];
    expect(calls.map((c) => typeof c.arguments), "in the history a call's arguments are JSON text").toEqual(["string", "string"]);
    expect(JSON.parse(calls[0].arguments), "object arguments become their JSON text").toEqual({ city: "北京" });
    expect(calls[1].arguments, "string arguments are kept verbatim").toBe('{"city":"上海"}');
  });

  l2("tool messages follow the calls' order even when the calls finish in the reverse order", async () => {
    const clock = new FakeClock();
    const t = [300, 200, 100].map((ms, i) => tools.slow(`t${i}`, clock, ms, { i }));
    const model = scriptedModel([reply.calls(["t0", {}, "a"], ["t1", {}, "b"], ["t2", {}, "c"]), reply.text("ok")]);
    const r = await run({ model, tools: t, clock });
    expect(toolMessages(r).map((m) => m.tool_call_id), "tool messages follow the calls' order, not the finish order").toEqual(["a", "b", "c"]);
    expect(toolMessages(r).map((m) => envelope(m)), "each tool message holds its own call's result").toEqual([0, 1, 2].map((i) => ({ ok: true, data: { i } })));
  });

  l2("every tool message has is_error: false on success and true on failure", async () => {
    const model = scriptedModel([reply.calls(["get_weather", {}, "a"], ["nope", {}, "b"]), reply.text("ok")]);
    const r = await run({ model, tools: [weather()] });
    expect(toolMessages(r).map((m) => m.is_error), "is_error is false on success, true on failure").toEqual([false, true]);
  });

  l2("a call without an id gets a generated one, unique in the run, used by its tool message", async () => {
    const model = scriptedModel([
      { content: "", tool_calls: [{ name: "get_weather", arguments: {} }, { name: "get_weather", arguments: { city: "x" } }] },
      { content: "", tool_calls: [{ id: "dup", name: "get_weather", arguments: {} }, { id: "dup", name: "get_weather", arguments: { city: "y" } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [weather()] });
    const ids = assistantMessages(r).flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    expect(ids, "four calls, four ids").toHaveLength(4);
    expect(new Set(ids).size, "ids are unique in a run (missing and duplicate ids are replaced)").toBe(4);
    for (const id of ids) expect(typeof id === "string" && id.length > 0, "every call gets a non-empty string id").toBe(true);
    expect(toolMessages(r).map((m) => m.tool_call_id), "tool messages answer the calls' ids, in order").toEqual(ids);
  });

  l2("the assistant's text next to its calls is kept", async () => {
    const model = scriptedModel([{ ...reply.calls(["get_weather", {}]), content: "让我查一下。" }, reply.text("ok")]);
    const r = await run({ model, tools: [weather()] });
    expect(assistantMessages(r)[0].content, "the assistant's text next to its calls is kept").toBe("让我查一下。");
    expect(assistantMessages(r)[0].tool_calls, "the calls stay on the same assistant message").toHaveLength(1);
  });

  l2("a call whose id is empty gets call_<step>_<index>", async () => {
    const model = scriptedModel([
      { content: "", tool_calls: [{ id: "keep", name: "f", arguments: {} }, { id: "", name: "f", arguments: { n: 2 } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [tools.ok("f", 1)] });
    expect(assistantMessages(r)[0].tool_calls?.map((c) => c.id), "an empty id gets call_<step>_<index>").toEqual(["keep", "call_1_1"]);
    expect(toolMessages(r).map((m) => m.tool_call_id), "the tool message answers the generated id").toEqual(["keep", "call_1_1"]);
  });

  l2("a tool returning undefined or null: an ok envelope with data null, and the run goes on", async () => {
    const model = scriptedModel([reply.calls(["u", {}], ["n", {}]), reply.text("done")]);
    const r = await run({ model, tools: [spyTool("u", () => undefined), spyTool("n", () => null)] });
    expect(r.status, "undefined and null results do not stop the run").toBe("completed");
    expect(toolMessages(r).map(envelope), "undefined and null results: data null").toEqual([
      { ok: true, data: null },
      { ok: true, data: null },
    ]);
    expect(toolMessages(r).map((m) => m.is_error), "an ok envelope is not an error").toEqual([false, false]);
  });

  l2("a generated id never equals an id the model sent earlier in the reply", async () => {
    const model = scriptedModel([
      { content: "", tool_calls: [{ id: "call_1_1", name: "t", arguments: { n: 0 } }, { name: "t", arguments: { n: 1 } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [tools.ok("t")] });
    const ids = assistantMessages(r)[0].tool_calls?.map((c) => c.id) ?? [];
    expect(ids[0], "a fresh id the model sent is kept").toBe("call_1_1");
    expect(new Set(ids).size, "ids are unique in a run, even when call_<step>_<index> was taken by the model").toBe(2);
    expect(toolMessages(r).map((m) => m.tool_call_id), "each tool message answers its own call's id").toEqual(ids);
  });

  l2("a generated id never equals an id the model sent in an earlier step", async () => {
    const model = scriptedModel([
      reply.calls(["t", { n: 0 }, "call_2_0"]),
      { content: "", tool_calls: [{ name: "t", arguments: { n: 1 } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [tools.ok("t")] });
    const ids = assistantMessages(r).flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    expect(ids[0], "the model's id is kept").toBe("call_2_0");
    expect(ids[1], "step 2's generated id must not repeat call_2_0").not.toBe("call_2_0");
    expect(typeof ids[1] === "string" && ids[1].length > 0, "the generated id is a non-empty string").toBe(true);
  });

  l2("ids in the caller's messages count as used: a call repeating one gets a new id", async () => {
    const earlier: Message[] = [
      ...freshUser(),
      { role: "assistant", content: "", tool_calls: [{ id: "c_prev", name: "t", arguments: "{}" }] },
      { role: "tool", tool_call_id: "c_prev", name: "t", content: '{"ok":true,"data":1}', is_error: false },
      { role: "user", content: "again" },
    ];
    const model = scriptedModel([reply.calls(["t", {}, "c_prev"]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("t")], messages: earlier });
    const id = assistantMessages(r)[1].tool_calls?.[0].id;
    expect(id, "an id already in the caller's history is replaced").not.toBe("c_prev");
    expect(toolMessages(r).slice(1).map((m) => m.tool_call_id), "the new tool message answers the new id").toEqual([id]);
  });

  // Each place the README names counts on its own: a history may hold a call not answered yet, or
  // a tool message whose assistant message the caller left out (a trimmed context).
  l2("an id only in an assistant message's tool_calls of the caller's messages counts as used", async () => {
    const earlier: Message[] = [...freshUser(), { role: "assistant", content: "", tool_calls: [{ id: "c_asked", name: "t", arguments: "{}" }] }];
    const model = scriptedModel([reply.calls(["t", {}, "c_asked"]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("t")], messages: earlier });
    const id = assistantMessages(r)[1].tool_calls?.[0].id;
    expect(id, "an id called in the caller's history is replaced").not.toBe("c_asked");
    expect(toolMessages(r).map((m) => m.tool_call_id), "the tool message answers the new id").toEqual([id]);
  });

  l2("an id only in a tool message's tool_call_id of the caller's messages counts as used", async () => {
    const earlier: Message[] = [...freshUser(), { role: "tool", tool_call_id: "c_answered", name: "t", content: '{"ok":true,"data":1}', is_error: false }];
    const model = scriptedModel([reply.calls(["t", {}, "c_answered"]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("t")], messages: earlier });
    const id = assistantMessages(r)[0].tool_calls?.[0].id;
    expect(id, "an id answered in the caller's history is replaced").not.toBe("c_answered");
    expect(toolMessages(r).slice(1).map((m) => m.tool_call_id), "the new tool message answers the new id").toEqual([id]);
  });
});

describe("3. Concurrency: independent calls of one step run at the same time", () => {
  l1("a step of five 100 ms tools ends at 100 ms of fake time, not 500", async () => {
    const clock = new FakeClock();
    const t = ["a", "b", "c", "d", "e"].map((n) => tools.slow(n, clock, 100));
    const model = scriptedModel([reply.calls(...t.map((x) => [x.name, {}] as [string, object])), reply.text("ok")]);
    const r = await run({ model, tools: t, clock, concurrency: 10 });
    expect(r.status, "the step completes").toBe("completed");
    expect(toolMessages(r), "one tool message per call").toHaveLength(5);
    expect(clock.now(), "five 100 ms calls run together: the step ends at 100 ms").toBe(100);
  });

  l2("the concurrency cap is respected: 6 calls with concurrency 2 take 300 ms, never more than 2 in flight", async () => {
    const clock = new FakeClock();
    const tool = tools.slow("work", clock, 100);
    const model = scriptedModel([reply.calls(...Array.from({ length: 6 }, (_, i) => ["work", { i }] as [string, object])), reply.text("ok")]);
    const r = await run({ model, tools: [tool], clock, concurrency: 2 });
    expect(tool.executions, "every call ran").toBe(6);
    expect(tool.maxInFlight, "the concurrency cap: never more than 2 in flight").toBe(2);
    expect(clock.now(), "six 100 ms calls two at a time: 300 ms").toBe(300);
    expect(toolMessages(r), "one tool message per call").toHaveLength(6);
  });

  l3("the default concurrency is 4", async () => {
    const clock = new FakeClock();
    const tool = tools.slow("work", clock, 100);
    const model = scriptedModel([reply.calls(...Array.from({ length: 8 }, (_, i) => ["work", { i }] as [string, object])), reply.text("ok")]);
    await run({ model, tools: [tool], clock });
    expect(tool.maxInFlight, "the default concurrency is 4").toBe(4);
    expect(clock.now(), "eight 100 ms calls four at a time: 200 ms").toBe(200);
  });
});

describe("4. Stops: every way a run ends is a status", () => {
  const forever = () => scriptedModel(Array.from({ length: 50 }, (_, i) => reply.calls(["get_weather", { n: i }])));

  l1("maxSteps: the model is asked at most maxSteps times, status max_steps", async () => {
    const model = forever();
    const tool = weather();
    const r = await run({ model, tools: [tool], maxSteps: 3 });
    expect(r.status, "maxSteps reached: status max_steps").toBe("max_steps");
    expect(r.steps, "steps = maxSteps").toBe(3);
    expect(model.requests, "the model is asked at most maxSteps times").toHaveLength(3);
    expect(r.finalText, "finalText is null for max_steps").toBeNull();
    // The last reply's calls were run and answered before stopping.
    expect(tool.executions, "the last reply's calls ran before the stop").toBe(3);
    expect(toolMessages(r), "every call was answered before the stop").toHaveLength(3);
  }, { core: true });

  l2("maxSteps defaults to 10", async () => {
    const model = forever();
    const r = await run({ model, tools: [weather()] });
    expect(r.status, "maxSteps defaults to 10: status max_steps").toBe("max_steps");
    expect(model.requests, "maxSteps defaults to 10: ten requests").toHaveLength(10);
  });

  l1("repeated_call: the same call N times in a row stops the run; the Nth is not run but answered", async () => {
    const tool = weather();
    const model = scriptedModel(Array.from({ length: 10 }, () => reply.calls(["get_weather", { city: "北京", unit: "c" }])));
    const r = await run({ model, tools: [tool], maxRepeatedCalls: 3 });
    expect(r.status, "N identical calls in a row: status repeated_call").toBe("repeated_call");
    expect(r.steps, "the streak is reached at the third request").toBe(3);
    expect(tool.executions, "the call that completes the streak does not run").toBe(2);
    const msgs = toolMessages(r);
    expect(msgs, "the refused call is still answered").toHaveLength(3);
    expect(errorCode(msgs[2]), "the refused call's code is repeated_call").toBe("repeated_call");
    expect(msgs[2].is_error, "a repeated_call envelope is an error").toBe(true);
  });

  l2("repeated_call compares canonical arguments: key order does not make a call different", async () => {
    const model = scriptedModel([
      reply.calls(["get_weather", '{"city":"北京","unit":"c"}']),
      reply.calls(["get_weather", '{"unit":"c","city":"北京"}']),
      reply.calls(["get_weather", { unit: "c", city: "北京" }]),
      reply.text("never"),
    ]);
    const r = await run({ model, tools: [weather()], maxRepeatedCalls: 3 });
    expect(r.status, "key order does not make a call different: the third is a repeat").toBe("repeated_call");
    expect(model.requests, "the run stops at the third request").toHaveLength(3);
  });

  l2("calls that alternate or differ in arguments are not repeated calls", async () => {
    const script = [
      reply.calls(["get_weather", { city: "a" }]),
      reply.calls(["get_weather", { city: "a" }]),
      reply.calls(["get_weather", { city: "b" }]),
      reply.calls(["get_weather", { city: "a" }]),
      reply.calls(["get_weather", { city: "a" }]),
      reply.text("done"),
    ];
    const r = await run({ model: scriptedModel(script), tools: [weather()], maxRepeatedCalls: 3 });
    expect(r.status, "alternating calls break the streak: the run completes").toBe("completed");
  });

  l2("repeats are counted across the calls of one reply too (default N = 3)", async () => {
    const tool = weather();
    const model = scriptedModel([reply.calls(["get_weather", { x: 1 }], ["get_weather", { x: 1 }], ["get_weather", { x: 1 }]), reply.text("no")]);
    const r = await run({ model, tools: [tool] });
    expect(r.status, "repeats within one reply count: status repeated_call").toBe("repeated_call");
    expect(tool.executions, "none of the repeating reply's calls run").toBe(0);
    expect(toolMessages(r).map(errorCode), "each call of the repeating reply gets repeated_call").toEqual(["repeated_call", "repeated_call", "repeated_call"]);
  });

  l1("budget_exhausted: once the summed tokens reach tokenBudget the model is not asked again", async () => {
    const model = scriptedModel(Array.from({ length: 10 }, (_, i) => reply.withUsage(reply.calls(["get_weather", { i }]), 400, 100)));
    const tool = weather();
    const r = await run({ model, tools: [tool], tokenBudget: 1000 });
    expect(r.status, "tokens used >= tokenBudget: budget_exhausted").toBe("budget_exhausted");
    expect(model.requests, "the model is not asked once the budget is spent").toHaveLength(2);
    expect(r.usage.total_tokens, "usage is summed over the two replies").toBe(1000);
    expect(tool.executions, "the last reply's calls ran before the stop").toBe(2);
    expect(toolMessages(r), "every call was answered").toHaveLength(2);
  });

  l2("a plain answer that crosses the budget still completes", async () => {
    const model = scriptedModel([reply.withUsage(reply.text("final"), 5000, 10)]);
    const r = await run({ model, tokenBudget: 100 });
    expect(r.status, "a plain answer that crosses the budget still completes").toBe("completed");
    expect(r.finalText, "its text is the final answer").toBe("final");
  });

  l1("finished: a tool result { $finish: answer } ends the run with that answer", async () => {
    const done = tools.finish("submit", "报告已发送");
    const model = scriptedModel([reply.calls(["submit", {}]), reply.text("never asked")]);
    const r = await run({ model, tools: [done] });
    expect(r.status, "a { $finish } result ends the run: status finished").toBe("finished");
    expect(r.finalText, "finalText is the $finish string").toBe("报告已发送");
    expect(model.requests, "the model is not asked again after $finish").toHaveLength(1);
    expect(toolMessages(r), "the finishing call has its tool message").toHaveLength(1);
    expect(envelope(toolMessages(r)[0]).ok, "the finishing call's envelope is ok").toBe(true);
  });

  l2("finished: the other calls of the finishing step still run and get their messages", async () => {
    const other = weather();
    const model = scriptedModel([reply.calls(["get_weather", {}], ["submit", {}], ["get_weather", { x: 1 }])]);
    const r = await run({ model, tools: [other, tools.finish("submit", "done")] });
    expect(r.status, "the finishing step ends the run: status finished").toBe("finished");
    expect(other.executions, "the other calls of the finishing step still run").toBe(2);
    expect(toolMessages(r), "every call of the step gets its tool message").toHaveLength(3);
  });

  l2("several finishing calls in one step: the first in call order wins, not the first or the last to finish", async () => {
    const clock = new FakeClock();
    // Call order a, b, c; finish order b (10 ms), a (50 ms), c (90 ms): a finishes neither first nor last.
    const finisher = (name: string, ms: number, answer: string) =>
      spyTool(name, async (_args, ctx) => {
        await clock.sleep(ms, ctx.signal);
        return { $finish: answer };
      });
    const model = scriptedModel([reply.calls(["a", {}, "fa"], ["b", {}, "fb"], ["c", {}, "fc"]), reply.text("never asked")]);
    const r = await run({ model, clock, tools: [finisher("a", 50, "答案 A"), finisher("b", 10, "answer B"), finisher("c", 90, "answer C")] });
    expect(toolEvents(r).map((e) => e.type === "tool_call" && e.callId), "the calls settle in the order b, a, c (the trace is in finish order)").toEqual(["fb", "fa", "fc"]);
    expect(r.status, "a step with finishing calls ends the run: status finished").toBe("finished");
    expect(r.finalText, "several calls finish: the first in call order wins (not the first or the last to finish)").toBe("答案 A");
    expect(toolMessages(r).map(envelope), "every finishing call gets its own ok message, in call order").toEqual([
      { ok: true, data: { $finish: "答案 A" } },
      { ok: true, data: { $finish: "answer B" } },
      { ok: true, data: { $finish: "answer C" } },
    ]);
    expect(model.requests, "the model is not asked again").toHaveLength(1);
  });

  l2.property("whatever order its calls finish in, a step's first finishing call in call order gives the answer", async () => {
    type Plan = { kind: "finish" | "data" | "not_string" | "throws" | "unknown"; delay: number };
    // Two to four finishing calls with distinct delays; the first of them in call order is never
    // the first to finish, and often not the last either. Other calls are mixed in anywhere.
    const delayArb = fc.constantFrom(0, 10, 20, 30);
    const finishersArb = fc.uniqueArray(delayArb, { minLength: 2, maxLength: 4 }).chain((delays) => {
      const sorted = [...delays].sort((x, y) => x - y);
      return fc.integer({ min: 1, max: sorted.length - 1 }).chain((rank) => {
        const rest = sorted.filter((_, i) => i !== rank);
        return fc.shuffledSubarray(rest, { minLength: rest.length }).map((order) => [sorted[rank], ...order]);
      });
    });
    const otherArb = fc.record({ kind: fc.constantFrom("data" as const, "not_string" as const, "throws" as const, "unknown" as const), delay: delayArb });
    const planArb = fc.tuple(finishersArb, fc.array(fc.tuple(otherArb, fc.nat()), { maxLength: 2 })).map(([delays, others]) => {
      const plans: Plan[] = delays.map((delay) => ({ kind: "finish", delay }));
      for (const [other, at] of others) plans.splice(at % (plans.length + 1), 0, other);
      return plans;
    });
    await fc.assert(
      fc.asyncProperty(planArb, async (plans) => {
        const clock = new FakeClock();
        const wait = async (ms: number, signal: AbortSignal) => {
          if (ms > 0) await clock.sleep(ms, signal);
        };
        const answer = (i: number) => `完成 #${i}`;
        const behaviours: Record<Plan["kind"], (i: number, ms: number, signal: AbortSignal) => Promise<unknown>> = {
          finish: async (i, ms, signal) => (await wait(ms, signal), { $finish: answer(i) }),
          data: async (i, ms, signal) => (await wait(ms, signal), { value: i }),
          not_string: async (i, ms, signal) => (await wait(ms, signal), { $finish: i }),
          throws: async (i, ms, signal) => {
            await wait(ms, signal);
            throw new Error(`call ${i} failed`);
          },
          unknown: async () => null,
        };
        const tool = spyTool("step_tool", (args, ctx) => behaviours[args.kind as Plan["kind"]](args.i as number, args.delay as number, ctx.signal));
        const calls = plans.map((p, i): CallSpec => [p.kind === "unknown" ? "no_such_tool" : "step_tool", { kind: p.kind, i, delay: p.delay }, `s${i}`]);
        const model = scriptedModel([reply.calls(...calls), reply.text("never asked")]);
        const r = await run({ model, clock, tools: [tool], concurrency: plans.length });
        const first = plans.findIndex((p) => p.kind === "finish");
        expect(r.status, "a step with finishing calls ends the run: status finished").toBe("finished");
        expect(r.finalText, "the first finishing call in call order wins, whatever order the calls finished in").toBe(answer(first));
        expect(toolMessages(r).map((m) => m.tool_call_id), "every call of the step gets its message, in call order").toEqual(calls.map((c) => c[2]));
        expect(model.requests, "the model is not asked again").toHaveLength(1);
      }),
    );
  });

  l2("a result with $finish that is not a string is ordinary data", async () => {
    const model = scriptedModel([reply.calls(["t", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("t", { $finish: 42 })] });
    expect(r.status, "a non-string $finish is ordinary data: the run goes on").toBe("completed");
  });

  l1("aborted: an already-aborted signal ends the run before the model is asked", async () => {
    const model = scriptedModel([reply.text("no")]);
    const r = await run({ model, signal: AbortSignal.abort() });
    expect(r.status, "a signal aborted before the run: status aborted").toBe("aborted");
    expect(r.steps, "steps is 0 when aborted before the run").toBe(0);
    expect(model.requests, "the model is never asked").toHaveLength(0);
    expect(r.messages, "messages are the caller's only").toEqual(USER);
  });

  l3("aborted: aborting during a hanging tool ends the run; the call gets an aborted message, the tool's signal fires", async () => {
    const controller = new AbortController();
    const hang = tools.hang("hang");
    const model = scriptedModel([reply.calls(["hang", {}, "h1"]), reply.text("never")]);
    const clock = new FakeClock();
    const p = run({ model, tools: [hang], clock, signal: controller.signal, toolTimeoutMs: 1_000_000 });
    // Let the run reach the hanging tool (a run that ends or fails first is reported as it is).
    await Promise.race([
      p.then((r) => {
        throw new Error(`the run ended (${r.status}) before the abort`);
      }),
      clock.sleep(5),
    ]);
    expect(hang.executions, "the hanging tool started before the abort").toBe(1);
    controller.abort();
    const r = await p;
    expect(r.status, "an abort during a step: status aborted").toBe("aborted");
    expect(model.requests, "the model is not asked again after an abort").toHaveLength(1);
    expect(toolMessages(r).map((m) => [m.tool_call_id, errorCode(m)]), "the unfinished call gets an aborted envelope").toEqual([["h1", "aborted"]]);
    expect(hang.contexts[0].signal.aborted, "the hanging tool's ctx.signal fires on abort").toBe(true);
  });

  l3("aborted: aborting while the model is thinking ends the run; the model's signal fires", async () => {
    const controller = new AbortController();
    const model = scriptedModel([() => new Promise(() => {})]);
    const p = run({ model, signal: controller.signal });
    await idle(); // the run has asked the model, and waits for it
    controller.abort();
    const r = await p;
    expect(r.status, "an abort while the model answers: status aborted").toBe("aborted");
    expect(r.steps, "the one request made counts as a step").toBe(1);
    expect(model.signals[0].aborted, "the model's request signal fires on abort").toBe(true);
  });

  l3("aborted: an abort during a backoff wait stops the retries", async () => {
    const controller = new AbortController();
    const clock = new FakeClock();
    const flaky = spyTool("flaky", (_a, _c, n) => {
      if (n === 1) queueMicrotask(() => controller.abort());
      throw Object.assign(new Error("busy"), { retryable: true });
    });
    const model = scriptedModel([reply.calls(["flaky", {}]), reply.text("never")]);
    const r = await run({ model, tools: [flaky], clock, signal: controller.signal, retries: 5, backoffBaseMs: 1000 });
    expect(r.status, "an abort during a backoff wait: status aborted").toBe("aborted");
    expect(flaky.executions, "the retry after the backoff is never made").toBe(1);
    expect(toolMessages(r).map(errorCode), "the call gets an aborted envelope").toEqual(["aborted"]);
  });

  l3("after a step, aborted wins over finished", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 10);
    const model = scriptedModel([reply.calls(["finish", {}], ["wait", {}])]);
    const r = await run({ model, clock, signal: controller.signal, tools: [tools.finish("finish", "the answer"), tools.hang("wait")] });
    expect(r.status, "after a step, aborted wins over finished").toBe("aborted");
    expect(r.finalText, "finalText is null for aborted").toBeNull();
    expect(toolMessages(r).map(errorCode), "the finished call keeps its result; the unfinished one gets aborted").toEqual([undefined, "aborted"]);
  });

  l3("an abort ends a hanging call at once: the run does not wait for the tool's timeout", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 50);
    const hang = tools.hang("h");
    const r = await run({ model: scriptedModel([reply.calls(["h", {}])]), clock, signal: controller.signal, tools: [hang] });
    expect(r.status, "an abort ends the run at once").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "the hanging call gets aborted").toEqual(["aborted"]);
    expect(clock.now(), "the run ends at the abort, not at the tool's timeout").toBe(50);
    expect(hang.executions, "the hanging tool started once").toBe(1);
    expect(hang.contexts[0].signal.aborted, "the hanging tool's ctx.signal fires on abort").toBe(true);
  });

  l3("calls still waiting for a slot when the run is aborted get code aborted and never run", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 50);
    const later = tools.ok("later", 1);
    const model = scriptedModel([reply.calls(["h", {}], ["later", {}])]);
    const r = await run({ model, clock, concurrency: 1, signal: controller.signal, tools: [tools.hang("h"), later] });
    expect(r.status, "the abort ends the run").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "the running call and the waiting call both get aborted").toEqual(["aborted", "aborted"]);
    expect(later.executions, "a call waiting for a slot never runs after the abort").toBe(0);
  });

  l3("once aborted nothing new starts: a waiting call asks no policy or approval and never runs", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 50);
    const asked: string[] = [];
    const policy = vi.fn((req: { call: { id: string } }) => {
      asked.push(req.call.id);
      return { allow: true as const };
    });
    const approve = vi.fn(() => true);
    const later = tools.ok("later", 1, { dangerous: true });
    const model = scriptedModel([reply.calls(["h", {}, "c1"], ["later", {}, "c2"])]);
    const r = await run({ model, clock, concurrency: 1, signal: controller.signal, policy, approve, tools: [tools.hang("h"), later] });
    expect(r.status, "the abort ends the run").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "both calls get aborted").toEqual(["aborted", "aborted"]);
    expect(asked, "the policy is asked only for the call that started before the abort").toEqual(["c1"]);
    expect(approve, "no approval is asked after the abort").not.toHaveBeenCalled();
    expect(later.executions, "the waiting dangerous tool never runs").toBe(0);
  });

  l3("a run aborted while its policy decides: no approval is asked and the tool never runs", async () => {
    const controller = new AbortController();
    const policy = vi.fn(() => {
      controller.abort();
      return { allow: true as const };
    });
    const approve = vi.fn(() => true);
    const risky = tools.ok("risky", 1, { dangerous: true });
    const plain = tools.ok("plain", 1);
    const model = scriptedModel([reply.calls(["risky", {}], ["plain", {}])]);
    const r = await run({ model, concurrency: 1, signal: controller.signal, policy, approve, tools: [risky, plain] });
    expect(r.status, "an abort during the policy ends the run").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "both calls get aborted").toEqual(["aborted", "aborted"]);
    expect(policy, "the policy is asked once: the second call starts nothing").toHaveBeenCalledTimes(1);
    expect(approve, "no approval is asked after an abort during the policy").not.toHaveBeenCalled();
    expect(risky.executions + plain.executions, "no tool runs after the abort").toBe(0);
  });

  l3("a run aborted while a dangerous call waits for approval: the approved tool never runs", async () => {
    const controller = new AbortController();
    const approve = vi.fn(() => {
      controller.abort();
      return true;
    });
    const risky = tools.ok("risky", 1, { dangerous: true });
    const r = await run({ model: scriptedModel([reply.calls(["risky", {}])]), signal: controller.signal, approve, tools: [risky] });
    expect(r.status, "an abort during approval ends the run").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "the call gets aborted").toEqual(["aborted"]);
    expect(risky.executions, "an approved tool never runs once the run is aborted").toBe(0);
  });

  l3("a model that aborts the run and then throws: status aborted, runAgent does not reject", async () => {
    const controller = new AbortController();
    // A plain (not async) model function: it throws while it is being called.
    const model = () => {
      controller.abort();
      throw new Error("cancelled");
    };
    const r = await run({ model, signal: controller.signal });
    expect(r.status, "a model that aborts and throws: status aborted, no rejection").toBe("aborted");
    expect(r.steps, "the request counts as a step").toBe(1);
    expect(r.finalText, "finalText is null for aborted").toBeNull();
  });

  l2("repeated calls: their tool_call events say not_checked, outcome repeated_call, retries 0", async () => {
    const model = scriptedModel([reply.calls(["f", { a: 1 }], ["f", { a: 1 }], ["f", { a: 1 }])]);
    const f = tools.ok("f", 1);
    const r = await run({ model, tools: [f] });
    expect(r.status, "three identical calls in one reply: repeated_call").toBe("repeated_call");
    expect(f.executions, "the repeated calls do not run").toBe(0);
    const events = toolEvents(r) as Array<{ validation: string; outcome: string; retries: number }>;
    expect(events.map((e) => [e.validation, e.outcome, e.retries]), "repeated calls' events: not_checked, repeated_call, retries 0").toEqual([
      ["not_checked", "repeated_call", 0],
      ["not_checked", "repeated_call", 0],
      ["not_checked", "repeated_call", 0],
    ]);
  });

  l2("repeated calls: a reply without calls does not break a streak, and a refused call counts", async () => {
    const model = scriptedModel([
      reply.calls(["missing", { q: 1 }]),
      reply.text("thinking"),
      reply.calls(["missing", { q: 1 }]),
      reply.calls(["missing", { q: 1 }]),
      reply.calls(["done", {}]),
    ]);
    const r = await run({ model, tools: [tools.finish("done", "x")], toolChoice: "required", maxRepeatedCalls: 3 });
    expect(r.status, "three identical calls (unknown tool, refused) across a plain reply make a streak").toBe("repeated_call");
    expect(r.steps, "the streak is reached at the fourth request").toBe(4);
  });

  l3("a call still waiting for a slot at the abort gets aborted without any gate, even for an unknown tool", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 30);
    const model = scriptedModel([reply.calls(["hang", {}, "h"], ["no_such_tool", {}, "u"], ["hang", "{broken", "b"])]);
    const r = await run({ model, clock, concurrency: 1, signal: controller.signal, tools: [tools.hang("hang")] });
    expect(r.status, "the run ends aborted").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "every call that had not settled gets aborted, whatever gate it would fail").toEqual(["aborted", "aborted", "aborted"]);
    const events = toolEvents(r) as ToolEvent[];
    const queued = events.filter((e) => e.callId !== "h").map((e) => [e.validation, e.retries]);
    expect(queued, "a call aborted before its argument check: validation not_checked, retries 0").toEqual([
      ["not_checked", 0],
      ["not_checked", 0],
    ]);
  });

  l3("a policy that never answers does not hold an aborted run: the call gets aborted, nothing runs", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 40);
    const approve = vi.fn(() => true);
    const t = tools.ok("t", 1, { dangerous: true });
    const r = await run({
      model: scriptedModel([reply.calls(["t", {}])]),
      clock,
      signal: controller.signal,
      tools: [t],
      approve,
      policy: () => new Promise(() => {}),
    });
    expect(r.status, "the abort ends the run while the policy is silent").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "the waiting call gets aborted").toEqual(["aborted"]);
    expect(approve, "no approval is asked after the abort").not.toHaveBeenCalled();
    expect(t.executions, "the tool never runs").toBe(0);
  });

  l3("an approval that never answers does not hold an aborted run: the call gets aborted, the tool never runs", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 40);
    const t = tools.ok("t", 1, { dangerous: true });
    const r = await run({
      model: scriptedModel([reply.calls(["t", {}])]),
      clock,
      signal: controller.signal,
      tools: [t],
      approve: () => new Promise<boolean>(() => {}),
    });
    expect(r.status, "the abort ends the run while approve is silent").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "the waiting call gets aborted").toEqual(["aborted"]);
    expect(t.executions, "the tool never runs").toBe(0);
  });
});
