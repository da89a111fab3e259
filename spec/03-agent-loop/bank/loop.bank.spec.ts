// Held-out bank, kata 3, tasks 1-4 and 9-10: the loop, its history, concurrency, stops, gates
// and trace, on conversations the visible specs do not use. The candidate pack leaves it out.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { l1, l2, l3 } from "../../support/graded.ts";
import { CN_PHONE, EMAIL, FakeClock, reply, scriptedModel, spyTool, tools } from "../../support/agent-harness/index.ts";
import { assistantMessages, envelope, errorCode, run, toolEvents, toolMessages, USER } from "../helpers.ts";

const add = () => spyTool("add", (args) => (args.a as number) + (args.b as number), {
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
});

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
  l1("two steps of calls, JSON-text arguments, then a plain answer", async () => {
    const tool = add();
    const model = scriptedModel([
      reply.calls(["add", '{"a": 2, "b": 3}']),
      reply.calls(["add", { a: 5, b: 10 }]),
      reply.text("15"),
    ]);
    const r = await run({ model, tools: [tool] });
    expect(r, "two steps of calls, then a plain answer: completed").toMatchObject({ status: "completed", finalText: "15", steps: 3 });
    expect(tool.calls, "JSON-text and object arguments reach the tool as objects").toEqual([{ a: 2, b: 3 }, { a: 5, b: 10 }]);
    expect(toolMessages(r).map((m) => envelope(m)), "each result in its ok envelope").toEqual([{ ok: true, data: 5 }, { ok: true, data: 15 }]);
    expect(r.messages.map((m) => m.role), "the history's roles in order").toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]);
  });

  l2("normalising replies: null content is \"\", bad usage counts are 0, an empty tool_calls is a plain answer", async () => {
    const model = scriptedModel([
      { content: null, tool_calls: [{ id: "a", name: "add", arguments: { a: 1, b: 1 } }], usage: { input_tokens: -5, output_tokens: 7 } },
      { content: "done", tool_calls: [], usage: { input_tokens: Number.NaN, output_tokens: "3" as unknown as number } },
    ]);
    const r = await run({ model, tools: [add()] });
    expect(r, "normalised replies: an empty tool_calls is a plain answer").toMatchObject({ status: "completed", finalText: "done", steps: 2 });
    expect(r.usage, "negative and NaN counts are 0").toEqual({ input_tokens: 0, output_tokens: 7, total_tokens: 7 });
    expect(assistantMessages(r)[0].content, "null content becomes \"\"").toBe("");
    expect(assistantMessages(r)[1], "a plain answer has no tool_calls key").toEqual({ role: "assistant", content: "done" });
  });
});

describe("2. History: one assistant message with all its calls, then one tool message per call", () => {
  l2("a duplicate id in a reply and an id used in an earlier step are replaced by call_<step>_<index>", async () => {
    const model = scriptedModel([
      reply.calls(["add", { a: 1, b: 1 }, "dup"], ["add", { a: 2, b: 2 }, "dup"]),
      reply.calls(["add", { a: 3, b: 3 }, "dup"], ["add", { a: 4, b: 4 }, ""]),
      reply.text("ok"),
    ]);
    const r = await run({ model, tools: [add()] });
    const ids = assistantMessages(r).flatMap((m) => ("tool_calls" in m && m.tool_calls ? m.tool_calls.map((c) => c.id) : []));
    expect(ids, "a duplicate id and an id used in an earlier step get call_<step>_<index>").toEqual(["dup", "call_1_1", "call_2_0", "call_2_1"]);
    expect(toolMessages(r).map((m) => m.tool_call_id), "tool messages answer the replaced ids").toEqual(ids);
    expect(r.messages.slice(USER.length).map((m) => m.role), "one assistant message per reply, one tool message per call").toEqual(["assistant", "tool", "tool", "assistant", "tool", "tool", "assistant"]);
  });

  l2.property("any return value comes back in the envelope { ok: true, data }, undefined as null", async () => {
    const value = fc.oneof(fc.constant(undefined), fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 6 }),
      fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }));
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        const r = await run({ model: scriptedModel([reply.calls(["v", {}]), reply.text("ok")]), tools: [spyTool("v", () => v)] });
        const [m] = toolMessages(r);
        expect(m.is_error, "a returned value is an ok envelope").toBe(false);
        expect(JSON.parse(m.content), "any return value comes back as data, undefined as null").toEqual({ ok: true, data: v === undefined ? null : v });
      }),
    );
  });
});

describe("3. Concurrency: independent calls of one step run at the same time", () => {
  l2("seven 50 ms calls with concurrency 3 take 150 ms, never more than 3 in flight", async () => {
    const clock = new FakeClock();
    const tool = tools.slow("s", clock, 50);
    const model = scriptedModel([reply.calls(...Array.from({ length: 7 }, (_, i) => ["s", { i }] as [string, object])), reply.text("ok")]);
    const r = await run({ model, tools: [tool], clock, concurrency: 3 });
    expect(clock.now(), "seven 50 ms calls, 3 at a time: 150 ms").toBe(150);
    expect(tool.maxInFlight, "the concurrency cap of 3").toBe(3);
    expect(toolMessages(r).map((m) => JSON.parse(m.content).ok), "every call ok").toEqual(Array(7).fill(true));
  });
});

describe("4. Stops: every way a run ends is a status", () => {
  l2("max_steps is checked before the budget: both reached gives max_steps", async () => {
    const model = scriptedModel([reply.withUsage(reply.calls(["add", { a: 1, b: 2 }]), 500, 500), reply.text("never")]);
    const r = await run({ model, tools: [add()], maxSteps: 1, tokenBudget: 10 });
    expect(r, "max_steps is checked before the budget").toMatchObject({ status: "max_steps", steps: 1, finalText: null });
    expect(toolMessages(r), "the last reply's call was answered").toHaveLength(1);
  });

  l2("maxRepeatedCalls 2 across steps: none of the repeating reply's calls run, each gets repeated_call", async () => {
    const tool = add();
    const other = tools.ok("other");
    const model = scriptedModel([
      reply.calls(["add", { a: 1, b: 2 }]),
      reply.calls(["add", '{"b":2,"a":1}'], ["other", {}]),
      reply.text("never"),
    ]);
    const r = await run({ model, tools: [tool, other], maxRepeatedCalls: 2 });
    expect(r.status, "maxRepeatedCalls 2 across steps: repeated_call").toBe("repeated_call");
    expect(tool.executions, "only the first of the repeated calls ran").toBe(1);
    expect(other.executions, "none of the repeating reply's calls run").toBe(0);
    expect(toolMessages(r).slice(1).map(errorCode), "each call of the repeating reply gets repeated_call").toEqual(["repeated_call", "repeated_call"]);
  });

  l2("two finishing calls: the first in call order wins, even when it finishes last", async () => {
    const clock = new FakeClock();
    const slowFinish = spyTool("f1", async (_a, ctx) => { await clock.sleep(100, ctx.signal); return { $finish: `mail ${EMAIL}` }; });
    const fastFinish = tools.finish("f2", "second");
    const r = await run({ model: scriptedModel([reply.calls(["f1", {}], ["f2", {}])]), tools: [slowFinish, fastFinish], clock });
    expect(r, "the first finishing call in call order wins, though it finished last").toMatchObject({ status: "finished", finalText: "mail [email]", steps: 1 });
    expect(toolMessages(r), "both calls get their messages").toHaveLength(2);
  });

  l2("three finishing calls behind ordinary ones: the first finisher in call order wins, though it finishes second", async () => {
    const clock = new FakeClock();
    const finisher = (name: string, ms: number, answer: string) =>
      spyTool(name, async (_a, ctx) => { await clock.sleep(ms, ctx.signal); return { $finish: answer }; });
    // A number under $finish is data; a $finish beside a BigInt has no JSON text: tool_error, ends nothing.
    const note = tools.ok("note", { $finish: 1 });
    const bad = spyTool("bad", () => ({ $finish: "from bad", n: 10n }));
    // With 3 slots, f_fast and f_slow start as soon as note and bad settle: finishers settle f_fast (5), f_mid (40), f_slow (80).
    const model = scriptedModel([reply.calls(["note", {}, "n0"], ["bad", {}, "b1"], ["f_mid", {}, "m2"], ["f_fast", {}, "q3"], ["f_slow", {}, "s4"]), reply.text("never")]);
    const r = await run({
      model, clock, concurrency: 3,
      tools: [note, bad, finisher("f_mid", 40, `call me on ${CN_PHONE}`), finisher("f_fast", 5, "fast one"), finisher("f_slow", 80, "slow one")],
    });
    const settled = toolEvents(r).map((e) => (e as { callId: string }).callId).filter((id) => ["m2", "q3", "s4"].includes(id));
    expect(settled, "the finishers settle fast, mid, slow").toEqual(["q3", "m2", "s4"]);
    expect(r, "the first finishing call in call order wins, masked").toMatchObject({ status: "finished", finalText: "call me on [phone]", steps: 1 });
    expect(toolMessages(r).map(errorCode), "every call gets its message; only the unserialisable one is an error").toEqual([undefined, "tool_error", undefined, undefined, undefined]);
  });

  l3("an abort while two calls of the step have finished with $finish and a third still runs: aborted, no answer", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    void clock.sleep(45).then(() => controller.abort());
    const publish = spyTool("publish", async (_a, ctx) => { await clock.sleep(15, ctx.signal); return { $finish: "posted" }; });
    const poll = tools.hang("poll");
    const model = scriptedModel([reply.calls(["poll", {}], ["publish", {}], ["notify", {}]), reply.text("never")]);
    const r = await run({ model, clock, signal: controller.signal, tools: [poll, publish, tools.finish("notify", "notified")] });
    expect(r, "after a step, aborted comes before finished").toMatchObject({ status: "aborted", finalText: null, steps: 1 });
    expect(toolMessages(r).map(errorCode), "the finishing calls keep their results; the running one gets aborted").toEqual(["aborted", undefined, undefined]);
    expect(clock.now(), "the run ends at the abort").toBe(45);
    expect(model.requests, "the model is not asked again").toHaveLength(1);
  });

  l3("an abort while three calls wait for a slot: none of them runs a gate, asks the policy or approval, or executes", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    void clock.sleep(80).then(() => controller.abort());
    const slow = tools.slow("slow", clock, 500);
    const risky = tools.ok("risky", 1, { dangerous: true });
    const asked: string[] = [];
    const model = scriptedModel([reply.calls(["slow", { n: 1 }, "w1"], ["slow", { n: 2 }, "w2"], ["ghost_tool", {}, "w3"], ["add", { a: "x" }, "w4"], ["risky", {}, "w5"])]);
    const r = await run({
      model, clock, concurrency: 2, signal: controller.signal, tools: [slow, risky, add()],
      policy: ({ call }) => { asked.push(call.id); return { allow: true }; },
      approve: () => { asked.push("approve"); return true; },
    });
    expect(r, "the abort ends the run").toMatchObject({ status: "aborted", steps: 1 });
    expect(toolMessages(r).map(errorCode), "running and waiting calls all get aborted, whatever gate they would fail").toEqual(["aborted", "aborted", "aborted", "aborted", "aborted"]);
    expect(asked, "the policy was asked only for the two calls that held a slot").toEqual(["w1", "w2"]);
    expect([slow.executions, risky.executions], "the two running calls executed; the waiting ones never").toEqual([2, 0]);
    expect(clock.now(), "nothing was waited for after the abort").toBe(80);
    const waiting = (toolEvents(r) as Array<{ callId: string; validation: string; retries: number }>).filter((e) => ["w3", "w4", "w5"].includes(e.callId));
    expect(waiting.map((e) => [e.callId, e.validation, e.retries]).sort(), "the waiting calls' events: not_checked, retries 0").toEqual([["w3", "not_checked", 0], ["w4", "not_checked", 0], ["w5", "not_checked", 0]]);
  });

  l3("an abort during a step: finished calls keep their results, unfinished ones get aborted", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const hang = tools.hang("hang");
    const quick = tools.ok("quick", 1);
    const trigger = spyTool("trigger", async (_a, ctx) => { await clock.sleep(10, ctx.signal); controller.abort(); return 2; });
    const model = scriptedModel([reply.calls(["quick", {}], ["hang", {}], ["trigger", {}])]);
    const r = await run({ model, tools: [quick, hang, trigger], clock, signal: controller.signal });
    expect(r, "an abort during a step: status aborted").toMatchObject({ status: "aborted", finalText: null, steps: 1 });
    expect(toolMessages(r).map(errorCode), "finished calls keep their results, the hanging one gets aborted").toEqual([undefined, "aborted", expect.anything()]);
    expect(hang.contexts[0].signal.aborted, "the hanging tool's ctx.signal fires on abort").toBe(true);
  });
});

describe("9. Approval, policy gate and toolChoice", () => {
  l2("gate order: unknown before tool_choice, invalid_arguments before the policy, denied before approval", async () => {
    const none = await run({ model: scriptedModel([reply.calls(["nope", {}], ["add", { a: 1, b: 1 }]), reply.text("ok")]), tools: [add()], toolChoice: "none" });
    expect(toolMessages(none).map(errorCode), "unknown_tool comes before tool_choice").toEqual(["unknown_tool", "tool_choice"]);
    const asked: string[] = [];
    const danger = tools.ok("danger", "boom", { dangerous: true });
    const r = await run({
      model: scriptedModel([reply.calls(["add", { a: "x" }], ["danger", {}]), reply.text("ok")]), tools: [add(), danger],
      policy: ({ call }) => { asked.push(`policy ${call.name}`); return { allow: false, reason: "not today" }; },
      approve: () => { asked.push("approve"); return true; },
    });
    expect(toolMessages(r).map(errorCode), "invalid_arguments before the policy, denied before approval").toEqual(["invalid_arguments", "denied"]);
    expect(asked, "the policy is asked only for calls past the argument check; approve never after a denial").toEqual(["policy danger"]);
    expect(danger.executions, "a denied tool never runs").toBe(0);
  });

  l2("the policy's history lists executed calls of earlier steps with ok, not refused ones", async () => {
    const seen: unknown[] = [];
    const model = scriptedModel([
      reply.calls(["add", { a: 1, b: 1 }], ["boom", {}], ["nope", {}]),
      reply.calls(["add", { a: 2, b: 2 }]),
      reply.text("ok"),
    ]);
    await run({
      model, tools: [add(), tools.throws("boom")],
      policy: ({ step, history }) => { seen.push({ step, history: structuredClone(history) }); return { allow: true }; },
    });
    expect(seen, "the policy's history lists executed calls of earlier steps with ok").toEqual([
      { step: 1, history: [] }, { step: 1, history: [] },
      { step: 2, history: [{ name: "add", arguments: { a: 1, b: 1 }, ok: true }, { name: "boom", arguments: {}, ok: false }] },
    ]);
  });

  l2("a call whose approval takes a while holds its slot while its siblings run: their policies still see earlier steps only", async () => {
    const clock = new FakeClock();
    const histories: Record<string, unknown[]> = {};
    const deploy = tools.ok("deploy", "deployed", { dangerous: true });
    const lint = tools.ok("lint", "clean");
    const check = tools.throws("check", () => new Error("2 checks failed"));
    const model = scriptedModel([
      reply.calls(["checkout", { ref: "main" }, "c0"]),
      reply.calls(["deploy", { env: "prod" }, "d1"], ["lint", {}, "l1"], ["check", {}, "t1"], ["rm", { all: true }, "x1"], ["nope", {}, "u1"], ["lint", { fix: true }, "l2"]),
      reply.calls(["release", {}, "r2"]),
      reply.text("ok"),
    ]);
    const r = await run({
      model, clock, concurrency: 2,
      tools: [tools.ok("checkout", "checked out"), deploy, lint, check, tools.ok("rm", "gone"), tools.ok("release", "v1")],
      approve: async () => { await clock.sleep(50); return true; },
      policy: ({ call, history }) => {
        histories[call.id] = structuredClone(history);
        return call.name === "rm" ? { allow: false, reason: "never" } : { allow: true };
      },
    });
    expect(toolMessages(r).map(errorCode), "deploy, lint, check ran; rm denied; nope unknown").toEqual([undefined, undefined, undefined, "tool_error", "denied", "unknown_tool", undefined, undefined]);
    expect(lint.executions, "both lint calls ran while deploy waited for its approval").toBe(2);
    const step1 = [{ name: "checkout", arguments: { ref: "main" }, ok: true }];
    for (const id of ["d1", "l1", "t1", "x1", "l2"]) expect(histories[id], `${id}: only the executed calls of step 1, none of its own step`).toEqual(step1);
    const sorted = (h: unknown[]) => h.map((x) => JSON.stringify(x)).sort();
    expect(sorted(histories.r2), "step 3: every call that executed in steps 1 and 2, the failed one with ok false").toEqual(sorted([
      ...step1,
      { name: "deploy", arguments: { env: "prod" }, ok: true },
      { name: "lint", arguments: {}, ok: true },
      { name: "check", arguments: {}, ok: false },
      { name: "lint", arguments: { fix: true }, ok: true },
    ]));
  });

  l3("toolChoice {name}: a plain reply gets a reminder; the named tool runs; other tools are refused", async () => {
    const finish = tools.finish("submit", "all done");
    const model = scriptedModel([reply.text("I think..."), reply.calls(["add", { a: 1, b: 1 }], ["submit", {}])]);
    const r = await run({ model, tools: [add(), finish], toolChoice: { name: "submit" } });
    expect(r, "toolChoice { name }: the named tool's $finish ends the run").toMatchObject({ status: "finished", finalText: "all done", steps: 2 });
    expect(r.messages.slice(USER.length, USER.length + 2).map((m) => m.role), "a plain reply is followed by a reminder").toEqual(["assistant", "user"]);
    expect(toolMessages(r).map(errorCode), "other tools are refused with tool_choice").toEqual(["tool_choice", undefined]);
    for (const req of model.requests) expect(req.toolChoice, "toolChoice is passed as given on every request").toEqual({ name: "submit" });
  });
});

describe("10. Trace: events for every step and tool call, with the run id", () => {
  l2("durationMs under a cap of 2: each call's own time from when a slot takes it, not from the step's start", async () => {
    const clock = new FakeClock();
    const timed = (name: string, ms: number) => tools.slow(name, clock, ms, ms);
    const model = scriptedModel([reply.calls(["p40", {}, "d0"], ["p70", {}, "d1"], ["p30", {}, "d2"], ["p50", {}, "d3"]), reply.text("ok")]);
    const r = await run({ model, clock, concurrency: 2, tools: [timed("p40", 40), timed("p70", 70), timed("p30", 30), timed("p50", 50)] });
    const events = Object.fromEntries((toolEvents(r) as Array<{ callId: string; durationMs: number; at: number }>).map((e) => [e.callId, [e.durationMs, e.at]]));
    // d2 takes the slot d0 frees at 40, d3 the one d1 frees at 70.
    expect(events, "durationMs counts from when a slot takes the call; at is when it settled").toEqual({ d0: [40, 40], d1: [70, 70], d2: [30, 70], d3: [50, 120] });
  });
  l2("validation ok / failed / not_checked, outcome codes and the duration of a slow call", async () => {
    const clock = new FakeClock();
    const slow = tools.slow("slow", clock, 70);
    const model = scriptedModel([reply.calls(["slow", {}], ["add", { a: "x" }], ["nope", { z: 1 }]), reply.text("ok")]);
    const r = await run({ model, tools: [slow, add()], clock, runId: "run_bank" });
    const events = toolEvents(r) as Array<Record<string, unknown>>;
    const byName = Object.fromEntries(events.map((e) => [e.name, e]));
    expect(byName.slow, "a slow call's event: validation ok, retries 0, its duration").toMatchObject({ validation: "ok", outcome: "ok", retries: 0, durationMs: 70, step: 1, runId: "run_bank" });
    expect(byName.add, "a schema failure's event: validation failed, canonical arguments").toMatchObject({ validation: "failed", outcome: "invalid_arguments", arguments: '{"a":"x"}' });
    expect(byName.nope, "an unknown tool's event: not_checked").toMatchObject({ validation: "not_checked", outcome: "unknown_tool" });
    expect(r.trace.map((e) => e.type), "run_start, step, a tool_call per call, step, run_end").toEqual(["run_start", "step", "tool_call", "tool_call", "tool_call", "step", "run_end"]);
    expect(r.trace.at(-1), "run_end: status and steps").toMatchObject({ status: "completed", steps: 2 });
  });
});
