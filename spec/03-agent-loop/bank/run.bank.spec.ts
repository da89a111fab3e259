// Held-out bank, kata 3, tasks 1-10 through runAgent: what each request carries, ids, aborts of the
// run and of the model, the gates' odd answers, retries and the trace of refused calls, on
// conversations the visible specs do not use.
import { describe, expect } from "vitest";
import type { ApprovalRequest, Message, ModelReply, PolicyDecision, PolicyRequest, TraceEvent } from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../../support/graded.ts";
import { FakeClock, reply, scriptedModel, spyTool, tools, transientError } from "../../support/agent-harness/index.ts";
import { abortAt, assistantMessages, envelope, errorCode, freshUser, run, toolEvents, toolMessages, USER } from "../helpers.ts";

type ToolEvent = Extract<TraceEvent, { type: "tool_call" }>;

const lookup = () => spyTool("lookup", (args) => ({ found: args.q ?? null }), {
  parameters: { type: "object", properties: { q: { type: "string" } } },
  timeoutMs: 500,
  retries: 1,
  dangerous: false,
});

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
  l1("every request carries the history so far (a copy), the definitions only in order, and toolChoice \"auto\" by default", async () => {
    const note = tools.ok("note", "noted");
    const model = scriptedModel([
      (request) => {
        // The model may scribble on what it is shown: the run's history must not change.
        request.messages.push({ role: "user", content: "injected by the model" });
        return reply.calls(["lookup", { q: "pi" }, "q1"]);
      },
      reply.text("3.14"),
    ]);
    const r = await run({ model, tools: [lookup(), note] });
    expect(r, "a call, then a plain answer").toMatchObject({ status: "completed", finalText: "3.14", steps: 2 });
    expect(model.requests[0].tools, "the definitions only (no execute, timeoutMs, retries, dangerous), in the tools' order").toEqual([
      { name: "lookup", description: "test tool lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
      { name: "note", description: "test tool note", parameters: { type: "object" } },
    ]);
    expect(model.requests.map((q) => q.toolChoice), "toolChoice is \"auto\" on every request without the option").toEqual(["auto", "auto"]);
    expect(model.requests[0].messages, "the first request: the caller's messages").toEqual(USER);
    expect(model.requests[1].messages, "the second request: the history so far, without what the model wrote into its copy").toEqual(r.messages.slice(0, 4));
    expect(r.messages.map((m) => m.role), "the model's scribble is not in the history").toEqual(["system", "user", "assistant", "tool", "assistant"]);
  });

  l2("runs without a runId get non-empty ids of their own, different from each other, on every event", async () => {
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await run({ model: scriptedModel([reply.text(`answer ${i}`)]) }));
    const ids = results.map((r) => r.runId);
    for (const id of ids) expect(typeof id === "string" && id.length > 0, `a generated runId is a non-empty string: ${JSON.stringify(id)}`).toBe(true);
    expect(new Set(ids).size, "three runs, three different ids").toBe(3);
    for (const r of results) expect(r.trace.map((e) => e.runId), "every event carries its run's id").toEqual(r.trace.map(() => r.runId));
  });

  l2("null and missing arguments are \"{}\" in the history, and the tool gets {}", async () => {
    const ping = tools.ok("ping", "pong");
    const model = scriptedModel([
      { content: "pinging", tool_calls: [{ id: "p1", name: "ping", arguments: null }, { id: "p2", name: "ping" }, { id: "p3", name: "ping", arguments: "" }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [ping], maxRepeatedCalls: Infinity });
    expect(assistantMessages(r)[0].tool_calls, "null and missing arguments are \"{}\"; a string is kept verbatim").toEqual([
      { id: "p1", name: "ping", arguments: "{}" },
      { id: "p2", name: "ping", arguments: "{}" },
      { id: "p3", name: "ping", arguments: "" },
    ]);
    expect(ping.calls, "the tool gets {} each time").toEqual([{}, {}, {}]);
  });

  l2("a model that throws rejects the run with its error; one that aborts the run, then throws, gives aborted", async () => {
    const failing = scriptedModel([reply.calls(["lookup", { q: "x" }]), () => { throw new RangeError("upstream 529: overloaded"); }]);
    await expect(run({ model: failing, tools: [lookup()] }), "a throwing model: runAgent rejects with that error").rejects.toThrow("upstream 529: overloaded");

    const controller = new AbortController();
    let asked = 0;
    // A plain (not async) model function: on its second request it aborts the run, then throws while being called.
    const quitting = (): Promise<ModelReply> => {
      if (++asked === 1) return Promise.resolve(reply.calls(["lookup", { q: "y" }]));
      controller.abort(new Error("user closed the tab"));
      throw new Error("request cancelled");
    };
    const r = await run({ model: quitting, tools: [lookup()], signal: controller.signal });
    expect(r, "a model that aborts the run, then throws: aborted").toMatchObject({ status: "aborted", steps: 2, finalText: null });
    expect(toolMessages(r).map(errorCode), "the first step's call keeps its answer").toEqual([undefined]);
  });
});

describe("2. History: one assistant message with all its calls, then one tool message per call", () => {
  l2("ids: one only in the caller's tool_calls is used, a non-string id is replaced, a taken call_<step>_<index> and its _2 are skipped", async () => {
    const taken = ["fn_7", "call_1_0", "call_1_0_2"];
    const earlier: Message[] = [
      ...freshUser(),
      { role: "assistant", content: "Earlier I said hello." },
      // A call whose results the caller trimmed: its ids count as used all the same.
      { role: "assistant", content: "", tool_calls: taken.map((id) => ({ id, name: "lookup", arguments: "{}" })) },
      { role: "user", content: "继续" },
    ];
    const model = scriptedModel([
      { content: "", tool_calls: [{ name: "lookup", arguments: { q: "a" } }, { id: "fn_7", name: "lookup", arguments: { q: "b" } }, { id: 17 as unknown as string, name: "lookup", arguments: { q: "c" } }] },
      { content: "", tool_calls: [{ id: 99 as unknown as string, name: "lookup", arguments: { q: "d" } }] },
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [lookup()], messages: earlier });
    const [first, second] = assistantMessages(r).slice(2).map((m) => (m.tool_calls ?? []).map((c) => c.id));
    expect(typeof first[0] === "string" && first[0] !== "" && !taken.includes(first[0]), `call 0 gets an unused id, not ${JSON.stringify(first[0])}`).toBe(true);
    expect(first.slice(1), "a used id and a non-string id get call_<step>_<index>").toEqual(["call_1_1", "call_1_2"]);
    expect(second, "a non-string id in step 2 gets call_2_0").toEqual(["call_2_0"]);
    expect(new Set([...first, ...second]).size, "ids are unique in the run").toBe(4);
    expect(toolMessages(r).map((m) => m.tool_call_id), "each tool message answers its call's id").toEqual([...first, ...second]);
  });
});

describe("4. Stops: every way a run ends is a status", () => {
  l2("a signal aborted before the run, with a reason: aborted, steps 0, the model never asked, the caller's messages", async () => {
    const model = scriptedModel([reply.text("never")]);
    const r = await run({ model, signal: AbortSignal.abort(new Error("shutting down")), runId: "run_pre" });
    expect(r, "aborted before the first request").toMatchObject({ status: "aborted", steps: 0, finalText: null, runId: "run_pre" });
    expect(model.requests.length, "the model is never asked").toBe(0);
    expect(r.messages, "the caller's messages only").toEqual(USER);
    expect(r.trace.map((e) => e.type), "run_start, run_end").toEqual(["run_start", "run_end"]);
  });

  l3("an abort while the model answers a second request: aborted at once, that reply never appended, the request's signal aborted", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 25);
    const model = scriptedModel([reply.calls(["lookup", { q: "first" }]), () => new Promise(() => {})]);
    const r = await run({ model, clock, tools: [lookup()], signal: controller.signal });
    expect(r, "aborted while the model answers").toMatchObject({ status: "aborted", steps: 2, finalText: null });
    expect(clock.now(), "the run ends at the abort").toBe(25);
    expect(r.messages.slice(USER.length).map((m) => m.role), "the first step is kept; nothing for the unanswered request").toEqual(["assistant", "tool"]);
    expect(model.signals[1].aborted, "the second request's signal is aborted").toBe(true);
  });

  l2("toolChoice \"required\": a plain reply gets a reminder and the model is asked again; the run ends by $finish", async () => {
    const search = tools.ok("search", ["doc-1", "doc-2"]);
    const submit = tools.finish("submit", "ticket filed");
    const model = scriptedModel([reply.text("Let me think about it first."), reply.calls(["search", { q: "vpn" }], ["submit", { id: 3 }]), reply.text("never")]);
    const r = await run({ model, tools: [search, submit], toolChoice: "required", concurrency: Infinity });
    expect(r, "the run ends through the completion signal").toMatchObject({ status: "finished", finalText: "ticket filed", steps: 2 });
    expect(r.messages.slice(USER.length).map((m) => m.role), "the plain reply, the reminder, then the calls and their answers").toEqual(["assistant", "user", "assistant", "tool", "tool"]);
    expect(r.messages[USER.length], "the plain reply is kept as an assistant message").toEqual({ role: "assistant", content: "Let me think about it first." });
    expect(model.requests.map((q) => q.toolChoice), "toolChoice as given on every request").toEqual(["required", "required"]);
  });

  l3("an abort during a 400 ms backoff: the run ends at the abort, one execution, retries 0", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 30);
    const flaky = tools.flaky("sync_inbox", 1, "synced");
    const r = await run({ model: scriptedModel([reply.calls(["sync_inbox", {}]), reply.text("never")]), clock, tools: [flaky], signal: controller.signal, backoffBaseMs: 400 });
    expect(r, "aborted during the backoff").toMatchObject({ status: "aborted", steps: 1 });
    expect(clock.now(), "the backoff is not waited for").toBe(30);
    expect(flaky.executions, "the retry is never made").toBe(1);
    expect(toolMessages(r).map(errorCode), "the call gets aborted").toEqual(["aborted"]);
    expect((toolEvents(r) as ToolEvent[]).map((e) => [e.outcome, e.retries]), "retries 0 in the trace").toEqual([["aborted", 0]]);
  });
});

describe("5. Failures become error tool messages and the loop goes on", () => {
  l2("a tool that rejects with null is tool_error after one execution, even with retries left", async () => {
    const voidFail = spyTool("void_fail", async () => { throw null; }, { retries: 3 });
    const r = await run({ model: scriptedModel([reply.calls(["void_fail", {}], ["lookup", { q: "z" }]), reply.text("ok")]), tools: [voidFail, lookup()] });
    expect(r.status, "the run goes on and completes").toBe("completed");
    expect(toolMessages(r).map(errorCode), "null thrown: tool_error; the sibling is ok").toEqual(["tool_error", undefined]);
    expect(voidFail.executions, "a thrown null is not retryable").toBe(1);
  });

  l2("arguments that do not parse: validation failed, and the trace keeps the raw text", async () => {
    const t = spyTool("store", () => 1);
    const model = scriptedModel([reply.calls(["store", "[1, 2", "s1"], ["store", '{"q": ', "s2"]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    expect(toolMessages(r).map(errorCode), "unparseable arguments: invalid_arguments").toEqual(["invalid_arguments", "invalid_arguments"]);
    expect(t.executions, "the tool never runs").toBe(0);
    expect((toolEvents(r) as ToolEvent[]).map((e) => [e.callId, e.arguments, e.validation]), "the raw text and validation failed in the trace").toEqual([
      ["s1", "[1, 2", "failed"],
      ["s2", '{"q": ', "failed"],
    ]);
  });
});

describe("6. Timeouts and retries", () => {
  l2("options.retries applies to tools without their own: 1 gives two executions, the default three", async () => {
    const gateway = spyTool("gateway", async () => { throw transientError("502 from upstream"); });
    const once = await run({ model: scriptedModel([reply.calls(["gateway", {}]), reply.text("ok")]), tools: [gateway], retries: 1 });
    expect(gateway.executions, "retries 1: two executions").toBe(2);
    expect(toolMessages(once).map(errorCode), "retries 1: then unavailable").toEqual(["unavailable"]);
    const fallback = spyTool("gateway", async () => { throw transientError("502 from upstream"); });
    await run({ model: scriptedModel([reply.calls(["gateway", {}]), reply.text("ok")]), tools: [fallback] });
    expect(fallback.executions, "the default retries 2: three executions").toBe(3);
  });

  l3("calls that finish in time leave no timer behind and their signals stay quiet", async () => {
    const clock = new FakeClock({ autoAdvance: false });
    const a = tools.ok("alpha", 1);
    const b = spyTool("beta", async () => 2);
    const model = scriptedModel([reply.calls(["alpha", {}], ["beta", {}]), reply.calls(["beta", { again: true }]), reply.text("ok")]);
    const r = await run({ model, clock, tools: [a, b], toolTimeoutMs: 750 });
    expect(r.status, "the run completes without any time passing").toBe("completed");
    expect(clock.pending, "every timeout's sleep was cancelled").toBe(0);
    expect([...a.contexts, ...b.contexts].map((c) => c.signal.aborted), "no attempt's signal fired").toEqual([false, false, false]);
  });

  l2("a thrown error's message is describeError of it, and the trace's error is the same text", async () => {
    const parse = tools.throws("parse_feed", () => new SyntaxError("unexpected token in feed\n    at parse (/srv/feed.js:3:1)"));
    const r = await run({ model: scriptedModel([reply.calls(["parse_feed", {}, "f1"], ["missing_tool", {}, "f2"]), reply.text("ok")]), tools: [parse] });
    const envelopes = toolMessages(r).map(envelope);
    expect(envelopes[0], "the message is describeError of the thrown error").toEqual({ ok: false, error: { code: "tool_error", message: "SyntaxError: unexpected token in feed" } });
    const events = toolEvents(r) as ToolEvent[];
    for (const [i, id] of ["f1", "f2"].entries()) {
      const e = envelopes[i];
      expect(events.find((ev) => ev.callId === id)?.error, `${id}: the trace's error is the envelope's message`).toBe(e.ok ? undefined : e.error.message);
    }
  });
});

describe("9. Approval, policy gate and toolChoice", () => {
  l2("a policy that answers null, undefined, allow \"true\", throws or rejects denies; a denial without a reason still has a message", async () => {
    const asked: string[] = [];
    const transfer = spyTool("transfer", () => "sent", { dangerous: true });
    const answers: Record<number, () => PolicyDecision | Promise<PolicyDecision>> = {
      1: () => null as unknown as PolicyDecision,
      2: () => undefined as unknown as PolicyDecision,
      3: () => ({ allow: "true" }) as unknown as PolicyDecision,
      4: () => { throw new TypeError("policy store offline"); },
      5: () => Promise.reject(new Error("policy timeout")),
      6: () => ({ allow: false }) as unknown as PolicyDecision,
    };
    const model = scriptedModel([reply.calls(...[1, 2, 3, 4, 5, 6].map((n) => ["transfer", { n }] as [string, object])), reply.text("ok")]);
    const r = await run({
      model, tools: [transfer],
      policy: ({ call }: PolicyRequest) => answers[call.arguments.n as number](),
      approve: ({ call }: ApprovalRequest) => { asked.push(call.id); return true; },
    });
    expect(r.status, "the run goes on").toBe("completed");
    expect(toolMessages(r).map(errorCode), "every odd answer denies").toEqual(Array(6).fill("denied"));
    expect(transfer.executions, "a denied tool never runs").toBe(0);
    expect(asked, "approval is never asked after a denial").toEqual([]);
    const last = envelope(toolMessages(r)[5]);
    expect(!last.ok && typeof last.error.message === "string" && last.error.message.length > 0, "a denial without a reason gets a message").toBe(true);
  });

  l2("approval: false, a throw or a non-true answer is not_approved, true runs; no approve option refuses every dangerous call", async () => {
    const requests: ApprovalRequest[] = [];
    const drop = spyTool("drop_table", () => "dropped", { dangerous: true });
    const select = tools.ok("select", [{ id: 1 }]);
    const answers: Record<string, () => boolean | Promise<boolean>> = {
      a: () => false,
      b: () => { throw new Error("approver unreachable"); },
      c: () => Promise.resolve("yes" as unknown as boolean),
      d: () => Promise.resolve(true),
    };
    const model = scriptedModel([reply.calls(...["a", "b", "c", "d"].map((t) => ["drop_table", { t }, `x_${t}`] as [string, object, string]), ["select", {}, "x_s"]), reply.text("ok")]);
    const r = await run({
      model, tools: [drop, select], runId: "run_ops",
      approve: (req: ApprovalRequest) => { requests.push(structuredClone(req)); return answers[req.call.arguments.t as string](); },
    });
    expect(toolMessages(r).map(errorCode), "only an answer of true lets a dangerous tool run").toEqual(["not_approved", "not_approved", "not_approved", undefined, undefined]);
    expect(drop.executions, "the dangerous tool ran once, for the approved call").toBe(1);
    expect(requests.map((q) => q.call.id), "approve is asked once per dangerous call, never about select").toEqual(["x_a", "x_b", "x_c", "x_d"]);
    expect(requests[3], "approve gets the run id and the call with parsed arguments").toEqual({ runId: "run_ops", call: { id: "x_d", name: "drop_table", arguments: { t: "d" } } });

    const unguarded = spyTool("drop_table", () => "dropped", { dangerous: true });
    const none = await run({ model: scriptedModel([reply.calls(["drop_table", { t: "e" }]), reply.text("ok")]), tools: [unguarded] });
    expect(toolMessages(none).map(errorCode), "no approve option: not_approved").toEqual(["not_approved"]);
    expect(unguarded.executions, "no approve option: the dangerous tool never runs").toBe(0);
  });

  l3("an approval that never answers holds the call until the abort: aborted, the tool never runs", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 35);
    const deploy = spyTool("deploy", () => "deployed", { dangerous: true });
    const r = await run({
      model: scriptedModel([reply.calls(["deploy", { env: "prod" }]), reply.text("never")]), clock, tools: [deploy],
      signal: controller.signal, approve: () => new Promise<boolean>(() => {}),
    });
    expect(r, "the abort ends the run").toMatchObject({ status: "aborted", steps: 1 });
    expect(toolMessages(r).map(errorCode), "the waiting call gets aborted, not not_approved").toEqual(["aborted"]);
    expect(deploy.executions, "the tool never runs").toBe(0);
    expect(clock.now(), "the run ends at the abort").toBe(35);
  });

  l2("the policy's history lists a call whose result had no JSON text as executed", async () => {
    const seen: Array<{ step: number; history: unknown }> = [];
    const exporter = tools.ok("export", { rows: 3n });
    const model = scriptedModel([reply.calls(["export", { fmt: "csv" }]), reply.calls(["notify", { to: "ops" }]), reply.text("ok")]);
    const r = await run({
      model, tools: [exporter, tools.ok("notify", "sent")],
      policy: ({ step, history }: PolicyRequest) => { seen.push({ step, history: structuredClone(history) }); return { allow: true }; },
    });
    expect(toolMessages(r).map(errorCode), "a BigInt in the result: tool_error").toEqual(["tool_error", undefined]);
    expect(seen.map((s) => s.step), "the policy is asked once per call").toEqual([1, 2]);
    expect(seen[0].history, "step 1: no earlier step").toEqual([]);
    // Whether such a call counts as ok is not the point here: the tool ran, so it is in the history.
    expect(seen[1].history, "step 2's policy sees the executed export call").toMatchObject([{ name: "export", arguments: { fmt: "csv" } }]);
    expect(typeof (seen[1].history as Array<{ ok: unknown }>)[0]?.ok, "with its ok flag").toBe("boolean");
  });
});

describe("10. Trace: events for every step and tool call, with the run id", () => {
  l2("calls refused as repeated_call get their tool_call events: not_checked, retries 0, the envelope's error", async () => {
    const sum = spyTool("sum", (args) => (args.x as number) + (args.y as number));
    const model = scriptedModel([reply.calls(["sum", { x: 1, y: 2 }, "r1"]), reply.calls(["sum", '{"y":2,"x":1}', "r2"], ["lookup", { q: "s" }, "r3"]), reply.text("never")]);
    const r = await run({ model, tools: [sum, lookup()], maxRepeatedCalls: 2, runId: "run_rep" });
    expect(r.status, "the second identical call in a row ends the run").toBe("repeated_call");
    const events = toolEvents(r) as ToolEvent[];
    expect(events.length, "one tool_call event per tool message").toBe(toolMessages(r).length);
    const refused = events.filter((e) => e.step === 2);
    expect(refused.map((e) => [e.type, e.runId, e.callId, e.validation, e.outcome, e.retries]).sort(), "each refused call's event").toEqual([
      ["tool_call", "run_rep", "r2", "not_checked", "repeated_call", 0],
      ["tool_call", "run_rep", "r3", "not_checked", "repeated_call", 0],
    ]);
    for (const e of refused) {
      const m = toolMessages(r).find((t) => t.tool_call_id === e.callId);
      const env = m && envelope(m);
      expect(e.error, `${e.callId}: the event's error is the envelope's message`).toBe(env && !env.ok ? env.error.message : "no envelope");
    }
  });
});
