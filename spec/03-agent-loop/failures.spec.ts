// Tasks 5-7: what goes wrong in a tool call becomes an error tool message; timeouts, retries and
// the degraded answer; truncation of big results.
import fc from "fast-check";
import { describe, expect, vi } from "vitest";
import { backoffDelay, checkArguments, parseArguments, systemClock, truncateText, type JsonSchema } from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";
import { activeTimers } from "../support/realm.ts";
import { FakeClock, reply, scriptedModel, spyTool, tools, transientError, type CallSpec } from "../support/agent-harness/index.ts";
import { abortAt, envelope, errorCode, run, toolEvents, toolMessages } from "./helpers.ts";

/** A fresh schema for each use: no test shares an input another could have changed. */
const citySchema = (): JsonSchema => ({
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer" }, unit: { type: "string", enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
});

describe("5. Failures become error tool messages and the loop goes on", () => {
  l1("an unknown tool: unknown_tool, nothing runs, the model is asked again", async () => {
    const real = tools.ok("get_weather");
    const model = scriptedModel([reply.calls(["get_wether", { city: "北京" }]), reply.text("sorry")]);
    const r = await run({ model, tools: [real] });
    expect(r.status, "an unknown tool does not stop the loop: the run completes").toBe("completed");
    expect(real.executions, "no tool runs for an unknown name").toBe(0);
    const [m] = toolMessages(r);
    expect(m.is_error, "an unknown tool's message is an error").toBe(true);
    expect(errorCode(m), "no tool has this name: unknown_tool").toBe("unknown_tool");
    expect(model.requests[1].messages.at(-1), "the model's next request ends with the error tool message").toEqual(m);
  }, { core: true });

  l2("names of Object.prototype members are unknown tools", async () => {
    const model = scriptedModel([reply.calls(["__proto__", {}], ["toString", {}], ["constructor", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("get_weather")] });
    expect(toolMessages(r).map(errorCode), "names of Object.prototype members are unknown tools").toEqual(["unknown_tool", "unknown_tool", "unknown_tool"]);
  });

  l2("tool names are matched exactly (case-sensitive)", async () => {
    const t = tools.ok("get_weather");
    const model = scriptedModel([reply.calls(["Get_Weather", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    expect(errorCode(toolMessages(r)[0]), "tool names are case-sensitive: unknown_tool").toBe("unknown_tool");
    expect(t.executions, "the differently cased tool does not run").toBe(0);
  });

  l1("arguments that break the schema: invalid_arguments, the tool does not run", async () => {
    const t = tools.ok("get_weather", "sunny", { parameters: citySchema() });
    const model = scriptedModel([reply.calls(["get_weather", { town: "北京" }]), reply.calls(["get_weather", { city: "北京" }]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    expect(toolMessages(r).map(errorCode), "schema-breaking arguments: invalid_arguments; valid ones run").toEqual(["invalid_arguments", undefined]);
    expect(t.executions, "the tool runs only for valid arguments").toBe(1);
    expect(t.calls, "the tool gets only the valid call's arguments").toEqual([{ city: "北京" }]);
  });

  l2("the invalid_arguments message names each offending argument by its path", async () => {
    const t = tools.ok("get_weather", "sunny", { parameters: citySchema() });
    const model = scriptedModel([reply.calls(["get_weather", { days: "3", unit: "k", extra: true }]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok, "invalid arguments give an error envelope").toBe(false);
    const message = e.ok ? "" : e.error.message;
    for (const path of ["/city", "/days", "/unit", "/extra"]) expect(message, "the invalid_arguments message names every offending argument's JSON Pointer").toContain(path);
  });

  l2("arguments that are not JSON, or JSON but not an object: invalid_arguments", async () => {
    const t = tools.ok("t");
    const model = scriptedModel([reply.calls(["t", '{"city": "北'], ["t", "[1,2]"], ["t", "42"]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    expect(toolMessages(r).map(errorCode), "unparseable JSON, an array, a number: invalid_arguments").toEqual(["invalid_arguments", "invalid_arguments", "invalid_arguments"]);
    expect(t.executions, "the tool never runs for arguments that are not a JSON object").toBe(0);
  });

  l1("a tool that throws: tool_error, and the loop goes on to the next step", async () => {
    const t = tools.throws("boom");
    const model = scriptedModel([reply.calls(["boom", {}]), reply.text("recovered")]);
    const r = await run({ model, tools: [t] });
    expect(r.status, "a throwing tool does not stop the loop").toBe("completed");
    expect(r.finalText, "the model answers after reading the tool_error").toBe("recovered");
    expect(errorCode(toolMessages(r)[0]), "a thrown error: tool_error").toBe("tool_error");
  }, { core: true });

  l2("tool_error's message is '<ErrorName>: <first line of the message>'", async () => {
    const t = tools.throws("boom", () => new TypeError("city must be set\nsecond line"));
    const model = scriptedModel([reply.calls(["boom", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    const e = envelope(toolMessages(r)[0]);
    expect(e, "tool_error's message is '<ErrorName>: <first line>'").toEqual({ ok: false, error: { code: "tool_error", message: "TypeError: city must be set" } });
  });

  l2("a synchronous throw, an async rejection and a thrown non-Error are all tool_error", async () => {
    const model = scriptedModel([reply.calls(["a", {}], ["b", {}], ["c", {}]), reply.text("ok")]);
    const r = await run({
      model,
      tools: [
        spyTool("a", () => {
          throw new Error("sync");
        }),
        spyTool("b", async () => {
          throw new Error("async");
        }),
        spyTool("c", () => {
          throw "a string";
        }),
      ],
    });
    expect(r.status, "thrown errors never make runAgent reject").toBe("completed");
    expect(toolMessages(r).map(errorCode), "sync throw, async rejection and thrown non-Error: tool_error").toEqual(["tool_error", "tool_error", "tool_error"]);
  });

  l2("one failing call does not stop its siblings", async () => {
    const good = tools.ok("good", 1);
    const model = scriptedModel([reply.calls(["good", {}], ["bad", {}], ["good", { x: 1 }]), reply.text("ok")]);
    const r = await run({ model, tools: [good, tools.throws("bad")] });
    expect(good.executions, "the siblings of a failing call still run").toBe(2);
    expect(toolMessages(r).map((m) => m.is_error), "only the failing call's message is an error").toEqual([false, true, false]);
  });

  l2("a result that cannot be serialised (a cycle) is tool_error, not a crash", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const model = scriptedModel([reply.calls(["t", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("t", cyclic)] });
    expect(r.status, "an unserialisable result does not crash the run").toBe("completed");
    expect(errorCode(toolMessages(r)[0]), "a result with a cycle: tool_error").toBe("tool_error");
  });

  l2("parseArguments: '' and 'null' are {}, an object is kept, anything else is refused", () => {
    expect(parseArguments(""), "parseArguments: \"\" means {}").toEqual({ ok: true, value: {} });
    expect(parseArguments("  "), "parseArguments: whitespace only means {}").toEqual({ ok: true, value: {} });
    expect(parseArguments("null"), "parseArguments: \"null\" means {}").toEqual({ ok: true, value: {} });
    expect(parseArguments('{"a":[1]}'), "parseArguments: a JSON object is the value").toEqual({ ok: true, value: { a: [1] } });
    for (const bad of ["{", "[]", "3", '"s"', "true"]) expect(parseArguments(bad).ok, "parseArguments refuses invalid JSON and JSON that is not an object").toBe(false);
  });

  l2("checkArguments: type, required, enum, additionalProperties false, nested properties and items", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        n: { type: "integer" },
        x: { type: "number" },
        tags: { type: "array", items: { type: "string" } },
        opt: { type: "object", properties: { deep: { type: "boolean" } } },
        nil: { type: "null" },
        mode: { enum: ["a", 1] },
      },
      required: ["n"],
      additionalProperties: false,
    };
    expect(checkArguments(schema, { n: 1, x: 1.5, tags: ["a"], opt: { deep: true }, nil: null, mode: 1 }), "checkArguments: a valid value has no problem").toEqual([]);
    expect(checkArguments(schema, { n: 1, x: 2 }), "checkArguments: number accepts an integer; optional keys may be missing").toEqual([]);
    const paths = (v: unknown) => checkArguments(schema, v).map((p) => p.path).sort();
    expect(paths({}), "required: a missing key is reported at /name").toEqual(["/n"]);
    expect(paths({ n: 1.5 }), "integer needs Number.isInteger").toEqual(["/n"]);
    expect(paths({ n: 1, x: "1" }), "number refuses a string").toEqual(["/x"]);
    expect(paths({ n: 1, tags: ["a", 2] }), "items: each element is checked at /index").toEqual(["/tags/1"]);
    expect(paths({ n: 1, opt: { deep: "yes" } }), "properties: nested objects are checked at their path").toEqual(["/opt/deep"]);
    expect(paths({ n: 1, mode: "b" }), "enum: a value outside the list").toEqual(["/mode"]);
    expect(paths({ n: 1, nil: 0 }), "type null accepts only null").toEqual(["/nil"]);
    expect(paths({ n: 1, other: 1 }), "additionalProperties false: an unlisted key").toEqual(["/other"]);
    expect(paths([]), "a wrong type at the root is one problem at \"\"").toEqual([""]);
    for (const p of checkArguments(schema, {})) expect(typeof p.message, "every problem has a string message").toBe("string");
  });

  l2("checkArguments: other keywords are ignored; properties not listed are allowed unless additionalProperties is false", () => {
    expect(checkArguments({ type: "object", properties: { a: { type: "string", minLength: 5, format: "email" } } }, { a: "x", b: 1 }), "keywords outside the subset are ignored; unlisted properties are allowed").toEqual([]);
    expect(checkArguments({ type: "string" }, "s"), "type string accepts a string").toEqual([]);
    expect(checkArguments({ type: "boolean" }, "true").map((p) => p.path), "type boolean refuses the string \"true\"").toEqual([""]);
  });

  l2("checkArguments: own keys only; __proto__ and constructor are ordinary (unknown) keys", () => {
    const schema: JsonSchema = { type: "object", properties: {}, additionalProperties: false };
    const value = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}');
    expect(checkArguments(schema, value).map((p) => p.path).sort(), "own keys only: __proto__ and constructor are ordinary unknown keys").toEqual(["/__proto__", "/constructor"]);
    expect(checkArguments({ type: "object", required: ["toString"] }, {}).map((p) => p.path), "required looks for own keys: toString on the prototype does not count").toEqual(["/toString"]);
    expect(({} as Record<string, unknown>).polluted, "checking never pollutes Object.prototype").toBeUndefined();
  });

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
  l1("a tool that hangs: timeout after toolTimeoutMs, and the loop goes on", async () => {
    const clock = new FakeClock();
    const model = scriptedModel([reply.calls(["hang", {}]), reply.text("moved on")]);
    const hang = tools.hang("hang");
    const r = await run({ model, tools: [hang], clock, toolTimeoutMs: 5000, retries: 0 });
    expect(r.status, "a timed-out tool does not stop the loop").toBe("completed");
    expect(errorCode(toolMessages(r)[0]), "a hanging tool: timeout").toBe("timeout");
    expect(clock.now(), "the timeout fires at toolTimeoutMs of clock time").toBe(5000);
    expect(hang.contexts[0].signal.aborted, "a timed-out attempt's ctx.signal is aborted").toBe(true);
  });

  l2("a timed-out attempt's ctx.signal is aborted, so the tool can stop its work", async () => {
    const clock = new FakeClock();
    let stoppedAt: number | undefined;
    const worker = spyTool("worker", (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => (stoppedAt = clock.now()));
      return new Promise(() => {});
    }, { timeoutMs: 120, retries: 0 });
    const r = await run({ model: scriptedModel([reply.calls(["worker", {}]), reply.text("ok")]), tools: [worker], clock });
    expect(errorCode(toolMessages(r)[0]), "the hanging attempt timed out").toBe("timeout");
    expect(worker.contexts[0].signal.aborted, "a timed-out attempt's ctx.signal is aborted").toBe(true);
    expect(stoppedAt, "the signal fires when the timeout wins, at 120 ms").toBe(120);
  });

  l2("a tool's own timeoutMs overrides toolTimeoutMs; the default is 30000 ms", async () => {
    const clock = new FakeClock();
    const model = scriptedModel([reply.calls(["a", {}]), reply.text("ok")]);
    await run({ model, tools: [tools.hang("a", { timeoutMs: 250 })], clock, toolTimeoutMs: 5000, retries: 0 });
    expect(clock.now(), "a tool's own timeoutMs overrides toolTimeoutMs").toBe(250);
    const clock2 = new FakeClock();
    const model2 = scriptedModel([reply.calls(["a", {}]), reply.text("ok")]);
    const r2 = await run({ model: model2, tools: [tools.hang("a")], clock: clock2, retries: 0 });
    expect(errorCode(toolMessages(r2)[0]), "the default timeout gives timeout").toBe("timeout");
    expect(clock2.now(), "the default toolTimeoutMs is 30000 ms").toBe(30_000);
  });

  l1("a retryable failure is retried and the call succeeds", async () => {
    const t = tools.flaky("flaky", 2, { fine: true });
    const model = scriptedModel([reply.calls(["flaky", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [t], retries: 2 });
    expect(t.executions, "two retryable failures, then success: three executions").toBe(3);
    expect(envelope(toolMessages(r)[0]), "the retried call's final result").toEqual({ ok: true, data: { fine: true } });
    expect(t.contexts.map((c) => c.attempt), "ctx.attempt counts 1, 2, 3").toEqual([1, 2, 3]);
  });

  l2("backoff is exponential: waits of base, 2 x base, 4 x base before retries 1, 2, 3", async () => {
    const clock = new FakeClock();
    const times: number[] = [];
    const t = spyTool("t", () => {
      times.push(clock.now());
      throw transientError();
    });
    const model = scriptedModel([reply.calls(["t", {}]), reply.text("ok")]);
    await run({ model, tools: [t], clock, retries: 3, backoffBaseMs: 100 });
    expect(times, "backoff waits 100, 200, 400 ms before retries 1, 2, 3").toEqual([0, 100, 300, 700]);
    expect([1, 2, 3, 4].map((k) => backoffDelay(k, 50)), "backoffDelay(k, base) = base * 2 ** (k - 1)").toEqual([50, 100, 200, 400]);
  });

  l2("a timeout is retryable: each attempt has its own timeout, backoff between them", async () => {
    const clock = new FakeClock();
    const hang = tools.hang("hang");
    const model = scriptedModel([reply.calls(["hang", {}]), reply.text("ok")]);
    await run({ model, tools: [hang], clock, toolTimeoutMs: 1000, retries: 2, backoffBaseMs: 10 });
    expect(hang.executions, "a timeout is retryable: 1 + 2 executions").toBe(3);
    // 1000 + 10 + 1000 + 20 + 1000
    expect(clock.now(), "each attempt has its own timeout, with backoff between them").toBe(3030);
  });

  l1("after the last retry: a degraded 'tool unavailable' message (code unavailable), not a crash", async () => {
    const t = tools.transient("search");
    const model = scriptedModel([reply.calls(["search", {}]), reply.text("I could not search")]);
    const r = await run({ model, tools: [t], retries: 2 });
    expect(r.status, "persistent transient failures do not crash the run").toBe("completed");
    expect(t.executions, "1 + retries executions").toBe(3);
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok, "the degraded answer is an error envelope").toBe(false);
    if (!e.ok) {
      expect(e.error.code, "after the last retry: code unavailable").toBe("unavailable");
      expect(e.error.message.startsWith("tool unavailable"), "the degraded message starts with \"tool unavailable\"").toBe(true);
    }
  });

  l2("retries defaults to 2 and a tool's own retries overrides it", async () => {
    const a = tools.transient("a");
    const b = tools.transient("b", { retries: 0 });
    const model = scriptedModel([reply.calls(["a", {}], ["b", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [a, b] });
    expect(a.executions, "retries defaults to 2: three executions").toBe(3);
    expect(b.executions, "a tool's own retries (0) overrides the default").toBe(1);
    // With no retry allowed, the failure keeps its own code.
    expect(toolMessages(r).map(errorCode), "with retries 0 the failure keeps its own code").toEqual(["unavailable", "tool_error"]);
  });

  l2("a non-retryable error is never retried", async () => {
    const t = tools.throws("boom");
    const model = scriptedModel([reply.calls(["boom", {}]), reply.text("ok")]);
    const clock = new FakeClock();
    const r = await run({ model, tools: [t], retries: 5, clock });
    expect(t.executions, "a non-retryable error is never retried").toBe(1);
    expect(clock.now(), "no backoff wait for a non-retryable error").toBe(0);
    expect(errorCode(toolMessages(r)[0]), "a non-retryable error: tool_error").toBe("tool_error");
  });

  l2("only retryable === true is retried: a truthy marker that is not true (\"yes\", 1, \"true\", {}) is not", async () => {
    const clock = new FakeClock();
    const markers: unknown[] = ["yes", 1, "true", {}];
    const lookalikes = markers.map((marker, i) =>
      spyTool(`t${i}`, () => {
        throw Object.assign(new Error(`busy ${i}`), { retryable: marker });
      }),
    );
    const marked = spyTool("marked", () => {
      throw Object.assign(new Error("busy"), { retryable: true });
    });
    const model = scriptedModel([reply.calls(...lookalikes.map((t, i): CallSpec => [t.name, {}, `y${i}`]), ["marked", {}, "m"]), reply.text("ok")]);
    const r = await run({ model, tools: [...lookalikes, marked], clock, retries: 2, backoffBaseMs: 100 });
    expect(lookalikes.map((t) => t.executions), "retryable \"yes\", 1, \"true\" or {} is not retryable: one execution each").toEqual([1, 1, 1, 1]);
    expect(marked.executions, "retryable: true is retried: 1 + 2 executions").toBe(3);
    expect(toolMessages(r).map(errorCode), "the look-alikes keep tool_error; the marked call is unavailable after its retries").toEqual(["tool_error", "tool_error", "tool_error", "tool_error", "unavailable"]);
    const retries = Object.fromEntries(toolEvents(r).map((e) => (e.type === "tool_call" ? [e.callId, e.retries] : [])));
    expect(retries, "retries in the trace: 0 for each look-alike, 2 for the marked call").toEqual({ y0: 0, y1: 0, y2: 0, y3: 0, m: 2 });
  });

  l2.property("a thrown value is retried exactly when its retryable is true, whatever else it holds", async () => {
    // Mostly truthy markers that are not true, on purpose; some falsy ones and true itself.
    const markerArb = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<unknown>("yes", "true", "1", "false", 1, 2, -1, 0.5, [], [true], {}, { retryable: true }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(false, 0, "", null, undefined) },
      { weight: 2, arbitrary: fc.constant<unknown>(true) },
    );
    const thrownArb = fc.constantFrom("Error" as const, "TypeError" as const, "object" as const);
    await fc.assert(
      fc.asyncProperty(markerArb, thrownArb, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 50 }), async (marker, kind, retries, base) => {
        const clock = new FakeClock();
        const make = () => (kind === "object" ? { message: "busy", retryable: marker } : Object.assign(kind === "Error" ? new Error("busy") : new TypeError("busy"), { retryable: marker }));
        const t = spyTool("t", () => {
          throw make();
        });
        const r = await run({ model: scriptedModel([reply.calls(["t", {}]), reply.text("ok")]), tools: [t], clock, retries, backoffBaseMs: base });
        const retried = marker === true;
        expect(t.executions, `retryable ${JSON.stringify(marker)}: ${retried ? "1 + retries executions" : "one execution, no retry"}`).toBe(retried ? 1 + retries : 1);
        expect(errorCode(toolMessages(r)[0]), "the code: unavailable only after retries were made").toBe(retried && retries > 0 ? "unavailable" : "tool_error");
        expect(clock.now(), "backoff waits only before retries").toBe(retried ? base * (2 ** retries - 1) : 0);
        expect(toolEvents(r).map((e) => e.type === "tool_call" && e.retries), "the trace counts the retries made").toEqual([retried ? retries : 0]);
      }),
    );
  });

  l2("an argument error is never retried: no execution, no wait, retries 0 in the trace", async () => {
    const t = tools.ok("get_weather", "x", { parameters: citySchema() });
    const clock = new FakeClock();
    const model = scriptedModel([reply.calls(["get_weather", { city: 1 }]), reply.text("ok")]);
    const r = await run({ model, tools: [t], retries: 5, clock });
    expect(t.executions, "an argument error is never executed").toBe(0);
    expect(clock.now(), "no backoff wait for an argument error").toBe(0);
    expect(errorCode(toolMessages(r)[0]), "an argument error: invalid_arguments").toBe("invalid_arguments");
    expect(toolEvents(r).map((e) => e.type === "tool_call" && e.retries), "an argument error makes no retry: retries 0 in the trace").toEqual([0]);
  });

  l2("systemClock: now() is Date.now(); sleep waits on a real timer and rejects when its signal aborts", async () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now, "systemClock.now() is Date.now()").toBeGreaterThanOrEqual(before);
    expect(now, "systemClock.now() is Date.now()").toBeLessThanOrEqual(Date.now());
    let slept = false;
    const asleepAt = performance.now();
    const sleeping = systemClock.sleep(20).then(() => (slept = true));
    await new Promise((resolve) => setImmediate(resolve));
    // On a busy machine the 20 ms may pass before setImmediate's turn: then it is right to be awake.
    if (performance.now() - asleepAt < 15) expect(slept, "systemClock.sleep waits on a real timer: not resolved at once").toBe(false);
    await sleeping;
    expect(slept, "systemClock.sleep resolves after its time").toBe(true);
    const controller = new AbortController();
    const pending = systemClock.sleep(60_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(pending, "systemClock.sleep rejects with the signal's reason when it aborts").rejects.toThrow("stop");
    await expect(systemClock.sleep(10, AbortSignal.abort()), "systemClock.sleep rejects at once on an aborted signal").rejects.toBeDefined();
  });

  l3("a retried call records its retries in the trace", async () => {
    const t = tools.flaky("f", 1);
    const model = scriptedModel([reply.calls(["f", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    const [e] = toolEvents(r);
    expect(e.type === "tool_call" && [e.outcome, e.retries], "the trace records the retries of a retried call").toEqual(["ok", 1]);
  });

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

describe("7. Truncation: big results are cut to maxResultChars with a marker", () => {
  l1("a 100 000-character result is cut to maxResultChars plus the marker", async () => {
    const model = scriptedModel([reply.calls(["big", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.huge("big", 100_000)], maxResultChars: 1000 });
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok, "a cut result is still an ok envelope").toBe(true);
    expect(e.ok && e.data, "a result over maxResultChars: the first maxResultChars characters and the marker").toBe("x".repeat(1000) + "…[truncated 99000 chars]");
  });

  l2("a structured result is measured and cut as its JSON text", async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: i }));
    const model = scriptedModel([reply.calls(["rows", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.ok("rows", rows)], maxResultChars: 50 });
    const text = JSON.stringify(rows);
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok && e.data, "a structured result is cut as its JSON text").toBe(text.slice(0, 50) + `…[truncated ${text.length - 50} chars]`);
  });

  l2("a result within the budget is kept as it is (no marker); the default budget is 4000", async () => {
    const model = scriptedModel([reply.calls(["a", {}], ["b", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.huge("a", 4000), tools.huge("b", 4001)] });
    const [a, b] = toolMessages(r).map(envelope);
    expect(a, "a result of exactly the budget is kept as it is").toEqual({ ok: true, data: "x".repeat(4000) });
    expect(b, "the default budget is 4000: one more character is cut").toEqual({ ok: true, data: "x".repeat(4000) + "…[truncated 1 chars]" });
  });

  l2("truncateText counts code points: an emoji is never cut in half", () => {
    expect(truncateText("😀😀😀", 2), "truncateText counts code points: an emoji is never cut in half").toBe("😀😀…[truncated 1 chars]");
    expect(truncateText("北京上海", 4), "truncateText: text within max is unchanged").toBe("北京上海");
    expect(truncateText("abc", 0), "truncateText with max 0: only the marker").toBe("…[truncated 3 chars]");
  });

  l3("a long error message is cut too", async () => {
    const model = scriptedModel([reply.calls(["boom", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.throws("boom", () => new Error("y".repeat(5000)))], maxResultChars: 100 });
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok, "a throwing tool's long message is an error envelope").toBe(false);
    if (!e.ok) {
      expect(e.error.code, "the long error is tool_error").toBe("tool_error");
      expect(e.error.message, "a long error message is cut with the marker").toContain("…[truncated ");
      expect(Array.from(e.error.message).length, "the cut message is near maxResultChars long").toBeLessThan(150);
    }
  });

  l2("truncateText counts code points: text of at most max code points comes back unchanged", () => {
    expect(truncateText("😀😀", 2), "truncateText: two emoji within max 2 are unchanged").toBe("😀😀");
    expect(truncateText("a😀b", 3), "truncateText: three code points within max 3 are unchanged").toBe("a😀b");
    expect(truncateText("😀😀😀", 2), "truncateText: the third emoji is dropped and counted").toBe("😀😀…[truncated 1 chars]");
  });
});
