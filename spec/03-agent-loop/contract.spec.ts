// Rules the README states for the corners a first reading leaves open: option values, ids that
// collide, an observer that throws, callbacks that never answer, what an abort does to calls that
// had not started, canonical JSON of undefined members, and argument errors that must never quote
// the model's raw text. One rule per test; every assertion says which rule it checks.
import fc from "fast-check";
import { describe, expect, vi } from "vitest";
import {
  canonicalJson,
  checkArguments,
  describeError,
  parseArguments,
  toAnthropicMessages,
  type AgentOptions,
  type Message,
  type TraceEvent,
} from "@impl/03-agent-loop";
import { l2, l3 } from "../support/graded.ts";
import { FakeClock, reply, scriptedModel, spyTool, tools, transientError } from "../support/agent-harness/index.ts";
import { leakedPieces } from "../support/leaks.ts";
import { abortAt, assistantMessages, envelope, errorCode, freshUser, run, toolEvents, toolMessages } from "./helpers.ts";

type ToolEvent = Extract<TraceEvent, { type: "tool_call" }>;

/**
 * Runs with `options` and checks the documented refusal: a RangeError naming `option`, and
 * nothing happened first (no model request, no trace event).
 */
async function expectRefused(option: string, options: Partial<AgentOptions>, label: string): Promise<void> {
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

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
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

describe("4. Stops: every way a run ends is a status", () => {
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

describe("5. Failures become error tool messages and the loop goes on", () => {
  l2("a result with no JSON text (a function, a symbol, a BigInt beside $finish) is tool_error and ends nothing", async () => {
    const model = scriptedModel([reply.calls(["fn", {}], ["sym", {}], ["big", {}]), reply.text("went on")]);
    const r = await run({
      model,
      tools: [spyTool("fn", () => () => 1), spyTool("sym", () => Symbol("s")), spyTool("big", () => ({ $finish: "done", n: 10n }))],
    });
    expect(toolMessages(r).map(errorCode), "a function, a symbol, a BigInt: tool_error").toEqual(["tool_error", "tool_error", "tool_error"]);
    expect(r.status, "a $finish in a result that cannot be serialised does not finish the run").toBe("completed");
  });

  l2("parseArguments: text blank after trim() and JSON null with spaces around are {}", () => {
    for (const text of ["\n\t ", " null ", "\r\nnull\n"]) {
      expect(parseArguments(text), `${JSON.stringify(text)} means no arguments`).toEqual({ ok: true, value: {} });
    }
  });

  l2("checkArguments: a wrong type is the one problem reported for that value (no enum problem beside it)", () => {
    const problems = checkArguments({ type: "string", enum: ["a", "b"] }, 7);
    expect(problems.map((p) => p.path), "one problem, at the value's own path").toEqual([""]);
  });

  l3.property("an argument error never quotes the model's raw text: no piece of a planted secret reaches the messages or the trace", async () => {
    // Secrets whose every 4-character piece is distinctive: none can come from elsewhere in a run.
    const secrets = ["sk-Zq8Xv3Lw9Pk2Rt7Yh4Nm6Bc1", "ghp_Jw3Qz8Vx1Ty6Ub4Nk9Lm2Rp7Hs5", "AKIAQZJXWVKYUTRP7M3N"];
    const shapes: Array<(s: string) => string> = [
      (s) => `{"token": ${s}}`,
      (s) => `{"token": "${s}`,
      (s) => `{"token": "${s}" "more"}`,
      (s) => `{${s}: 1}`,
      (s) => `["${s}"`,
      (s) => `{"a": 1, "token": "${s}"}}`,
      (s) => `{"token": '${s}'}`,
      (s) => `{"a": [1, 2, "${s}", }`,
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...secrets), fc.constantFrom(...shapes), fc.string({ maxLength: 6, unit: fc.constantFrom(" ", "x", "1", "\n") }), async (secret, shape, pad) => {
        const text = pad + shape(secret);
        const parsed = parseArguments(text);
        expect(parsed.ok, `${JSON.stringify(text)} is not a JSON object`).toBe(false);
        const message = parsed.ok ? "" : parsed.message;
        expect(leakedPieces(message, secret), `pieces of the raw text parseArguments' message quotes: ${message}`).toEqual([]);
        const r = await run({ model: scriptedModel([reply.calls(["t", text, "c1"]), reply.text("ok")]), tools: [tools.ok("t")], runId: "run_leak" });
        expect(toolMessages(r).map(errorCode), "malformed arguments: invalid_arguments").toEqual(["invalid_arguments"]);
        const written = JSON.stringify([toolMessages(r), r.trace]);
        expect(leakedPieces(written, secret), "pieces of the raw arguments the tool message or trace quotes").toEqual([]);
      }),
    );
  });
});

describe("6. Timeouts and retries", () => {
  l2("each attempt gets a signal of its own: a retry does not start with the timed-out attempt's aborted signal", async () => {
    const abortedAtStart: boolean[] = [];
    const t = spyTool("t", (_args, ctx) => {
      abortedAtStart.push(ctx.signal.aborted);
      return new Promise(() => {});
    }, { timeoutMs: 30, retries: 1 });
    const r = await run({ model: scriptedModel([reply.calls(["t", {}]), reply.text("ok")]), tools: [t], backoffBaseMs: 5 });
    expect(abortedAtStart, "neither attempt starts with an aborted signal").toEqual([false, false]);
    expect(t.contexts.map((c) => c.signal.aborted), "each timed-out attempt's own signal fired").toEqual([true, true]);
    expect(toolMessages(r).map(errorCode), "two timeouts with one retry: unavailable").toEqual(["unavailable"]);
  });
});

describe("8. Isolation: masking and clean error text", () => {
  l2("a path in a tool's result is data: it comes back as it is (only error text loses its paths)", async () => {
    const listing = { files: ["/srv/reports/2024-q3.csv", "./notes/todo.md"], root: "C:\\data" };
    const r = await run({ model: scriptedModel([reply.calls(["ls", {}]), reply.text("ok")]), tools: [tools.ok("ls", listing)] });
    expect(envelope(toolMessages(r)[0]), "results are masked, not scrubbed of paths").toEqual({ ok: true, data: listing });
  });

  l2("describeError: a line ends at \\n, \\r\\n or \\r", () => {
    expect(describeError(new Error("first\rsecond")), "a lone \\r ends the first line").toBe("Error: first");
    expect(describeError("one\r\ntwo"), "\\r\\n ends the first line").toBe("one");
  });
});

describe("9. Approval, policy gate and toolChoice", () => {
  l2("approve is asked once per call, not once per attempt: retries of an approved call are not asked again", async () => {
    const approve = vi.fn(() => true);
    const t = tools.flaky("deploy", 2, "deployed", { dangerous: true });
    const r = await run({ model: scriptedModel([reply.calls(["deploy", {}]), reply.text("ok")]), tools: [t], approve, retries: 2 });
    expect(t.executions, "the flaky tool ran three times").toBe(3);
    expect(approve, "one approval for the call").toHaveBeenCalledTimes(1);
    expect(envelope(toolMessages(r)[0]), "the third attempt's result").toEqual({ ok: true, data: "deployed" });
  });
});

describe("10. Trace: events for every step and tool call, with the run id", () => {
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

describe("11. Adapters: the history in OpenAI and Anthropic formats", () => {
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
