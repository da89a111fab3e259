// Rules of the README that the other specs left unpinned, found by mutation testing
// (npm run mutate; docs/mutation-report.md). Each test checks a sentence of the README, never a
// detail of the reference that the README leaves open.
import { describe, expect, vi } from "vitest";
import {
  checkArguments,
  describeError,
  maskSecrets,
  systemClock,
  toAnthropicMessages,
  toOpenAIMessages,
  truncateText,
  type JsonSchema,
  type Message,
  type ModelReply,
} from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../support/graded.ts";
import { activeTimers } from "../support/realm.ts";
import { FakeClock, reply, scriptedModel, spyTool, tools } from "../support/agent-harness/index.ts";
import { USER, assistantMessages, envelope, errorCode, run, toolEvents, toolMessages } from "./helpers.ts";

/** A controller whose abort fires at fake time `at` (the fake clock runs its timers in time order). */
function abortAt(clock: FakeClock, at: number): AbortController {
  const controller = new AbortController();
  void clock.sleep(at).then(() => controller.abort());
  return controller;
}

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
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
});

describe("2. History: one assistant message with all its calls, then one tool message per call", () => {
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
});

describe("4. Stops: every way a run ends is a status", () => {
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
});

describe("5. Failures become error tool messages and the loop goes on", () => {
  l2("arguments that do not parse are refused even when the schema checks nothing; the trace keeps the raw text", async () => {
    const f = spyTool("f", () => 1, { parameters: {} });
    const model = scriptedModel([reply.calls(["f", "{not json"]), reply.text("ok")]);
    const r = await run({ model, tools: [f] });
    expect(toolMessages(r).map(errorCode), "unparseable arguments: invalid_arguments even with an empty schema").toEqual(["invalid_arguments"]);
    expect(f.executions, "the tool does not run on unparseable arguments").toBe(0);
    const [event] = toolEvents(r) as Array<{ arguments: string; validation: string; outcome: string }>;
    expect([event.arguments, event.validation, event.outcome], "the trace keeps the raw text, validation failed, outcome invalid_arguments").toEqual(["{not json", "failed", "invalid_arguments"]);
  });

  l1("a policy that allows the call lets the tool run", async () => {
    const f = tools.ok("f", { v: 1 });
    const policy = vi.fn(() => ({ allow: true as const }));
    const r = await run({ model: scriptedModel([reply.calls(["f", { x: 1 }, "c1"]), reply.text("ok")]), tools: [f], policy });
    expect(f.executions, "an allowed call runs").toBe(1);
    expect(toolMessages(r).map(envelope), "an allowed call's result comes back").toEqual([{ ok: true, data: { v: 1 } }]);
    expect(policy, "the policy is asked once per call").toHaveBeenCalledTimes(1);
  });

  l2("a policy answering null or undefined denies, and the run does not reject", async () => {
    const f = tools.ok("f", 1);
    const answers = [null, undefined];
    const policy = vi.fn(() => answers.shift() as never);
    const model = scriptedModel([reply.calls(["f", { n: 1 }], ["f", { n: 2 }]), reply.text("ok")]);
    const r = await run({ model, tools: [f], policy, concurrency: 1 });
    expect(r.status, "a null or undefined policy answer does not reject the run").toBe("completed");
    expect(toolMessages(r).map(errorCode), "a null or undefined policy answer denies").toEqual(["denied", "denied"]);
    expect(f.executions, "a denied call never runs").toBe(0);
  });

  l2("a tool that throws null or undefined: tool_error, and the loop goes on", async () => {
    const model = scriptedModel([reply.calls(["n", {}], ["u", {}]), reply.text("ok")]);
    const thrower = (value: unknown) =>
      spyTool(value === null ? "n" : "u", () => {
        throw value;
      });
    const r = await run({ model, tools: [thrower(null), thrower(undefined)] });
    expect(r.status, "throwing null or undefined does not stop the loop").toBe("completed");
    expect(toolMessages(r).map(errorCode), "a thrown null or undefined: tool_error").toEqual(["tool_error", "tool_error"]);
  });

  l3("a result that cannot be serialised counts as a failed execution in the policy's history", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const seen: unknown[] = [];
    const policy = (req: { history: unknown[] }) => {
      seen.push(structuredClone(req.history));
      return { allow: true as const };
    };
    const model = scriptedModel([reply.calls(["loop", { a: 1 }]), reply.calls(["f", {}]), reply.text("ok")]);
    const r = await run({ model, policy, tools: [spyTool("loop", () => cyclic), tools.ok("f", 1)] });
    expect(toolMessages(r).map(errorCode), "an unserialisable result is tool_error; the next call runs").toEqual(["tool_error", undefined]);
    expect(seen, "the policy's history records the unserialisable result as ok: false").toEqual([[], [{ name: "loop", arguments: { a: 1 }, ok: false }]]);
  });

  l2("checkArguments: paths are JSON Pointers, ~ written ~0 and / written ~1", () => {
    const schema: JsonSchema = {
      type: "object",
      required: ["a/b", "c~d"],
      properties: { "x/y": { type: "string" } },
      additionalProperties: false,
    };
    const problems = checkArguments(schema, { "x/y": 1, "e~f": true });
    expect(problems.map((p) => p.path).sort(), "paths are JSON Pointers: ~ is ~0, / is ~1").toEqual(["/a~1b", "/c~0d", "/e~0f", "/x~1y"]);
    expect(checkArguments({ type: "object", properties: { "a/b": { type: "object", required: ["~"] } } }, { "a/b": {} }).map((p) => p.path), "escapes apply at every level of the pointer").toEqual([
      "/a~1b/~0",
    ]);
  });

  l2("checkArguments: required, properties and additionalProperties only look at objects", () => {
    const schema: JsonSchema = { required: ["a"], properties: { a: { type: "string" } }, additionalProperties: false };
    for (const value of ["text", 42, true, null, [], ["x", "y"]]) expect(checkArguments(schema, value), JSON.stringify(value)).toEqual([]);
    expect(checkArguments(schema, { a: 1, b: 2 }).map((p) => p.path).sort(), "properties and additionalProperties apply to objects").toEqual(["/a", "/b"]);
    expect(checkArguments(schema, {}).map((p) => p.path), "required applies to objects").toEqual(["/a"]);
  });

  l2("checkArguments: items only looks at arrays, and an array schema without items accepts any elements", () => {
    expect(checkArguments({ items: { type: "string" } }, { a: 1 }), "items ignores a value that is not an array").toEqual([]);
    expect(checkArguments({ type: "array" }, [1, "x", null]), "an array schema without items accepts any elements").toEqual([]);
    expect(checkArguments({ type: "array", items: { type: "string" } }, ["a", 2]).map((p) => p.path), "items checks each element at /index").toEqual(["/1"]);
  });
});

describe("6. Timeouts and retries", () => {
  l2("with retries 0 a timeout keeps its own code: timeout", async () => {
    const model = scriptedModel([reply.calls(["h", {}]), reply.text("ok")]);
    const running = run({ model, tools: [tools.hang("h", { timeoutMs: 100, retries: 0 })] });
    const r = await running;
    expect(toolMessages(r).map(errorCode), "with retries 0 a timeout keeps the code timeout").toEqual(["timeout"]);
    expect(running.clock.now(), "the tool's own timeoutMs: the timeout at 100 ms").toBe(100);
  });

  l3("a tool that finishes in time: its signal stays quiet and the timeout's sleep is cancelled", async () => {
    const clock = new FakeClock({ autoAdvance: false });
    const f = tools.ok("f", 1);
    const r = await run({ model: scriptedModel([reply.calls(["f", {}]), reply.text("ok")]), clock, tools: [f] });
    expect(r.status, "a tool that finishes in time: the run completes").toBe("completed");
    expect(f.contexts[0].signal.aborted, "a tool that finishes in time: its ctx.signal stays quiet").toBe(false);
    expect(clock.pending, "the timeout's sleep is cancelled (no timer left)").toBe(0);
  });

  l3("an abort during a backoff wait: the retry is not made (retries 0 in the trace)", async () => {
    const clock = new FakeClock();
    const controller = abortAt(clock, 50);
    const t = tools.transient("t");
    const r = await run({ model: scriptedModel([reply.calls(["t", {}])]), clock, signal: controller.signal, tools: [t], backoffBaseMs: 100 });
    expect(r.status, "an abort during backoff: status aborted").toBe("aborted");
    expect(t.executions, "the retry after the backoff is never made").toBe(1);
    expect(toolMessages(r).map(errorCode), "the call gets aborted").toEqual(["aborted"]);
    expect((toolEvents(r)[0] as { retries: number }).retries, "no retry was made: retries 0 in the trace").toBe(0);
  });

  l2("systemClock: now() is Date.now(); sleep resolves after its time", async () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now, "systemClock.now() is Date.now()").toBeGreaterThanOrEqual(before);
    expect(now, "systemClock.now() is Date.now()").toBeLessThanOrEqual(Date.now());
    await expect(systemClock.sleep(5), "systemClock.sleep resolves with undefined").resolves.toBeUndefined();
    expect(Date.now() - before, "systemClock.sleep waits its time").toBeGreaterThanOrEqual(4);
  });

  l3("systemClock: sleep rejects with the signal's reason, at once when already aborted, and clears its timer", async () => {
    const reason = new Error("stop");
    await expect(systemClock.sleep(60_000, AbortSignal.abort(reason)), "systemClock.sleep rejects at once with the reason of an aborted signal").rejects.toBe(reason);
    // Timers of the process the kata runs in (in a graded run, its sandbox's), counted before and after.
    const before = activeTimers();
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    expect(activeTimers() - before, "systemClock.sleep sets one timer").toBe(1);
    controller.abort(reason);
    await expect(sleeping, "systemClock.sleep rejects with the signal's reason").rejects.toBe(reason);
    expect(activeTimers() - before, "systemClock.sleep clears its timer on abort").toBe(0);
  });
});

describe("7. Truncation: big results are cut to maxResultChars with a marker", () => {
  l2("truncateText counts code points: text of at most max code points comes back unchanged", () => {
    expect(truncateText("😀😀", 2), "truncateText: two emoji within max 2 are unchanged").toBe("😀😀");
    expect(truncateText("a😀b", 3), "truncateText: three code points within max 3 are unchanged").toBe("a😀b");
    expect(truncateText("😀😀😀", 2), "truncateText: the third emoji is dropped and counted").toBe("😀😀…[truncated 1 chars]");
  });
});

describe("8. Isolation: masking and clean error text", () => {
  l2("describeError: a value that is not an Error is its JSON, or String(value) when it has none; the result is trimmed", () => {
    expect(describeError({ code: 42 }), "describeError: an object is its JSON").toBe('{"code":42}');
    expect(describeError(42), "describeError: a number is its JSON").toBe("42");
    expect(describeError(null), "describeError: null is its JSON").toBe("null");
    expect(describeError(undefined), "describeError: undefined has no JSON: String(value)").toBe("undefined");
    expect(describeError(BigInt(10)), "describeError: a BigInt has no JSON: String(value)").toBe("10");
    expect(describeError("   padded message   "), "describeError trims the result").toBe("padded message");
  });

  l2("describeError: path tokens of every documented kind become [path]; a lone / stays", () => {
    expect(describeError("open C:\\Users\\me\\key.txt failed"), "describeError: a Windows drive path").toBe("open [path] failed");
    expect(describeError("read D:/data/x.json"), "describeError: a drive path with forward slashes").toBe("read [path]");
    expect(describeError("see ./conf/a.json, ../b.txt and ~/c"), "describeError: ./, ../ and ~/ paths").toBe("see [path], [path] and [path]");
    expect(describeError("load .\\win\\x and ..\\up"), "describeError: .\\\\ and ..\\\\ paths").toBe("load [path] and [path]");
    expect(describeError("at file:///srv/app.js:1:2"), "describeError: a file:// URL").toBe("at [path]");
    expect(describeError("(/tmp/x) [/var/y] x=/etc/passwd,z"), "describeError: paths after ( [ = and before , or a bracket").toBe("([path]) [[path]] x=[path],z");
    expect(describeError("5 / 3 and a/b and key:/v"), "describeError: a lone / and a/b are not paths; after : a path starts").toBe("5 / 3 and a/b and key:[path]");
  });

  l2("maskSecrets: key and token rules match exactly the documented shapes", () => {
    const sk = "sk-" + "a1B2".repeat(5);
    expect(maskSecrets(`key ${sk}!`), "an sk- key of 20 characters: [secret]").toBe("key [secret]!");
    expect(maskSecrets("sk-short1234"), "an sk- key shorter than 16 after sk- stays").toBe("sk-short1234");
    expect(maskSecrets(`task-${sk.slice(3)} x${sk}`), "an sk- key glued to a word character or a hyphen stays").toBe(`task-${sk.slice(3)} x${sk}`);
    const ghp = "ghp_" + "Ab1_".repeat(5);
    expect(maskSecrets(`token ${ghp}.`), "a ghp_ token: [secret]").toBe("token [secret].");
    expect(maskSecrets(`ghp_${"a".repeat(19)} x${ghp}`), "a ghp_ token of 19 characters, or glued to a letter, stays").toBe(`ghp_${"a".repeat(19)} x${ghp}`);
    const akia = "AKIA" + "ABCDEFGH23456789";
    expect(maskSecrets(`id ${akia} end`), "an AKIA key id: [secret]").toBe("id [secret] end");
    expect(maskSecrets(`${akia}X x${akia} AKIA${"abcdefgh23456789"}`), "an AKIA look-alike glued to letters or lower-case stays").toBe(`${akia}X x${akia} AKIA${"abcdefgh23456789"}`);
    expect(maskSecrets("auth: bearer   abc.DEF-12_~+/= ok"), "bearer is matched case-insensitively, any whitespace, the documented token characters").toBe("auth: Bearer [secret] ok");
    expect(maskSecrets("Bearer short"), "a Bearer token shorter than 8 characters stays").toBe("Bearer short");
  });

  l2("maskSecrets: e-mail, ID number and phone rules match exactly the documented shapes", () => {
    expect(maskSecrets("mail a.b+c@mail.example.co.uk now"), "an e-mail with dots, plus and subdomains: [email]").toBe("mail [email] now");
    expect(maskSecrets("x@y.c and @example.com"), "x@y.c (one-letter TLD) and @domain alone stay").toBe("x@y.c and @example.com");
    expect(maskSecrets("id 11010519491231002x."), "an ID number ending in x: [id_number]").toBe("id [id_number].");
    expect(maskSecrets("id 110105194912310021"), "an 18-digit ID number: [id_number]").toBe("id [id_number]");
    expect(maskSecrets("n 1101051949123100211 a110105194912310021"), "19 digits, or 18 glued to a letter, stay").toBe("n 1101051949123100211 a110105194912310021");
    expect(maskSecrets("call +86 13812345678, 8613912345678 or +86-15012345678"), "+86 mobiles with space, none or hyphen: [phone]").toBe("call [phone], [phone] or [phone]");
    expect(maskSecrets("not 12345678901 nor 138123456789"), "11 digits not starting 1[3-9], and 12 digits, stay").toBe("not 12345678901 nor 138123456789");
    expect(maskSecrets("ring +1 415 555 2671 or +33.1.23.45.67.89 now"), "international numbers with spaces and dots: [phone]").toBe("ring [phone] or [phone] now");
    // A country code of up to 3 digits, then up to 14 more: 17 digits in all.
    expect(maskSecrets("call +99912345678901234 now"), "a 3-digit country code and 14 more digits: [phone]").toBe("call [phone] now");
    expect(maskSecrets("a+1234567 and +12 345"), "+ glued to a letter, or too few digits, stays").toBe("a+1234567 and +12 345");
  });
});

describe("9. Approval, policy gate and toolChoice", () => {
  l2("toolChoice {name}: a reply without calls is not a final answer; the named tool's $finish ends the run", async () => {
    const model = scriptedModel([reply.text("I think it is sunny"), reply.calls(["answer", {}])]);
    const r = await run({ model, toolChoice: { name: "answer" }, tools: [tools.finish("answer", "sunny")] });
    expect(r.status, "toolChoice { name }: the named tool's $finish ends the run").toBe("finished");
    expect(r.finalText, "finalText is the $finish string").toBe("sunny");
    expect(r.steps, "the plain reply did not end the run: two requests").toBe(2);
    expect(r.messages[USER.length], "the plain reply is appended as an assistant message").toEqual({ role: "assistant", content: "I think it is sunny" });
    expect(r.messages[USER.length + 1].role, "then a user reminder follows").toBe("user");
  });
});

describe("10. Trace: events for every step and tool call, with the run id", () => {
  l2("durationMs is the clock time the call took, whatever the clock's starting time", async () => {
    const clock = new FakeClock({ start: 1_000 });
    const model = scriptedModel([reply.calls(["slow", {}]), reply.text("ok")]);
    const r = await run({ model, clock, tools: [tools.slow("slow", clock, 100)] });
    const [event] = toolEvents(r) as Array<{ durationMs: number; at: number }>;
    expect(event.durationMs, "durationMs is clock time the call took").toBe(100);
    expect(event.at, "the event's at is clock.now() when emitted").toBe(1_100);
  });
});

describe("11. Adapters: the history in OpenAI and Anthropic formats", () => {
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
});
