// Held-out bank, kata 3: one test for each kind of mistake the visible specs catch and the rest of
// the bank does not, and for the README's rules on option values, ids, onTrace, aborts and argument
// errors, each on inputs the visible specs do not use.
import { describe, expect, vi } from "vitest";
import { parseArguments, type AgentOptions, type Message, type TraceEvent } from "@impl/03-agent-loop";
import { l2, l3 } from "../../support/graded.ts";
import { FakeClock, reply, scriptedModel, spyTool, tools } from "../../support/agent-harness/index.ts";
import { leakedPieces } from "../../support/leaks.ts";
import { assistantMessages, envelope, errorCode, freshUser, run, toolEvents, toolMessages } from "../helpers.ts";

type ToolEvent = Extract<TraceEvent, { type: "tool_call" }>;

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
  l2("options with no meaning are refused before the model is asked: a RangeError that names them", async () => {
    const cases: Array<[string, Partial<AgentOptions>]> = [
      ["maxSteps", { maxSteps: 0.5 }],
      ["maxRepeatedCalls", { maxRepeatedCalls: 1 }],
      ["tokenBudget", { tokenBudget: -0.5 }],
      ["concurrency", { concurrency: -Infinity }],
      ["retries", { retries: Number.NaN }],
      ["toolTimeoutMs", { toolTimeoutMs: 3e9 }],
    ];
    for (const [option, options] of cases) {
      const model = scriptedModel([reply.text("never")]);
      const seen: TraceEvent[] = [];
      const outcome = await run({ model, onTrace: (e) => seen.push(e), ...options }).then(
        (r) => ({ resolved: r.status }),
        (error: unknown) => ({ error }),
      );
      expect("error" in outcome && outcome.error, `${option}: runAgent rejects with a RangeError`).toBeInstanceOf(RangeError);
      expect("error" in outcome && String((outcome.error as Error).message), `${option}: the message names the option`).toContain(option);
      expect(model.requests.length + seen.length, `${option}: nothing happened before the refusal`).toBe(0);
    }
  });
});

describe("2. History: one assistant message with all its calls, then one tool message per call", () => {
  l2("a reply that already holds call_1_2 and has a call without id at index 2: all three ids differ", async () => {
    const model = scriptedModel([
      { content: "", tool_calls: [{ id: "call_1_2", name: "n", arguments: {} }, { id: "", name: "n", arguments: { k: 1 } }, { name: "n", arguments: { k: 2 } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [tools.ok("n", 0)] });
    const ids = assistantMessages(r)[0].tool_calls?.map((c) => c.id) ?? [];
    expect(ids.length, "three calls").toBe(3);
    expect(new Set(ids).size, "ids are unique in a run, whatever ids the model sent").toBe(3);
    expect(toolMessages(r).map((m) => m.tool_call_id), "each tool message answers its call").toEqual(ids);
  });
  l2("ids in the caller's tool messages count as used, a call_<step>_<index> among them: clashing calls get fresh ids", async () => {
    const earlier: Message[] = [
      ...freshUser(),
      { role: "assistant", content: "", tool_calls: [{ id: "toolu_00", name: "lookup", arguments: "{}" }] },
      { role: "tool", tool_call_id: "toolu_00", name: "lookup", content: '{"ok":true,"data":0}', is_error: false },
      // Tool messages whose assistant message was trimmed from the context.
      { role: "tool", tool_call_id: "toolu_01", name: "lookup", content: '{"ok":true,"data":1}', is_error: false },
      { role: "tool", tool_call_id: "call_1_1", name: "lookup", content: '{"ok":true,"data":2}', is_error: false },
      { role: "user", content: "继续" },
    ];
    const model = scriptedModel([
      { content: "", tool_calls: [{ id: "toolu_01", name: "lookup", arguments: { n: 1 } }, { name: "lookup", arguments: { n: 2 } }, { id: "mine", name: "lookup", arguments: { n: 3 } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [tools.ok("lookup", 9)], messages: earlier });
    const ids = assistantMessages(r)[1].tool_calls?.map((c) => c.id) ?? [];
    expect(ids[2], "an unused id the model sent is kept").toBe("mine");
    expect(ids.filter((id) => ["toolu_00", "toolu_01", "call_1_1"].includes(id)), "no id already in the caller's messages is used again").toEqual([]);
    expect(ids.every((id) => typeof id === "string" && id !== ""), "every call has a non-empty string id").toBe(true);
    expect(new Set(ids).size, "three calls, three distinct ids").toBe(3);
    expect(toolMessages(r).slice(3).map((m) => m.tool_call_id), "each new tool message answers its call's new id").toEqual(ids);
  });
});

describe("4. Stops: every way a run ends is a status", () => {
  l2("usage that lands exactly on tokenBudget stops the run before the next request", async () => {
    const t = tools.ok("lookup", "x");
    const model = scriptedModel([
      reply.withUsage(reply.calls(["lookup", { p: 1 }]), 120, 30),
      reply.withUsage(reply.calls(["lookup", { p: 2 }]), 100, 50),
      reply.text("never"),
    ]);
    const r = await run({ model, tools: [t], tokenBudget: 300 });
    expect(r.status, "300 tokens used >= tokenBudget 300: budget_exhausted").toBe("budget_exhausted");
    expect(model.requests.length, "the third request is never made").toBe(2);
    expect(t.executions, "the last reply's call ran before the stop").toBe(2);
  });

  l3("an abort while a second call's policy never answers: both calls get aborted at once", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    void clock.sleep(60).then(() => controller.abort());
    const slow = tools.slow("slow", clock, 500);
    const guarded = tools.ok("guarded", 1);
    const policy = vi.fn(({ call }: { call: { name: string } }) => (call.name === "guarded" ? new Promise<never>(() => {}) : { allow: true as const }));
    const model = scriptedModel([reply.calls(["slow", {}], ["guarded", {}])]);
    const r = await run({ model, clock, tools: [slow, guarded], policy, signal: controller.signal });
    expect(r.status, "the run ends aborted").toBe("aborted");
    expect(toolMessages(r).map(errorCode), "neither call is waited for").toEqual(["aborted", "aborted"]);
    expect(clock.now(), "the run ended at the abort, not when the slow tool would have").toBe(60);
    expect(guarded.executions, "the silent policy's call never runs").toBe(0);
  });
});

describe("5. Failures become error tool messages and the loop goes on", () => {
  l2("more Object.prototype names are unknown tools: hasOwnProperty, valueOf, __defineGetter__", async () => {
    const model = scriptedModel([reply.calls(["hasOwnProperty", {}], ["valueOf", {}], ["__defineGetter__", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("real")] });
    expect(toolMessages(r).map(errorCode), "a name found only on the prototype is no tool").toEqual(["unknown_tool", "unknown_tool", "unknown_tool"]);
  });

  l3("malformed arguments around a live key: no 4-character piece of it in the messages, the trace or parseArguments", async () => {
    const secret = "sk-live-Hq4Wz9Xk2Jv7Bn3Mr8Ty";
    const texts = [`{'key': '${secret}'}`, `{"key": "${secret}"\n`, `{"k":1,,"key":"${secret}"}`, `{"key": ${secret} }`, `${secret}`];
    for (const text of texts) {
      const parsed = parseArguments(text);
      expect(parsed.ok, `${JSON.stringify(text)} does not parse`).toBe(false);
      const message = parsed.ok ? "" : parsed.message;
      expect(leakedPieces(message, secret), `pieces parseArguments quotes of ${JSON.stringify(text)}: ${message}`).toEqual([]);
    }
    const model = scriptedModel([reply.calls(...texts.map((text, i) => ["store", text, `s${i}`] as [string, string, string])), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("store")], runId: "run_bank_leak" });
    expect(toolMessages(r).map(errorCode), "every malformed text is invalid_arguments").toEqual(texts.map(() => "invalid_arguments"));
    const written = JSON.stringify([toolMessages(r), r.trace]);
    expect(leakedPieces(written, secret), "pieces of the raw arguments the loop wrote").toEqual([]);
  });
});

describe("6. Timeouts and retries", () => {
  l2("every timed-out attempt has its own ctx.signal aborted, the last one included", async () => {
    const clock = new FakeClock();
    const t = tools.hang("fetch_page", { timeoutMs: 75, retries: 2 });
    const r = await run({ model: scriptedModel([reply.calls(["fetch_page", { url: "x" }]), reply.text("ok")]), tools: [t], clock, backoffBaseMs: 1 });
    expect(t.executions, "three attempts").toBe(3);
    expect(t.contexts.map((c) => c.signal.aborted), "each attempt's signal fired when its timeout won").toEqual([true, true, true]);
    expect(toolMessages(r).map(errorCode), "every attempt timed out: unavailable").toEqual(["unavailable"]);
    expect(clock.now(), "75 + 1 + 75 + 2 + 75 ms").toBe(228);
  });
});

describe("8. Isolation: masking and clean error text", () => {
  l3("secrets in arguments that pass the schema never reach the trace unmasked", async () => {
    const token = "ghp_Vb7Kd2Xq9Lm4Ws8Zt1Ny6Rf3Hj5Pc0";
    const mail = "ops.oncall@corp-mail.io";
    const phone = "+49 30 9012 3456";
    const t = spyTool("notify", () => "sent", {
      parameters: { type: "object", properties: { to: { type: "string" }, token: { type: "string" }, tel: { type: "string" } }, required: ["to"] },
    });
    const model = scriptedModel([reply.calls(["notify", { to: mail, token, tel: phone }]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    expect(t.calls, "the tool gets its arguments as they are").toEqual([{ to: mail, token, tel: phone }]);
    const [event] = toolEvents(r) as ToolEvent[];
    expect(event.validation, "the arguments passed the schema").toBe("ok");
    const trace = JSON.stringify(r.trace);
    for (const secret of [token, mail, phone]) expect(trace, `the trace holds ${secret} unmasked`).not.toContain(secret);
    expect(JSON.parse(event.arguments), "the trace's arguments are the canonical JSON, masked").toEqual({ tel: "[phone]", to: "[email]", token: "[secret]" });
  });
});

describe("10. Trace: events for every step and tool call, with the run id", () => {
  l2("an onTrace that throws on tool_call events only: two steps still run and every event is traced", async () => {
    const types: string[] = [];
    const onTrace = (e: TraceEvent) => {
      types.push(e.type);
      if (e.type === "tool_call") throw new TypeError("dashboard offline");
    };
    const t = tools.ok("step", 1);
    const model = scriptedModel([reply.calls(["step", { n: 1 }]), reply.calls(["step", { n: 2 }]), reply.text("done")]);
    const r = await run({ model, tools: [t], onTrace });
    expect(r.status, "the run completes").toBe("completed");
    expect(t.executions, "both calls ran").toBe(2);
    expect(types, "onTrace saw every event, in order").toEqual(r.trace.map((e) => e.type));
    expect(types.length, "run_start, 3 steps, 2 tool calls, run_end").toBe(7);
    expect(envelope(toolMessages(r)[1]), "the second call's result is intact").toEqual({ ok: true, data: 1 });
  });
});
