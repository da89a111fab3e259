// Held-out bank, kata 4, tasks 1-4: the same README contract as the visible specs, with other
// examples and other random streams, so that answers tuned to the visible examples do not carry
// over. The candidate pack leaves this folder out; `npm run grade -- --bank` runs it.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { createAssembler, replay, StreamUsageError, type Dialect, type StreamError } from "@impl/04-stream-assembly";
import { l1, l2 } from "../../support/graded.ts";
import { anyStream, chatStreamOf } from "../arbitraries.ts";
import {
  aboutCall, anthropic, brief, chat, chatCall, codes, fragment, gemini, ollama, readyLog, releasedErrors, releasedText, responses,
} from "../helpers.ts";

const chatRun = (events: unknown[]) => replay({ dialect: "chat-completions" }, { events });

/** A call error as the README fixes it: its code, the call it names, and its raw text. */
const callError = (e: StreamError) => ({ ...aboutCall(e), raw: e.raw });
/** The call fields of an error, which an error about the stream does not have. */
const streamFields = (e: StreamError) => ({ callIndex: e.callIndex, id: e.id, name: e.name, raw: e.raw });
const NO_CALL_FIELDS = { callIndex: undefined, id: undefined, name: undefined, raw: undefined };

describe("1. Chat-completions: text and calls", () => {
  l1("three parallel calls with text before them, unicode in the arguments", () => {
    const run = chatRun([
      chat.text("我来查一下。"),
      ...chatCall(0, "call_a", "weather", ["{\"city\": \"北", "京\"}"]),
      ...chatCall(1, "call_b", "weather", ["{\"city\": \"東京\"}"]),
      ...chatCall(2, "call_c", "translate", ["{\"text\": \"😀 \\\"hi\\\"\"}"]),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.text).toBe("我来查一下。");
    expect(run.result.calls.map(brief)).toEqual([
      { id: "call_a", name: "weather", arguments: { city: "北京" } },
      { id: "call_b", name: "weather", arguments: { city: "東京" } },
      { id: "call_c", name: "translate", arguments: { text: "😀 \"hi\"" } },
    ]);
  });

  l1("arguments one character per fragment are appended in order", () => {
    const text = "{\"expression\": \"(1 + 2) * 3\"}";
    const run = chatRun([...chatCall(0, "call_1", "calculate", [...text]), chat.finish("tool_calls")]);
    expect(run.result.calls).toEqual([{ index: 0, id: "call_1", name: "calculate", arguments: { expression: "(1 + 2) * 3" }, rawArguments: text }]);
  });

  l1("the incremental API: each push says what it released, result() the whole so far", () => {
    const a = createAssembler({ dialect: "chat-completions" });
    expect(a.push(chat.text("A")).text).toBe("A");
    for (const event of chatCall(0, "call_1", "f", ["{\"x\": 1}"])) expect(a.push(event)).toEqual({ text: "", ready: [], errors: [] });
    expect(a.result()).toMatchObject({ status: "open", text: "A", calls: [], toolTurn: true });
    expect(a.push(chat.finish("stop")).ready.map((c) => c.id)).toEqual(["call_1"]);
    expect(a.end()).toEqual({ text: "", ready: [], errors: [] });
    expect(a.result()).toMatchObject({ status: "complete", finishReason: "stop", text: "A" });
  });

  l2("no index and the name repeated in every fragment, two calls told apart by their ids", () => {
    const run = chatRun([
      chat.calls({ id: "call_x", type: "function", name: "terminal", arguments: "{\"cmd\":" }),
      chat.calls({ id: "call_x", type: "function", name: "terminal", arguments: " \"pwd\"}" }),
      chat.calls({ id: "call_y", type: "function", name: "terminal", arguments: "{\"cmd\": \"ls\"}" }),
      "[DONE]",
    ]);
    expect(run.result.calls.map(brief)).toEqual([
      { id: "call_x", name: "terminal", arguments: { cmd: "pwd" } },
      { id: "call_y", name: "terminal", arguments: { cmd: "ls" } },
    ]);
    expect(readyLog(run).map(({ at }) => at)).toEqual([2, 3]);
  });

  l2("after calls without an index, a fragment with one starts a new call; a fragment with an ended call's id is out_of_order", () => {
    const run = chatRun([
      chat.calls({ id: "a", name: "f", arguments: "{\"n\": 1}" }),
      chat.calls({ index: 0, id: "b", name: "g", arguments: "{\"n\": 2}" }),
      chat.calls({ id: "a", arguments: " " }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map((c) => [c.index, c.id, c.name])).toEqual([[0, "a", "f"], [1, "b", "g"]]);
    expect(codes(run.result.errors)).toEqual(["out_of_order"]);
    expect(run.steps[2].errors.map((e) => e.code)).toEqual(["out_of_order"]);
  });

  l2("a call that gets its id only in its second fragment keeps it", () => {
    const run = chatRun([chat.calls({ index: 0, name: "f", arguments: "{" }), chat.calls({ index: 0, id: "late_id", arguments: "}" }), chat.finish("tool_calls")]);
    expect(run.result.calls.map((c) => c.id)).toEqual(["late_id"]);
  });

  l2("a name that changes, with the id repeated: one name_changed, nothing else for that call", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "c1", name: "read_file", arguments: "{\"p\"" }),
      chat.calls({ index: 0, id: "c1", name: "write_file", arguments: ": 1" }),
      chat.calls({ index: 0, id: "c1", name: "read_file", arguments: "}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.errors.map(aboutCall)).toEqual([{ code: "name_changed", callIndex: 0, id: "c1", name: "read_file" }]);
    expect(run.result.calls).toEqual([]);
  });

  l2("a second choice (n > 1) never mixes into choice 0", () => {
    const run = chatRun([
      { choices: [{ index: 0, delta: { content: "A" } }, { index: 1, delta: { content: "B" } }] },
      { choices: [{ index: 1, delta: { tool_calls: [{ index: 0, id: "other", function: { name: "g", arguments: "{}" } }] } }, { index: 0, delta: { content: "C" }, finish_reason: null }] },
      { choices: [{ index: 1, delta: {}, finish_reason: "length" }] },
      { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    ]);
    expect(run.result).toMatchObject({ text: "AC", calls: [], errors: [], status: "complete", finishReason: "stop", toolTurn: false });
  });
  l2("chat-completions: each field of the wrong type is bad_event (no call fields), then lost_fragment for the open call, whose later fragments are dropped", () => {
    const rows: [string, unknown][] = [
      ["an event that is an array", [{ choices: [] }]],
      ["an event that is a number", 3.5],
      ["an event that is false", false],
      ["choices that is an object", { choices: { 0: { index: 0, delta: { content: "x" } } } }],
      ["choices that is a string", { choices: "[]" }],
      ["a choice that is a number", { choices: [7] }],
      ["a choice that is an array", { choices: [[{ index: 0 }]] }],
      ["a delta that is an array", { choices: [{ index: 0, delta: [{ content: "x" }] }] }],
      ["a delta that is a string", { choices: [{ index: 0, delta: "tool_calls" }] }],
      ["tool_calls that is an object", chat.delta({ tool_calls: { index: 0, function: { arguments: " 1" } } })],
      ["tool_calls that is a string", chat.delta({ tool_calls: "[]" })],
      ["an entry that is a string", chat.delta({ tool_calls: ["{\"index\": 0}"] })],
      ["an entry that is a number", chat.delta({ tool_calls: [0] })],
      ["a function that is a string", chat.delta({ tool_calls: [{ index: 0, function: "lookup" }] })],
      ["a function that is an array", chat.delta({ tool_calls: [{ index: 0, function: [" 1"] }] })],
      ["an id that is a number", chat.delta({ tool_calls: [{ index: 0, id: 12, function: { arguments: " 1" } }] })],
      ["an id that is an object", chat.delta({ tool_calls: [{ index: 0, id: { v: "call_q" } }] })],
      ["a name that is false", chat.delta({ tool_calls: [{ index: 0, function: { name: false, arguments: " 1" } }] })],
      ["a name that is a number", chat.delta({ tool_calls: [{ index: 0, function: { name: 3 } }] })],
      ["arguments that is an array", chat.delta({ tool_calls: [{ index: 0, function: { arguments: [" 1"] } }] })],
      ["arguments that is an object", chat.delta({ tool_calls: [{ index: 0, function: { arguments: { key: 1 } } }] })],
      ["arguments that is a number", chat.delta({ tool_calls: [{ index: 0, function: { arguments: 1 } }] })],
    ];
    for (const [label, bad] of rows) {
      const r = chatRun([
        chat.calls({ index: 0, id: "call_q", type: "function", name: "lookup", arguments: "{\"key\":" }),
        bad,
        chat.calls({ index: 0, arguments: " 1}" }),
        chat.finish("tool_calls"),
      ]);
      expect(codes(r.steps[1].errors), label).toEqual(["bad_event", "lost_fragment"]);
      expect(streamFields(r.steps[1].errors[0]), label).toEqual(NO_CALL_FIELDS);
      expect(callError(r.steps[1].errors[1]), label).toEqual({ code: "lost_fragment", callIndex: 0, id: "call_q", name: "lookup", raw: "{\"key\":" });
      expect(r.result.errors, label).toHaveLength(2);
      expect(r.result.calls, label).toEqual([]);
      expect(r.result.status, label).toBe("complete");
    }
  });

  l2("chat-completions: a null field counts as absent, in the chunk, the choice, the delta and the fragment", () => {
    const rows: [string, unknown, string][] = [
      ["error: null", { error: null, choices: [{ index: 0, delta: { content: "a" } }] }, "a"],
      ["choices: null", { choices: null, usage: { total_tokens: 1 } }, ""],
      ["no choices at all", { id: "chatcmpl-9", object: "chat.completion.chunk" }, ""],
      ["a choice's index: null", { choices: [{ index: null, delta: { content: "b" } }] }, "b"],
      ["a choice without an index", { choices: [{ delta: { content: "c" } }] }, "c"],
      ["delta: null", { choices: [{ index: 0, delta: null, finish_reason: null }] }, ""],
      ["a choice without a delta", { choices: [{ index: 0, logprobs: null }] }, ""],
      ["content: null", chat.delta({ role: "assistant", content: null }), ""],
      ["tool_calls: null beside text", chat.delta({ content: "d", tool_calls: null }), "d"],
      ["a fragment whose index, id and function are null", chat.delta({ tool_calls: [{ index: null, id: null, type: "function", function: null }] }), ""],
      ["a fragment with only its index", chat.delta({ tool_calls: [{ index: 0 }] }), ""],
      ["a fragment whose name and arguments are null", chat.delta({ tool_calls: [{ index: 0, id: null, function: { name: null, arguments: null } }] }), ""],
      ["a fragment whose id and name are empty", chat.delta({ tool_calls: [{ index: 0, id: "", function: { name: "", arguments: "" } }] }), ""],
    ];
    for (const [label, event, text] of rows) {
      const r = chatRun([
        chat.calls({ index: 0, id: "call_n", type: "function", name: "probe", arguments: "{\"k\":" }),
        event,
        chat.calls({ index: 0, arguments: " 1}" }),
        chat.finish("tool_calls"),
      ]);
      expect(r.result.errors, label).toEqual([]);
      expect(r.steps[1].text, label).toBe(text);
      expect(r.result.calls, label).toEqual([{ index: 0, id: "call_n", name: "probe", arguments: { k: 1 }, rawArguments: "{\"k\": 1}" }]);
      expect(r.result.status, label).toBe("complete");
    }
  });

  l2("chat-completions: a choice of index 1 or 2 is ignored whatever it carries; choice 0 goes on", () => {
    const rows: [string, unknown][] = [
      ["index 1 with text and a fragment of index 0", { choices: [{ index: 1, delta: { content: "other", tool_calls: [fragment({ index: 0, arguments: "garbage" })] } }] }],
      ["index 2 with a new call", { choices: [{ index: 2, delta: { tool_calls: [fragment({ index: 1, id: "call_z", name: "z", arguments: "{}" })] } }] }],
      ["index 1 with a finish reason", { choices: [{ index: 1, delta: {}, finish_reason: "length" }] }],
      ["index 2 with a delta that is not an object", { choices: [{ index: 2, delta: "x" }] }],
      ["index 1 with tool_calls that is not an array", { choices: [{ index: 1, delta: { tool_calls: "x" } }] }],
      ["index 1 then index 0 in one chunk", { choices: [{ index: 1, delta: { content: "B" } }, { index: 0, delta: { content: "A" } }] }],
    ];
    for (const [label, event] of rows) {
      const r = chatRun([...chatCall(0, "call_m", "main", ["{\"v\":"]), event, chat.calls({ index: 0, arguments: " 2}" }), chat.finish("tool_calls")]);
      expect(r.result.errors, label).toEqual([]);
      expect(r.result.text, label).toBe(label.endsWith("in one chunk") ? "A" : "");
      expect(r.result.calls.map(brief), label).toEqual([{ id: "call_m", name: "main", arguments: { v: 2 } }]);
      expect(r.result, label).toMatchObject({ status: "complete", finishReason: "tool_calls" });
    }
  });

  l2("chat-completions: content parts give only the text of {type: \"text\", text: string}; nothing else is text or an error", () => {
    const r = chatRun([
      chat.delta({ content: [{ type: "text", text: "One" }, { type: "text", text: 5 }, { type: "image_url", text: "X" }, "Y", { text: "Z" }, { type: "text", text: ", two" }] }),
      chat.delta({ content: [] }),
      chat.delta({ content: [{ type: "thinking", thinking: [{ type: "text", text: "hidden" }] }, { type: "text", text: "." }] }),
      chat.delta({ content: { type: "text", text: "obj" } }),
      chat.delta({ content: true, reasoning: "r", reasoning_content: "rc" }),
      chat.finish("stop"),
    ]);
    expect(r.steps.map((s) => s.text)).toEqual(["One, two", "", ".", "", "", ""]);
    expect(r.result).toMatchObject({ text: "One, two.", errors: [], status: "complete", toolTurn: false });
  });

  l2("chat-completions: usage is the last object any chunk carried, after the finish too; usage that is not an object is not kept", () => {
    const first = { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 };
    const last = { prompt_tokens: 7, completion_tokens: 30, total_tokens: 37 };
    const r = chatRun([
      { ...chat.text("ok"), usage: first },
      { choices: [], usage: null },
      { choices: [], usage: "lots" },
      chat.finish("stop"),
      { choices: [], usage: 12 },
      chat.usage(last),
      { choices: [], usage: false },
      "[DONE]",
    ]);
    expect(r.result.usage).toEqual(last);
    expect(r.result.errors).toEqual([]);
    expect(r.steps[5]).toEqual({ text: "", ready: [], errors: [] });
    const early = chatRun([{ ...chat.text("a"), usage: first }, { choices: [], usage: 3 }]);
    expect(early.result.usage).toEqual(first);
  });

  l2("chat-completions: a finish_reason that is not a string does not end the stream; [DONE] then ends it with no finish reason", () => {
    const r = chatRun([
      ...chatCall(0, "call_f", "f", ["{\"a\":"]),
      { choices: [{ index: 0, delta: {}, finish_reason: 0 }] },
      { choices: [{ index: 0, delta: {}, finish_reason: { reason: "stop" } }] },
      chat.calls({ index: 0, arguments: " 3}" }),
      "[DONE]",
    ]);
    expect(r.result.errors).toEqual([]);
    expect(readyLog(r).map(({ at, call }) => [at, call.arguments])).toEqual([[5, { a: 3 }]]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: null });
  });

  l2("chat-completions: which call a fragment belongs to, by index and id, never by name", () => {
    const base = [...chatCall(4, "call_a", "f", ["{}"]), ...chatCall(9, "call_b", "g", ["{}"])];
    // label, the event after base, [id, rawArguments] of each ready call, the error codes
    const rows: [string, unknown, [string, string][], string[]][] = [
      ["a new id on an ended index starts a new call", chat.calls({ index: 4, id: "call_c", name: "h", arguments: "{}" }), [["call_a", "{}"], ["call_b", "{}"], ["call_c", "{}"]], []],
      ["an ended id on a new index is out_of_order", chat.calls({ index: 5, id: "call_a", name: "f", arguments: " " }), [["call_a", "{}"], ["call_b", "{}"]], ["out_of_order"]],
      ["no id and an ended index is out_of_order", chat.calls({ index: 4, arguments: " " }), [["call_a", "{}"], ["call_b", "{}"]], ["out_of_order"]],
      ["an empty id and an ended index is out_of_order", chat.calls({ index: 4, id: "", arguments: " " }), [["call_a", "{}"], ["call_b", "{}"]], ["out_of_order"]],
      ["no index and no id continues the open call", chat.calls({ arguments: " " }), [["call_a", "{}"], ["call_b", "{} "]], []],
      ["the open call's id and no index continues it", chat.calls({ id: "call_b", name: "g", arguments: "\n" }), [["call_a", "{}"], ["call_b", "{}\n"]], []],
      ["the same name with a new id and no index starts a new call", chat.calls({ id: "call_d", name: "g", arguments: "{}" }), [["call_a", "{}"], ["call_b", "{}"], ["call_d", "{}"]], []],
      ["a new index with no id starts a new call", chat.calls({ index: 10, name: "g", arguments: "{}" }), [["call_a", "{}"], ["call_b", "{}"], ["call_2", "{}"]], []],
    ];
    for (const [label, event, calls, errors] of rows) {
      const r = chatRun([...base, event, chat.finish("tool_calls")]);
      expect(r.result.calls.map((c) => [c.id, c.rawArguments]), label).toEqual(calls);
      expect(r.result.calls.map((c) => c.index), label).toEqual(calls.map((_, k) => k));
      expect(codes(r.steps[4].errors), label).toEqual(errors);
      expect(codes(r.result.errors), label).toEqual(errors);
      for (const e of r.result.errors) expect(streamFields(e), label).toEqual(NO_CALL_FIELDS);
    }
  });

  l2("chat-completions: the id is the first non-empty one; a different id then starts the next call", () => {
    const r = chatRun([
      chat.calls({ index: 0, id: "", type: "function", name: "first", arguments: "{\"a\"" }),
      chat.calls({ index: 0, id: "call_late", arguments: ": 1}" }),
      chat.calls({ index: 0, id: "call_late", arguments: "" }),
      chat.calls({ index: 0, id: "call_next", name: "second", arguments: "{}" }),
      chat.finish("stop"),
    ]);
    expect(r.result.errors).toEqual([]);
    expect(readyLog(r).map(({ at, call }) => [at, call.index, call.id, call.name, call.arguments])).toEqual([
      [3, 0, "call_late", "first", { a: 1 }],
      [4, 1, "call_next", "second", {}],
    ]);
  });

  l2("chat-completions: the same name again, empty or null is ignored; another name is name_changed naming the first, and the call's later fragments go nowhere", () => {
    const same = chatRun([
      chat.calls({ index: 0, id: "n1", name: "search", arguments: "{" }),
      chat.calls({ index: 0, name: "search", arguments: "}" }),
      chat.calls({ index: 0, name: "", arguments: "" }),
      chat.calls({ index: 0, name: null }),
      chat.finish("tool_calls"),
    ]);
    expect(same.result.calls).toEqual([{ index: 0, id: "n1", name: "search", arguments: {}, rawArguments: "{}" }]);
    expect(same.result.errors).toEqual([]);
    const changed = chatRun([
      chat.calls({ index: 0, id: "n1", name: "search", arguments: "{" }),
      chat.calls({ index: 0, name: "search_web" }),
      chat.calls({ index: 0, name: "search", arguments: "}" }),
      chat.calls({ index: 1, id: "n2", name: "fetch", arguments: "{}" }),
      chat.finish("tool_calls"),
    ]);
    expect(changed.steps[1].errors.map(callError)).toEqual([{ code: "name_changed", callIndex: 0, id: "n1", name: "search", raw: "{" }]);
    expect(changed.result.errors).toHaveLength(1);
    expect(changed.result.calls.map((c) => [c.index, c.id, c.name])).toEqual([[1, "n2", "fetch"]]);
    expect(changed.result.toolTurn).toBe(true);
  });
});

describe("2. When a call is ready", () => {
  l1("with index 0 reused for each new id, each call is ready when the next id arrives", () => {
    const run = chatRun([
      ...chatCall(0, "a", "f", ["{\"n\": 1}"]), ...chatCall(0, "b", "f", ["{\"n\": 2}"]), ...chatCall(0, "c", "f", ["{\"n\": 3}"]), chat.finish("tool_calls"),
    ]);
    expect(readyLog(run).map(({ at, call }) => [at, call.id])).toEqual([[2, "a"], [4, "b"], [6, "c"]]);
  });

  l2("a call whose text is whole JSON before its last fragment is still not ready until its end", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "c", name: "transfer", arguments: "{\"to\": \"alice\"}" }),
      chat.calls({ index: 0, arguments: "" }),
      chat.usage(),
      chat.calls({ index: 0, arguments: "\n\t" }),
      chat.finish("tool_calls"),
    ]);
    expect(readyLog(run).map(({ at }) => at)).toEqual([4]);
  });

  l2("only a truncated call is still a tool turn; the finish reason does not change that", () => {
    const run = chatRun([...chatCall(0, "c", "f", ["{\"a\": "]), chat.finish("length")]);
    expect(run.result).toMatchObject({ toolTurn: true, calls: [], status: "incomplete" });
    const eos = chatRun([...chatCall(0, "c", "f", ["{}"]), chat.finish("eos")]);
    expect(eos.result).toMatchObject({ toolTurn: true, status: "complete", finishReason: "eos" });
    expect(eos.result.calls.map((c) => c.id)).toEqual(["c"]);
  });

  l2("a stream that stops after finish_reason but before [DONE] is complete; one that stops before the finish is cut", () => {
    const finished = replay({ dialect: "chat-completions" }, { events: [...chatCall(0, "c", "f", ["{}"]), chat.finish("tool_calls")] });
    expect(finished.result.status).toBe("complete");
    const a = createAssembler({ dialect: "chat-completions" });
    a.push(chat.text("Thinking about it"));
    expect(a.end().errors).toEqual([]);
    expect(a.result()).toMatchObject({ status: "cut", toolTurn: false, text: "Thinking about it" });
  });

  l2.property("toolTurn is whether a call started, whatever finish reason the stream ends with", () => {
    const reasons = fc.constantFrom<string | null>("stop", "tool_calls", "eos", "function_call", null);
    const isEnd = (e: unknown) => e === "[DONE]" || (typeof e === "object" && e !== null && typeof (e as any).choices?.[0]?.finish_reason === "string");
    fc.assert(fc.property(chatStreamOf(true), reasons, (s, reason) => {
      const events = [...s.events.filter((e) => !isEnd(e)), ...(reason === null ? [] : [chat.finish(reason)]), "[DONE]"];
      const run = replay({ dialect: "chat-completions" }, { events });
      expect(run.result.toolTurn).toBe(s.outcomes.length > 0);
      expect(run.result.calls.length + run.result.errors.filter((e) => e.callIndex !== undefined).length).toBe(s.outcomes.length);
    }));
  });

  l2.property("pushing the events one by one gives the very updates replay gives", () => {
    fc.assert(fc.property(anyStream(true), (s) => {
      const a = createAssembler({ dialect: s.dialect });
      const updates = s.events.map((e) => a.push(e));
      const end = a.end();
      const whole = replay({ dialect: s.dialect }, { events: s.events });
      expect(updates).toEqual(whole.steps);
      expect(end).toEqual(whole.end);
      expect(a.result()).toEqual(whole.result);
      expect(releasedErrors(whole)).toEqual(whole.result.errors);
    }), { numRuns: 100 });
  });
  l2("chat-completions: the finish chunk's own delta is read first: its text and last fragment count, then the call ends (ready, or truncated by length)", () => {
    const done = chatRun([
      chat.calls({ index: 0, id: "call_e", name: "echo", arguments: "{\"s\":" }),
      chat.delta({ content: "Done.", tool_calls: [fragment({ index: 0, arguments: " \"x\"}" })] }, "tool_calls"),
    ]);
    expect(done.steps[1]).toEqual({ text: "Done.", errors: [], ready: [{ index: 0, id: "call_e", name: "echo", arguments: { s: "x" }, rawArguments: "{\"s\": \"x\"}" }] });
    const cut = chatRun([
      chat.calls({ index: 0, id: "call_e", name: "echo", arguments: "{\"s\":" }),
      chat.delta({ tool_calls: [fragment({ index: 0, arguments: " \"x\"}" })] }, "length"),
    ]);
    expect(cut.steps[1].errors.map(callError)).toEqual([{ code: "truncated", callIndex: 0, id: "call_e", name: "echo", raw: "{\"s\": \"x\"}" }]);
    expect(cut.result).toMatchObject({ status: "incomplete", finishReason: "length", calls: [] });
  });

  l2("chat-completions: after the end, text and fragments are out_of_order one by one; a finish, [DONE] and an error change nothing; usage is still read", () => {
    const late = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
    const r = chatRun([
      ...chatCall(0, "call_1", "first", ["{}"]),
      ...chatCall(1, "call_2", "second", ["{\"cut\": tr"]),
      chat.finish("length"),
      chat.text("late text"),
      chat.calls({ index: 2, id: "call_3", name: "third", arguments: "{}" }),
      chat.calls({ index: 1, arguments: "ue}" }),
      chat.finish("stop"),
      "[DONE]",
      { error: { message: "late", type: "server_error" } },
      { ...chat.delta({}), usage: late },
    ]);
    expect(r.steps.slice(4).map((s) => codes(s.errors))).toEqual([["truncated"], ["out_of_order"], ["out_of_order"], ["out_of_order"], [], [], [], []]);
    expect(r.result).toMatchObject({ status: "incomplete", finishReason: "length", text: "", usage: late });
    expect(r.result.calls.map((c) => c.id)).toEqual(["call_1"]);
    expect(r.result.errors[0]).toMatchObject({ code: "truncated", callIndex: 1, id: "call_2", name: "second", raw: "{\"cut\": tr" });
  });

  l2("chat-completions: the error chunk ends the stream and nothing else in it is read: not its text, its fragment, its finish or its usage", () => {
    const before = { total_tokens: 4 };
    const r = chatRun([
      { ...chat.calls({ index: 0, id: "call_s", name: "slow", arguments: "{}" }), usage: before },
      { error: { message: "overloaded" }, usage: { total_tokens: 99 }, choices: [{ index: 0, delta: { content: "no", tool_calls: [fragment({ index: 0, arguments: " " })] }, finish_reason: "stop" }] },
      chat.finish("stop"),
    ]);
    expect(r.steps[1].text).toBe("");
    expect(r.steps[1].errors.map(callError)).toEqual([
      { code: "server_error", callIndex: undefined, id: undefined, name: undefined, raw: undefined },
      { code: "truncated", callIndex: 0, id: "call_s", name: "slow", raw: "{}" },
    ]);
    expect(r.result).toMatchObject({ status: "failed", finishReason: null, usage: before, calls: [] });
    expect(r.result.errors).toHaveLength(2);
  });

  l2("every dialect: the first end counts; an error, a second end or [DONE] after it changes nothing", () => {
    const rows: [string, Dialect, unknown[], string, string | null][] = [
      ["chat-completions error after the finish", "chat-completions", [chat.text("a"), chat.finish("stop"), { error: { message: "x" } }, chat.finish("length")], "complete", "stop"],
      ["responses error and failed after completed", "responses", [responses.text("a"), responses.completed(), { type: "error", message: "x" }, { type: "response.failed", response: { status: "failed" } }, responses.incomplete("max_output_tokens")], "complete", "completed"],
      ["responses completed after incomplete", "responses", [responses.text("a"), responses.incomplete("content_filter"), responses.completed(), "[DONE]"], "incomplete", "content_filter"],
      ["anthropic error and message_delta after message_stop", "anthropic", [anthropic.start(), anthropic.messageDelta("end_turn"), anthropic.end(), { type: "error", error: { type: "overloaded_error" } }, anthropic.messageDelta("max_tokens"), anthropic.end()], "complete", "end_turn"],
      ["anthropic max_tokens then a second message_stop", "anthropic", [anthropic.start(), anthropic.messageDelta("max_tokens"), anthropic.end(), anthropic.end()], "incomplete", "max_tokens"],
      ["gemini error and a second finish after STOP", "gemini", [gemini.chunk([{ text: "a" }], "STOP"), { error: { code: 500 } }, gemini.chunk([], "MAX_TOKENS"), "[DONE]"], "complete", "STOP"],
      ["gemini STOP after MAX_TOKENS", "gemini", [gemini.chunk([{ text: "a" }], "MAX_TOKENS"), gemini.chunk([], "STOP")], "incomplete", "MAX_TOKENS"],
      ["ollama error and a second done after done", "ollama", [ollama.text("a"), ollama.done("stop"), { error: "gone" }, ollama.done("length")], "complete", "stop"],
      ["ollama done after done length", "ollama", [ollama.text("a"), ollama.done("length"), ollama.done("stop"), "[DONE]"], "incomplete", "length"],
    ];
    for (const [label, dialect, events, status, finishReason] of rows) {
      const r = replay({ dialect }, { events });
      expect(r.result.errors, label).toEqual([]);
      expect(r.result, label).toMatchObject({ status, finishReason });
    }
  });

  l2("Gemini and Ollama: a whole call or text after the end is out_of_order and never ready", () => {
    const g = replay({ dialect: "gemini" }, { events: [
      gemini.chunk([gemini.call("early", { n: 1 })], "STOP"),
      gemini.chunk([gemini.call("late", { n: 2 })]),
      gemini.chunk([{ text: "late text" }]),
    ] });
    expect(g.result.calls.map((c) => c.name)).toEqual(["early"]);
    expect(g.steps.map((s) => codes(s.errors))).toEqual([[], ["out_of_order"], ["out_of_order"]]);
    expect(g.result.text).toBe("");
    const o = replay({ dialect: "ollama" }, { events: [
      { message: { role: "assistant", tool_calls: [{ function: { name: "early", arguments: {} } }] }, done: false },
      ollama.done("stop"),
      { message: { role: "assistant", tool_calls: [{ function: { name: "late", arguments: {} } }] }, done: false },
      ollama.text("late text"),
    ] });
    expect(o.result.calls.map((c) => c.name)).toEqual(["early"]);
    expect(o.steps.map((s) => codes(s.errors))).toEqual([[], [], ["out_of_order"], ["out_of_order"]]);
    expect(o.result).toMatchObject({ text: "", status: "complete", finishReason: "stop" });
  });

  l2("Anthropic: after message_stop, a block's start, delta and stop and text are out_of_order; a message_delta changes neither finishReason nor usage", () => {
    const setup = [
      anthropic.start({ input_tokens: 20, output_tokens: 1 }), anthropic.textBlock(0), anthropic.text(0, "ok"),
      anthropic.toolBlock(1, "toolu_1", "write"), anthropic.json(1, "{\"a\":"),
      anthropic.messageDelta("max_tokens", { output_tokens: 7 }), anthropic.end(),
    ];
    const rows: [string, unknown, string[]][] = [
      ["a delta for the open tool block", anthropic.json(1, " 1}"), ["out_of_order"]],
      ["a stop for the open tool block", anthropic.stop(1), ["out_of_order"]],
      ["a new tool block", anthropic.toolBlock(2, "toolu_2", "read"), ["out_of_order"]],
      ["text for the open text block", anthropic.text(0, " late"), ["out_of_order"]],
      ["a message_delta", anthropic.messageDelta("end_turn", { input_tokens: 1, output_tokens: 99 }), []],
      ["an error", { type: "error", error: { type: "api_error", message: "late" } }, []],
      ["a second message_stop", anthropic.end(), []],
      ["[DONE]", "[DONE]", []],
    ];
    for (const [label, event, errors] of rows) {
      const r = replay({ dialect: "anthropic" }, { events: [...setup, event] });
      expect(codes(r.steps[7].errors), label).toEqual(errors);
      expect(r.result, label).toMatchObject({ status: "incomplete", finishReason: "max_tokens", text: "ok", calls: [], usage: { input_tokens: 20, output_tokens: 7 } });
      expect(codes(r.result.errors), label).toEqual(["truncated", ...errors]);
    }
  });

  l2("Responses: after the end, a call's delta, ends and a new call are out_of_order; text too; a message item is ignored", () => {
    const setup = [responses.callAdded("fc_o", "call_o", "f"), responses.delta("fc_o", "{\"a\":"), responses.completed({ input_tokens: 3, output_tokens: 4 })];
    const rows: [string, unknown, string[]][] = [
      ["a delta for the open call", responses.delta("fc_o", " 1}"), ["out_of_order"]],
      ["its function_call_arguments.done", responses.argsDone("fc_o", "{\"a\": 1}"), ["out_of_order"]],
      ["its output_item.done", responses.itemDone("fc_o", "call_o", "f", "{\"a\": 1}"), ["out_of_order"]],
      ["a new call", responses.callAdded("fc_n", "call_n", "g"), ["out_of_order"]],
      ["output text", responses.text("late"), ["out_of_order"]],
      ["a message item added", { type: "response.output_item.added", output_index: 1, item: { id: "msg_9", type: "message", role: "assistant", content: [] } }, []],
      ["response.failed", { type: "response.failed", response: { status: "failed", usage: { input_tokens: 50 } } }, []],
      ["a second response.completed", responses.completed({ input_tokens: 60 }), []],
      ["response.incomplete", responses.incomplete("max_output_tokens"), []],
    ];
    for (const [label, event, errors] of rows) {
      const r = replay({ dialect: "responses" }, { events: [...setup, event] });
      expect(codes(r.steps[3].errors), label).toEqual(errors);
      expect(r.result, label).toMatchObject({ status: "complete", finishReason: "completed", text: "", calls: [], usage: { input_tokens: 3, output_tokens: 4 } });
      expect(codes(r.result.errors), label).toEqual(["truncated", ...errors]);
    }
  });
});

describe("2. When a call is ready", () => {
  l2("Anthropic: after message_stop a text block's start is out_of_order too, and a text block's text that is not a string is never text", () => {
    const r = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(), { type: "content_block_start", index: 0, content_block: { type: "text", text: 7 } }, anthropic.text(0, "seven"), anthropic.stop(0),
      anthropic.messageDelta("end_turn"), anthropic.end(),
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
    ] });
    expect(r.result).toMatchObject({ text: "seven", status: "complete" });
    expect(releasedText(r)).toBe("seven");
    expect(r.steps.map((step) => codes(step.errors))).toEqual([[], [], [], [], [], [], ["out_of_order"]]);
  });
});

describe("3. Reading the arguments", () => {
  l1("nested arrays and objects, numbers, booleans and null survive the trip", () => {
    const args = { items: [{ id: 1, qty: 2.5 }, { id: 2, qty: -1e-3 }], gift: false, note: null, tags: [[], {}] };
    const text = JSON.stringify(args);
    const run = chatRun([...chatCall(0, "c", "order", [text.slice(0, 13), text.slice(13, 14), text.slice(14)]), chat.finish("tool_calls")]);
    expect(run.result.calls[0].arguments).toEqual(args);
  });

  l2("the placeholder: {} then an empty piece then the object, split, is the object", () => {
    const run = chatRun([...chatCall(0, "c", "f", ["{}", "", "{\"a\"", ": [1, 2]}"]), chat.finish("tool_calls")]);
    expect(run.result.calls.map((c) => [c.arguments, c.rawArguments])).toEqual([[{ a: [1, 2] }, "{\"a\": [1, 2]}"]]);
  });

  l2("glued objects with whitespace between them are still invalid_json", () => {
    const run = chatRun([...chatCall(0, "c", "f", ["{\"a\": 1}", "\n", "{\"b\": 2}"]), chat.finish("tool_calls")]);
    expect(run.result.errors.map((e) => [e.code, e.raw])).toEqual([["invalid_json", "{\"a\": 1}\n{\"b\": 2}"]]);
  });

  l2("__proto__ and constructor in the arguments are plain keys, as JSON.parse makes them", () => {
    const text = "{\"__proto__\": {\"admin\": true}, \"constructor\": \"x\"}";
    const run = chatRun([...chatCall(0, "c", "f", [text]), chat.finish("tool_calls")]);
    const args = run.result.calls[0].arguments;
    expect(Object.keys(args).sort()).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  l2("a call with neither id nor name: missing_name with the id call_<index>", () => {
    const run = chatRun([...chatCall(0, "a", "ok", ["{}"]), chat.calls({ index: 1, arguments: "{}" }), chat.finish("tool_calls")]);
    expect(run.result.errors.map(aboutCall)).toEqual([{ code: "missing_name", callIndex: 1, id: "call_1", name: undefined }]);
  });
  l2("the reading rule, row by row: the {} placeholder, empty and blank text, invalid_json and not_an_object with raw", () => {
    type Want = { ok: Record<string, unknown>; raw: string } | { code: string; raw: string };
    const rows: [string, string[], Want][] = [
      ["{} first, then an object", ["{}", "{\"b\": true}"], { ok: { b: true }, raw: "{\"b\": true}" }],
      ["{} first, then blanks and an object: only the {} is dropped", ["{}", "  ", "{\"b\": 1}"], { ok: { b: 1 }, raw: "  {\"b\": 1}" }],
      ["{} first, empty pieces, then {}", ["{}", "", "{}"], { ok: {}, raw: "{}" }],
      ["{} first, then only tab, CR and LF", ["{}", "\t\r", "\n"], { ok: {}, raw: "{}\t\r\n" }],
      ["{} first, then an array", ["{}", "[1]"], { code: "not_an_object", raw: "[1]" }],
      ["{} first, then not JSON", ["{}", "x"], { code: "invalid_json", raw: "x" }],
      ["a first piece that is {} and more", ["{}{\"b\": 1}"], { code: "invalid_json", raw: "{}{\"b\": 1}" }],
      ["a first piece {} with a space", ["{} ", "{\"b\": 1}"], { code: "invalid_json", raw: "{} {\"b\": 1}" }],
      ["a first piece that is { then }", ["{", "}", "{}"], { code: "invalid_json", raw: "{}{}" }],
      ["{} later, not first", ["{\"a\": 1}", "{}"], { code: "invalid_json", raw: "{\"a\": 1}{}" }],
      ["only empty pieces", ["", ""], { ok: {}, raw: "" }],
      ["only a blank", [" "], { code: "invalid_json", raw: " " }],
      ["a newline", ["\n"], { code: "invalid_json", raw: "\n" }],
      ["an unquoted key", ["{a: 1}"], { code: "invalid_json", raw: "{a: 1}" }],
      ["a brace too many", ["{\"a\": 1}", "}"], { code: "invalid_json", raw: "{\"a\": 1}}" }],
      ["a leading zero", ["{\"n\": 01}"], { code: "invalid_json", raw: "{\"n\": 01}" }],
      ["NaN", ["{\"n\": NaN}"], { code: "invalid_json", raw: "{\"n\": NaN}" }],
      ["a string cut open", ["{\"s\": \"ab"], { code: "invalid_json", raw: "{\"s\": \"ab" }],
      ["an empty array", ["[", "]"], { code: "not_an_object", raw: "[]" }],
      ["a string", ["\"{}\""], { code: "not_an_object", raw: "\"{}\"" }],
      ["a negative number", ["-0.5"], { code: "not_an_object", raw: "-0.5" }],
      ["false", ["fal", "se"], { code: "not_an_object", raw: "false" }],
      ["null with blanks", [" null "], { code: "not_an_object", raw: " null " }],
      ["an object inside blanks", ["\n {\"a\": [] }\t"], { ok: { a: [] }, raw: "\n {\"a\": [] }\t" }],
    ];
    for (const [label, pieces, want] of rows) {
      const r = chatRun([...chatCall(0, "call_r", "read", pieces), chat.finish("tool_calls")]);
      if ("ok" in want) {
        expect(r.result.errors, label).toEqual([]);
        expect(r.result.calls, label).toEqual([{ index: 0, id: "call_r", name: "read", arguments: want.ok, rawArguments: want.raw }]);
        expect(readyLog(r).map(({ at }) => at), label).toEqual([pieces.length + 1]);
      } else {
        expect(r.result.calls, label).toEqual([]);
        expect(r.result.errors.map(callError), label).toEqual([{ code: want.code, callIndex: 0, id: "call_r", name: "read", raw: want.raw }]);
        expect(codes(r.steps[pieces.length + 1].errors), label).toEqual([want.code]);
      }
    }
  });

  l2("missing_name comes before the JSON is read, with the server's id and the whole text in raw", () => {
    const r = chatRun([
      chat.calls({ index: 0, id: "call_k", arguments: "[1," }),
      chat.calls({ index: 0, arguments: " 2]" }),
      chat.calls({ index: 1, id: "call_j", name: "", arguments: "{oops" }),
      chat.calls({ index: 2, id: "call_i", name: null, arguments: "{}" }),
      chat.finish("tool_calls"),
    ]);
    expect(r.result.errors.map(callError)).toEqual([
      { code: "missing_name", callIndex: 0, id: "call_k", name: undefined, raw: "[1, 2]" },
      { code: "missing_name", callIndex: 1, id: "call_j", name: undefined, raw: "{oops" },
      { code: "missing_name", callIndex: 2, id: "call_i", name: undefined, raw: "{}" },
    ]);
    expect(r.result.calls).toEqual([]);
  });

  l2("Responses: the .done text is compared with the deltas' text after the placeholder rule; an empty delta is no text", () => {
    const run = (events: unknown[]) => replay({ dialect: "responses" }, { events: [...events, responses.completed()] });
    const kept = run([responses.callAdded("fc_1", "call_1", "f", "{}"), responses.delta("fc_1", "{\"q\":"), responses.delta("fc_1", " 1}"), responses.argsDone("fc_1", "{\"q\": 1}")]);
    expect(kept.result.calls).toEqual([{ index: 0, id: "call_1", name: "f", arguments: { q: 1 }, rawArguments: "{\"q\": 1}" }]);
    const mismatch = run([responses.callAdded("fc_1", "call_1", "f", "{}"), responses.delta("fc_1", "{\"q\": 1}"), responses.argsDone("fc_1", "{}{\"q\": 1}")]);
    expect(mismatch.result.errors.map(callError)).toEqual([{ code: "arguments_mismatch", callIndex: 0, id: "call_1", name: "f", raw: "{\"q\": 1}" }]);
    expect(mismatch.result.calls).toEqual([]);
    const empty = run([responses.callAdded("fc_1", "call_1", "f"), responses.delta("fc_1", ""), responses.argsDone("fc_1", "{\"b\": 2}")]);
    expect(empty.result.calls.map((c) => [c.arguments, c.rawArguments])).toEqual([[{ b: 2 }, "{\"b\": 2}"]]);
    expect(empty.result.errors).toEqual([]);
  });

  l2("Ollama: a whole call is checked for its size, then its name, then its arguments; raw is JSON.stringify of the arguments", () => {
    const r = replay({ dialect: "ollama", limits: { maxArgumentBytes: 12 } }, { events: [
      { message: { role: "assistant", content: "", tool_calls: [
        { function: { arguments: { x: 1 } } },
        { function: { name: "", arguments: [1] } },
        { function: { name: null, arguments: { long: "value!" } } },
        { function: { name: "f", arguments: "{\"x\":1}" } },
        { function: { name: "g", arguments: 7 } },
        { function: { name: "h", arguments: { x: 1 } } },
      ] }, done: false },
      ollama.done("stop"),
    ] });
    expect(r.steps[0].errors.map(callError)).toEqual([
      { code: "missing_name", callIndex: 0, id: "call_0", name: undefined, raw: "{\"x\":1}" },
      { code: "missing_name", callIndex: 1, id: "call_1", name: undefined, raw: "[1]" },
      { code: "arguments_too_large", callIndex: 2, id: "call_2", name: undefined, raw: undefined },
      { code: "not_an_object", callIndex: 3, id: "call_3", name: "f", raw: "\"{\\\"x\\\":1}\"" },
      { code: "not_an_object", callIndex: 4, id: "call_4", name: "g", raw: "7" },
    ]);
    expect(r.steps[0].ready).toEqual([{ index: 5, id: "call_5", name: "h", arguments: { x: 1 }, rawArguments: "{\"x\":1}" }]);
  });

  l2("Gemini: a whole call's size is its rawArguments' UTF-8 bytes: exactly the limit is ready, one byte less is arguments_too_large", () => {
    const rows: [string, string, number][] = [
      ["ASCII", "abc", 11], ["U+007F", "\u007f", 9], ["U+0080", "\u0080", 10], ["U+07FF", "\u07ff", 10],
      ["U+0800", "\u0800", 11], ["U+FFFD", "\ufffd", 11], ["a pair", "😀", 12], ["mixed", "é€😀a", 18],
    ];
    for (const [label, value, bytes] of rows) {
      const events = [gemini.chunk([gemini.call("f", { q: value })], "STOP")];
      const fits = replay({ dialect: "gemini", limits: { maxArgumentBytes: bytes } }, { events });
      expect(fits.result.calls.map((c) => c.rawArguments), label).toEqual([JSON.stringify({ q: value })]);
      expect(fits.result.errors, label).toEqual([]);
      const over = replay({ dialect: "gemini", limits: { maxArgumentBytes: bytes - 1 } }, { events });
      expect(over.result.errors.map((e) => [e.code, e.callIndex, e.id, e.raw]), label).toEqual([["arguments_too_large", 0, "call_0", undefined]]);
      expect(over.result.calls, label).toEqual([]);
    }
  });
});

describe("4. The other dialects", () => {
  l2("Responses: a call with no .done when response.completed arrives is truncated; status complete", () => {
    const r = replay({ dialect: "responses" }, { events: [responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{}"), responses.completed()] });
    expect(r.result).toMatchObject({ status: "complete", calls: [] });
    expect(r.result.errors.map(aboutCall)).toEqual([{ code: "truncated", callIndex: 0, id: "c1", name: "f" }]);
  });

  l2("Responses: output_item.done alone ends the call; a delta after it is out_of_order; incomplete by content_filter", () => {
    const r = replay({ dialect: "responses" }, { events: [
      responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{\"a\": 1}"), responses.itemDone("fc_1", "c1", "f", "{\"a\": 1}"),
      responses.delta("fc_1", " "), responses.incomplete("content_filter"),
    ] });
    expect(readyLog(r).map(({ at, call }) => [at, call.arguments])).toEqual([[2, { a: 1 }]]);
    expect(codes(r.result.errors)).toEqual(["out_of_order"]);
    expect(r.result).toMatchObject({ status: "incomplete", finishReason: "content_filter" });
  });

  l2("Anthropic: blocks whose deltas interleave each keep their own text", () => {
    const r = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(), anthropic.toolBlock(0, "t0", "a"), anthropic.toolBlock(1, "t1", "b"),
      anthropic.json(1, "{\"y\":"), anthropic.json(0, "{\"x\":"), anthropic.json(0, " 0}"), anthropic.json(1, " 1}"),
      anthropic.stop(1), anthropic.stop(0), anthropic.messageDelta("tool_use"), anthropic.end(),
    ] });
    expect(readyLog(r).map(({ at, call }) => [at, call.id, call.arguments])).toEqual([[7, "t1", { y: 1 }], [8, "t0", { x: 0 }]]);
    expect(r.result.calls.map((c) => c.index)).toEqual([1, 0]);
  });

  l2("Anthropic: a block with no input and no delta is {} written \"{}\"; end_turn with an open block truncates it", () => {
    const r = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(), { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t0", name: "now" } }, anthropic.stop(0),
      anthropic.toolBlock(1, "t1", "later"), anthropic.json(1, "{}"), anthropic.messageDelta("end_turn"), anthropic.end(),
    ] });
    expect(r.result.calls.map((c) => [c.id, c.arguments, c.rawArguments])).toEqual([["t0", {}, "{}"]]);
    expect(r.result.errors.map(aboutCall)).toEqual([{ code: "truncated", callIndex: 1, id: "t1", name: "later" }]);
    expect(r.result.status).toBe("complete");
  });

  l2("Anthropic: refusal and a full context window end incomplete; an unreadable index fails the open block with lost_fragment", () => {
    const refusal = replay({ dialect: "anthropic" }, { events: [anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "I can't"), anthropic.stop(0), anthropic.messageDelta("refusal"), anthropic.end()] });
    expect(refusal.result).toMatchObject({ status: "incomplete", finishReason: "refusal", text: "I can't" });
    const full = replay({ dialect: "anthropic" }, { events: [anthropic.start(), anthropic.messageDelta("model_context_window_exceeded"), anthropic.end()] });
    expect(full.result.status).toBe("incomplete");
    const lost = replay({ dialect: "anthropic" }, { events: [anthropic.start(), anthropic.toolBlock(0, "t0", "pay"), anthropic.json(0, "{\"amount\": 10"), anthropic.json(-1, "0"), anthropic.json(0, "}"), anthropic.stop(0), anthropic.end()] });
    expect(codes(lost.result.errors)).toEqual(["bad_index", "lost_fragment"]);
    expect(lost.result.calls).toEqual([]);
  });

  l2("Anthropic: a block started twice is out_of_order and the first one stands; Responses: an item added twice too", () => {
    const a = replay({ dialect: "anthropic" }, { events: [anthropic.start(), anthropic.toolBlock(0, "t0", "a"), anthropic.toolBlock(0, "t9", "z"), anthropic.json(0, "{}"), anthropic.stop(0), anthropic.end()] });
    expect(a.result.calls.map((c) => [c.id, c.name])).toEqual([["t0", "a"]]);
    expect(codes(a.result.errors)).toEqual(["out_of_order"]);
    const r = replay({ dialect: "responses" }, { events: [responses.callAdded("fc", "c1", "a"), responses.callAdded("fc", "c2", "b"), responses.argsDone("fc", "{}"), responses.incomplete(null as never)] });
    expect(r.result.calls.map((c) => [c.id, c.name])).toEqual([["c1", "a"]]);
    expect(codes(r.result.errors)).toEqual(["out_of_order"]);
  });

  l2("Responses: response.incomplete without a reason has the finish reason \"incomplete\"", () => {
    const r = replay({ dialect: "responses" }, { events: [responses.text("Hi"), { type: "response.incomplete", response: { status: "incomplete" } }] });
    expect(r.result).toMatchObject({ status: "incomplete", finishReason: "incomplete", text: "Hi" });
  });

  l2("Gemini: only candidate 0 is read; a whole call is checked for size, then name, then arguments", () => {
    const r = replay({ dialect: "gemini", limits: { maxArgumentBytes: 8 } }, { events: [
      { candidates: [{ index: 1, content: { parts: [{ text: "other" }, gemini.call("x", {})] }, finishReason: "MAX_TOKENS" }, { index: 0, content: { parts: [{ text: "mine" }] } }] },
      gemini.chunk([gemini.call("", [1]), gemini.call("", { long: "enough" }), gemini.call("ok", "no")], "STOP"),
    ] });
    expect(r.result.text).toBe("mine");
    expect(r.result.errors.map((e) => [e.code, e.callIndex])).toEqual([["missing_name", 0], ["arguments_too_large", 1], ["not_an_object", 2]]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: "STOP" });
  });

  l2("Gemini: a call's own id, null args as {}, and SAFETY as incomplete", () => {
    const r = replay({ dialect: "gemini" }, { events: [gemini.chunk([gemini.call("lookup", null, { id: "g1" }), { text: "partial answer" }], "SAFETY")] });
    expect(r.result.calls).toEqual([{ index: 0, id: "g1", name: "lookup", arguments: {}, rawArguments: "{}" }]);
    expect(r.result).toMatchObject({ text: "partial answer", status: "incomplete", finishReason: "SAFETY" });
  });

  l2("Ollama: an index inside function is ignored; done without done_reason is complete with no finish reason", () => {
    const r = replay({ dialect: "ollama" }, { events: [
      { message: { role: "assistant", content: "", tool_calls: [{ function: { index: 1, name: "search", arguments: { q: "x" } } }] }, done: false },
      { message: { role: "assistant", content: "" }, done: true },
    ] });
    expect(r.result.calls.map((c) => [c.index, c.id, c.arguments])).toEqual([[0, "call_0", { q: "x" }]]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: null });
    expect(replay({ dialect: "ollama" }, { events: [ollama.text("hi"), { error: "model not found" }] }).result.status).toBe("failed");
  });

  l2("API misuse in another order: bytes after events, limits given as undefined take the defaults", () => {
    const a = createAssembler({ dialect: "gemini" });
    a.push(gemini.chunk([{ text: "x" }]));
    expect(() => a.pushBytes(new Uint8Array([1]))).toThrow(StreamUsageError);
    const many = Array.from({ length: 130 }, (_, i) => chat.calls({ index: i, id: `c${i}`, name: "f", arguments: "{}" }));
    const b = replay({ dialect: "chat-completions", limits: { maxCalls: undefined, maxArgumentBytes: undefined } }, { events: [...many, chat.finish("tool_calls")] });
    expect(b.result.calls).toHaveLength(128);
    expect(codes(b.result.errors)).toEqual(["too_many_calls"]);
  });
  l2("Responses: an end event without arguments, or with null, ends the call with the deltas' text; no text at all is {}", () => {
    const rows: [string, unknown[], Record<string, unknown>, string][] = [
      ["a .done without arguments", [responses.delta("fc_1", "{\"a\": 1}"), { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0 }], { a: 1 }, "{\"a\": 1}"],
      ["a .done with arguments null", [responses.delta("fc_1", "{\"a\": 1}"), { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: null }], { a: 1 }, "{\"a\": 1}"],
      ["an output_item.done whose item has no arguments", [responses.delta("fc_1", "{\"a\": 1}"), { type: "response.output_item.done", output_index: 0, item: { id: "fc_1", type: "function_call", status: "completed", call_id: "call_1", name: "f" } }], { a: 1 }, "{\"a\": 1}"],
      ["no delta and a .done without arguments", [{ type: "response.function_call_arguments.done", item_id: "fc_1" }], {}, ""],
      ["no delta and a .done with empty arguments", [responses.argsDone("fc_1", "")], {}, ""],
    ];
    for (const [label, events, args, raw] of rows) {
      const r = replay({ dialect: "responses" }, { events: [responses.callAdded("fc_1", "call_1", "f"), ...events, responses.completed()] });
      expect(r.result.errors, label).toEqual([]);
      expect(readyLog(r).map(({ at, call }) => [at, call.arguments, call.rawArguments]), label).toEqual([[events.length, args, raw]]);
    }
  });

  l2("Responses: the second of the two end events is ignored, whatever arguments it carries", () => {
    const rows: [string, unknown][] = [
      ["an output_item.done with other arguments", responses.itemDone("fc_1", "call_1", "f", "{\"z\": 0}")],
      ["an output_item.done whose arguments are not a string", { type: "response.output_item.done", output_index: 0, item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "f", arguments: 7 } }],
    ];
    for (const [label, second] of rows) {
      const r = replay({ dialect: "responses" }, { events: [responses.callAdded("fc_1", "call_1", "f"), responses.delta("fc_1", "{\"a\": 1}"), responses.argsDone("fc_1", "{\"a\": 1}"), second, responses.completed()] });
      expect(r.result.errors, label).toEqual([]);
      expect(r.result.calls.map((c) => c.arguments), label).toEqual([{ a: 1 }]);
      expect(r.steps[3], label).toEqual({ text: "", ready: [], errors: [] });
    }
    const itemFirst = replay({ dialect: "responses" }, { events: [responses.callAdded("fc_1", "call_1", "f"), responses.itemDone("fc_1", "call_1", "f", "{\"a\": 1}"), responses.argsDone("fc_1", "{\"a\": 2}"), responses.completed()] });
    expect(itemFirst.result.errors).toEqual([]);
    expect(readyLog(itemFirst).map(({ at, call }) => [at, call.arguments])).toEqual([[1, { a: 1 }]]);
  });

  l2("Responses: items other than function_call start nothing, and a delta for one is out_of_order", () => {
    const r = replay({ dialect: "responses" }, { events: [
      responses.created(),
      { type: "response.output_item.added", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } },
      { type: "response.output_item.added", output_index: 1, item: { id: "ws_1", type: "web_search_call", status: "in_progress", name: "search" } },
      { type: "response.output_item.added", output_index: 2, item: { id: "msg_1", type: "message", role: "assistant", content: [] } },
      responses.delta("ws_1", "{}"),
      { type: "response.output_item.done", output_index: 2, item: { id: "msg_1", type: "message", role: "assistant", content: [] } },
      responses.completed(),
    ] });
    expect(r.steps.map((s) => codes(s.errors))).toEqual([[], [], [], [], ["out_of_order"], [], []]);
    expect(r.result).toMatchObject({ toolTurn: false, calls: [], status: "complete" });
  });

  l2("Responses: response.failed is the end, failed, one server_error, finish reason null, and its usage; response.incomplete's usage too", () => {
    const failed = replay({ dialect: "responses" }, { events: [
      responses.callAdded("fc_1", "call_1", "f"), responses.delta("fc_1", "{"),
      { type: "response.failed", response: { id: "resp_1", status: "failed", error: { code: "server_error" }, usage: { input_tokens: 9, output_tokens: 0 } } },
    ] });
    expect(failed.steps[2].errors.map(callError)).toEqual([
      { code: "server_error", callIndex: undefined, id: undefined, name: undefined, raw: undefined },
      { code: "truncated", callIndex: 0, id: "call_1", name: "f", raw: "{" },
    ]);
    expect(failed.result).toMatchObject({ status: "failed", finishReason: null, usage: { input_tokens: 9, output_tokens: 0 } });
    const afterError = replay({ dialect: "responses" }, { events: [{ type: "error", code: "rate_limit" }, { type: "response.failed", response: { status: "failed", usage: { input_tokens: 1 } } }] });
    expect(codes(afterError.result.errors)).toEqual(["server_error"]);
    expect(afterError.result).toMatchObject({ status: "failed", finishReason: null, usage: null });
    const incomplete = replay({ dialect: "responses" }, { events: [
      responses.text("Hi"),
      { type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: { input_tokens: 5, output_tokens: 64 } } },
    ] });
    expect(incomplete.result).toMatchObject({ status: "incomplete", finishReason: "max_output_tokens", usage: { input_tokens: 5, output_tokens: 64 } });
  });

  l2("Responses: incomplete_details null, without a string reason, or absent gives the finish reason \"incomplete\"", () => {
    const rows: [string, unknown][] = [
      ["null", { status: "incomplete", incomplete_details: null }],
      ["no reason", { status: "incomplete", incomplete_details: {} }],
      ["details that are a string", { status: "incomplete", incomplete_details: "max_output_tokens" }],
      ["no response at all", undefined],
    ];
    for (const [label, response] of rows) {
      const r = replay({ dialect: "responses" }, { events: [responses.text("a"), { type: "response.incomplete", ...(response === undefined ? {} : { response }) }] });
      expect(r.result, label).toMatchObject({ status: "incomplete", finishReason: "incomplete", text: "a" });
    }
  });

  l2("Responses: an output_text.delta that is not a string is not text; output_text.done releases nothing", () => {
    const r = replay({ dialect: "responses" }, { events: [
      responses.text("a"),
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: 5 },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: null },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: ["b"] },
      responses.text("c"),
      responses.textDone("ac"),
      responses.completed(),
    ] });
    expect(r.steps.map((s) => s.text)).toEqual(["a", "", "", "", "c", "", ""]);
    expect(r.result.text).toBe("ac");
  });

  l2("Responses: a call field of the wrong type is bad_event, then lost_fragment for the open call; its later events are dropped", () => {
    const rows: [string, unknown][] = [
      ["an added item that is a number", { type: "response.output_item.added", output_index: 1, item: 5 }],
      ["a done item that is a string", { type: "response.output_item.done", output_index: 1, item: "fc_1" }],
      ["a function_call item without an id", { type: "response.output_item.added", output_index: 1, item: { type: "function_call", call_id: "call_2", name: "g", arguments: "" } }],
      ["an item id that is a number", { type: "response.output_item.added", output_index: 1, item: { id: 2, type: "function_call", call_id: "call_2", name: "g" } }],
      ["a call_id that is a number", { type: "response.output_item.added", output_index: 1, item: { id: "fc_2", type: "function_call", call_id: 2, name: "g" } }],
      ["a name that is an object", { type: "response.output_item.added", output_index: 1, item: { id: "fc_2", type: "function_call", call_id: "call_2", name: {} } }],
      ["added arguments that are an object", { type: "response.output_item.added", output_index: 1, item: { id: "fc_2", type: "function_call", call_id: "call_2", name: "g", arguments: {} } }],
      ["a delta that is an array", { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: ["1}"] }],
      ["a delta whose item_id is a number", { type: "response.function_call_arguments.delta", item_id: 1, delta: "1}" }],
      ["a .done whose item_id is an object", { type: "response.function_call_arguments.done", item_id: { id: "fc_1" }, arguments: "{}" }],
      ["a .done whose arguments are a number", { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: 7 }],
      ["an output_item.done whose arguments are an object", { type: "response.output_item.done", output_index: 0, item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "f", arguments: { a: 1 } } }],
    ];
    for (const [label, bad] of rows) {
      const r = replay({ dialect: "responses" }, { events: [
        responses.callAdded("fc_1", "call_1", "f"), responses.delta("fc_1", "{\"a\":"), bad,
        responses.delta("fc_1", " 1}"), responses.argsDone("fc_1", "{\"a\": 1}"), responses.completed(),
      ] });
      expect(codes(r.steps[2].errors), label).toEqual(["bad_event", "lost_fragment"]);
      expect(streamFields(r.steps[2].errors[0]), label).toEqual(NO_CALL_FIELDS);
      expect(callError(r.steps[2].errors[1]), label).toEqual({ code: "lost_fragment", callIndex: 0, id: "call_1", name: "f", raw: "{\"a\":" });
      expect(r.result.errors, label).toHaveLength(2);
      expect(r.result.calls, label).toEqual([]);
    }
  });

  l2("Responses: a call_id or name of null is absent: call_<index>, missing_name", () => {
    const r = replay({ dialect: "responses" }, { events: [
      { type: "response.output_item.added", output_index: 0, item: { id: "fc_a", type: "function_call", call_id: null, name: "a", arguments: "" } },
      responses.argsDone("fc_a", "{}"),
      { type: "response.output_item.added", output_index: 1, item: { id: "fc_b", type: "function_call", call_id: "call_b", name: null, arguments: null } },
      responses.argsDone("fc_b", "{}"),
      responses.completed(),
    ] });
    expect(r.result.calls.map((c) => [c.index, c.id, c.name])).toEqual([[0, "call_0", "a"]]);
    expect(r.result.errors.map(callError)).toEqual([{ code: "missing_name", callIndex: 1, id: "call_b", name: undefined, raw: "{}" }]);
  });

  l2("Anthropic: a text block's own text is text; text_delta only on a text block, input_json_delta only on a tool block, other deltas ignored", () => {
    const r = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hello " } },
      anthropic.text(0, "world"),
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 5 } },
      { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation: { cited_text: "c" }, text: "[1]" } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}" } },
      anthropic.stop(0),
      { type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", text: "hidden" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "hidden" } },
      { type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "hmm" } },
      anthropic.stop(1),
      anthropic.toolBlock(2, "toolu_2", "calc"),
      { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "nope" } },
      anthropic.json(2, "{\"x\": 2}"),
      anthropic.stop(2),
      anthropic.messageDelta("tool_use"), anthropic.end(),
    ] });
    expect(r.steps[1].text).toBe("Hello ");
    expect(r.result).toMatchObject({ text: "Hello world", errors: [], status: "complete", finishReason: "tool_use" });
    expect(r.result.calls).toEqual([{ index: 0, id: "toolu_2", name: "calc", arguments: { x: 2 }, rawArguments: "{\"x\": 2}" }]);
    expect(readyLog(r).map(({ at }) => at)).toEqual([14]);
  });

  l2("Anthropic: a start for a block that already started, even stopped, is out_of_order; a bad index on a start loses the open block", () => {
    const again = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(), anthropic.toolBlock(3, "toolu_a", "a"), anthropic.stop(3),
      anthropic.toolBlock(3, "toolu_b", "b"), anthropic.textBlock(3), anthropic.json(3, "{}"), anthropic.end(),
    ] });
    expect(again.steps.map((s) => codes(s.errors))).toEqual([[], [], [], ["out_of_order"], ["out_of_order"], ["out_of_order"], []]);
    expect(again.result.calls.map((c) => [c.id, c.name, c.rawArguments])).toEqual([["toolu_a", "a", "{}"]]);
    expect(again.result.toolTurn).toBe(true);
    for (const index of [-2, 0.5, "1", true]) {
      const r = replay({ dialect: "anthropic" }, { events: [
        anthropic.start(), anthropic.toolBlock(0, "toolu_0", "pay"), anthropic.json(0, "{\"n\":"),
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
        anthropic.json(0, " 1}"), anthropic.stop(0), anthropic.end(),
      ] });
      expect(codes(r.steps[3].errors), String(index)).toEqual(["bad_index", "lost_fragment"]);
      expect(callError(r.steps[3].errors[1]), String(index)).toEqual({ code: "lost_fragment", callIndex: 0, id: "toolu_0", name: "pay", raw: "{\"n\":" });
      expect(r.result.errors, String(index)).toHaveLength(2);
      expect(r.result.calls, String(index)).toEqual([]);
    }
  });

  l2("Anthropic: a block or delta that is not an object, or a tool_use id or name of the wrong type, is bad_event, then lost_fragment", () => {
    const rows: [string, unknown][] = [
      ["a content_block that is a number", { type: "content_block_start", index: 1, content_block: 5 }],
      ["a content_block that is a string", { type: "content_block_start", index: 1, content_block: "tool_use" }],
      ["a tool_use id that is a number", { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: 5, name: "g", input: {} } }],
      ["a tool_use name that is an array", { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: ["g"], input: {} } }],
      ["a delta that is a string", { type: "content_block_delta", index: 0, delta: "{\"n\": 1}" }],
      ["a delta that is an array", { type: "content_block_delta", index: 0, delta: [] }],
      ["partial_json that is an object", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: {} } }],
      ["a delta's index that is negative", { type: "content_block_delta", index: -1, delta: { type: "input_json_delta", partial_json: "1" } }],
      ["a stop's index that is a string", { type: "content_block_stop", index: "0" }],
    ];
    for (const [label, bad] of rows) {
      const r = replay({ dialect: "anthropic" }, { events: [
        anthropic.start(), anthropic.toolBlock(0, "toolu_0", "pay"), anthropic.json(0, "{\"n\":"), bad,
        anthropic.json(0, " 1}"), anthropic.stop(0), anthropic.messageDelta("tool_use"), anthropic.end(),
      ] });
      const first = label.includes("index") ? "bad_index" : "bad_event";
      expect(codes(r.steps[3].errors), label).toEqual([first, "lost_fragment"]);
      expect(streamFields(r.steps[3].errors[0]), label).toEqual(NO_CALL_FIELDS);
      expect(callError(r.steps[3].errors[1]), label).toEqual({ code: "lost_fragment", callIndex: 0, id: "toolu_0", name: "pay", raw: "{\"n\":" });
      expect(r.result.errors, label).toHaveLength(2);
      expect(r.result.calls, label).toEqual([]);
    }
  });

  l2("Anthropic: usage merges message_start's and each message_delta's; none at all is null; a message_delta's stop_reason counts only as a string", () => {
    const merged = replay({ dialect: "anthropic" }, { events: [
      anthropic.start({ input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 0 }),
      anthropic.messageDelta("end_turn", { output_tokens: 3 }),
      { type: "message_delta", delta: { stop_reason: null }, usage: { output_tokens: 9, server_tool_use: 1 } },
      { type: "message_delta", usage: { output_tokens: 11 } },
      { type: "message_delta", delta: { stop_reason: 4 }, usage: null },
      anthropic.end(),
    ] });
    expect(merged.result).toMatchObject({ status: "complete", finishReason: "end_turn", errors: [] });
    expect(merged.result.usage).toEqual({ input_tokens: 5, output_tokens: 11, cache_read_input_tokens: 0, server_tool_use: 1 });
    const starts: unknown[] = [{ type: "message_start", message: { id: "msg_2", type: "message", role: "assistant", content: [] } }, { type: "message_start", message: null }];
    for (const start of starts) {
      const none = replay({ dialect: "anthropic" }, { events: [start, { type: "message_delta", delta: { stop_reason: "end_turn" } }, anthropic.end()] });
      expect(none.result, JSON.stringify(start)).toMatchObject({ status: "complete", finishReason: "end_turn", usage: null, errors: [] });
    }
    const noReason = replay({ dialect: "anthropic" }, { events: [anthropic.start(), { type: "message_delta", usage: { output_tokens: 2 } }, anthropic.end()] });
    expect(noReason.result).toMatchObject({ status: "complete", finishReason: null, usage: { input_tokens: 20, output_tokens: 2 } });
  });

  l2("Anthropic: an error event ends the stream failed with server_error, then truncated for each open tool block in start order", () => {
    const r = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(), anthropic.toolBlock(0, "toolu_0", "a"), anthropic.toolBlock(1, "toolu_1", "b"),
      anthropic.json(1, "{\"y\""), anthropic.json(0, "{\"x\""),
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      anthropic.stop(0),
    ] });
    expect(r.steps[5].errors.map(callError)).toEqual([
      { code: "server_error", callIndex: undefined, id: undefined, name: undefined, raw: undefined },
      { code: "truncated", callIndex: 0, id: "toolu_0", name: "a", raw: "{\"x\"" },
      { code: "truncated", callIndex: 1, id: "toolu_1", name: "b", raw: "{\"y\"" },
    ]);
    expect(codes(r.steps[6].errors)).toEqual(["out_of_order"]);
    expect(r.result).toMatchObject({ status: "failed", calls: [] });
  });

  l2("Anthropic: an empty delta is no argument text, so the block's input stands; a null input or id counts as absent", () => {
    const r = replay({ dialect: "anthropic" }, { events: [
      anthropic.start(),
      anthropic.toolBlock(0, "toolu_0", "geo", { city: "Lyon" }), anthropic.json(0, ""), anthropic.stop(0),
      { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "now", input: null } }, anthropic.stop(1),
      { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: null, name: "later", input: {} } }, anthropic.json(2, ""), anthropic.json(2, "{\"in\": 5}"), anthropic.stop(2),
      anthropic.messageDelta("tool_use"), anthropic.end(),
    ] });
    expect(r.result.errors).toEqual([]);
    expect(r.result.calls).toEqual([
      { index: 0, id: "toolu_0", name: "geo", arguments: { city: "Lyon" }, rawArguments: "{\"city\":\"Lyon\"}" },
      { index: 1, id: "toolu_1", name: "now", arguments: {}, rawArguments: "{}" },
      { index: 2, id: "call_2", name: "later", arguments: { in: 5 }, rawArguments: "{\"in\": 5}" },
    ]);
  });

  l2("Gemini: null or absent fields are absent; [DONE], other candidates and a finishReason that is not a string change nothing", () => {
    const rows: [string, unknown, string][] = [
      ["error: null", { error: null, candidates: [{ content: { parts: [{ text: "a" }] } }] }, "a"],
      ["candidates: null", { candidates: null, usageMetadata: { totalTokenCount: 1 } }, ""],
      ["no candidates", { usageMetadata: { totalTokenCount: 1 }, modelVersion: "gemini-2.5-flash" }, ""],
      ["content: null", { candidates: [{ content: null, index: 0 }] }, ""],
      ["no content", { candidates: [{ index: 0, safetyRatings: [] }] }, ""],
      ["parts: null", { candidates: [{ content: { parts: null, role: "model" } }] }, ""],
      ["no parts", { candidates: [{ content: { role: "model" } }] }, ""],
      ["a candidate's index: null", { candidates: [{ index: null, content: { parts: [{ text: "b" }] } }] }, "b"],
      ["functionCall: null beside text", { candidates: [{ content: { parts: [{ functionCall: null, text: "c" }] } }] }, "c"],
      ["text that is not a string, an empty part", { candidates: [{ content: { parts: [{ text: 5 }, {}, { text: null }, { text: ["d"] }] } }] }, ""],
      ["[DONE]", "[DONE]", ""],
      ["a finishReason that is a number", { candidates: [{ content: { parts: [{ text: "e" }] }, finishReason: 1 }] }, "e"],
      ["candidate 1, with text, a call and a finish", { candidates: [{ index: 1, content: { parts: [{ text: "no" }, gemini.call("x", {})] }, finishReason: "SAFETY" }] }, ""],
      ["candidate 2 whose content is not an object", { candidates: [{ index: 2, content: 5 }] }, ""],
    ];
    for (const [label, event, text] of rows) {
      const r = replay({ dialect: "gemini" }, { events: [gemini.chunk([{ text: "<" }]), event, gemini.chunk([{ text: ">" }], "STOP")] });
      expect(r.result.errors, label).toEqual([]);
      expect(r.steps[1].text, label).toBe(text);
      expect(r.result, label).toMatchObject({ text: `<${text}>`, calls: [], status: "complete", finishReason: "STOP", toolTurn: false });
    }
  });

  l2("Gemini: usageMetadata that is not an object is not kept; the last object wins", () => {
    const first = { promptTokenCount: 3, totalTokenCount: 3 };
    const last = { promptTokenCount: 3, candidatesTokenCount: 8, totalTokenCount: 11 };
    const r = replay({ dialect: "gemini" }, { events: [
      { candidates: [{ content: { parts: [{ text: "a" }] } }], usageMetadata: first },
      { candidates: [{ content: { parts: [{ text: "b" }] } }] },
      { candidates: [{ content: { parts: [{ text: "c" }] } }], usageMetadata: null },
      { candidates: [{ content: { parts: [{ text: "d" }] } }], usageMetadata: 5 },
      { candidates: [{ content: { parts: [{ text: "e" }] } }], usageMetadata: "x" },
    ] });
    expect(r.result.usage).toEqual(first);
    const closing = replay({ dialect: "gemini" }, { events: [
      { candidates: [{ content: { parts: [{ text: "a" }] } }], usageMetadata: first },
      { candidates: [{ content: { parts: [] }, finishReason: "STOP" }], usageMetadata: last },
    ] });
    expect(closing.result.usage).toEqual(last);
  });

  l2("Gemini: the id is functionCall.id only when a non-empty string, else call_<index>; only a string thoughtSignature is kept", () => {
    const r = replay({ dialect: "gemini" }, { events: [gemini.chunk([
      gemini.call("a", { n: 0 }, { id: "" }),
      gemini.call("b", { n: 1 }, { id: 5 }),
      gemini.call("c", { n: 2 }, { id: null }),
      gemini.call("d", { n: 3 }, { id: "fc-d" }),
      { functionCall: { name: "e", args: {} }, thoughtSignature: 42 },
      { functionCall: { name: "f", args: {} }, thoughtSignature: "sig_f" },
    ], "STOP")] });
    expect(r.result.errors).toEqual([]);
    expect(r.steps[0].ready.map((c) => [c.index, c.id, c.name, c.thoughtSignature])).toEqual([
      [0, "call_0", "a", undefined], [1, "call_1", "b", undefined], [2, "call_2", "c", undefined],
      [3, "fc-d", "d", undefined], [4, "call_4", "e", undefined], [5, "call_5", "f", "sig_f"],
    ]);
  });

  l2("Gemini: a call without a name, null or not a string is missing_name with raw the JSON of its args", () => {
    const r = replay({ dialect: "gemini" }, { events: [gemini.chunk([
      { functionCall: { args: { q: 1 } } },
      { functionCall: { name: null, args: { q: 2 } } },
      { functionCall: { name: 7, args: [3] } },
      { functionCall: { name: "" } },
      { functionCall: { name: "ok", args: null } },
    ], "STOP")] });
    expect(r.steps[0].errors.map(callError)).toEqual([
      { code: "missing_name", callIndex: 0, id: "call_0", name: undefined, raw: "{\"q\":1}" },
      { code: "missing_name", callIndex: 1, id: "call_1", name: undefined, raw: "{\"q\":2}" },
      { code: "missing_name", callIndex: 2, id: "call_2", name: undefined, raw: "[3]" },
      { code: "missing_name", callIndex: 3, id: "call_3", name: undefined, raw: "{}" },
    ]);
    expect(r.result.calls).toEqual([{ index: 4, id: "call_4", name: "ok", arguments: {}, rawArguments: "{}" }]);
  });

  l2("Gemini: a field of the wrong shape is bad_event and the next chunk is read as usual; an error field is failed", () => {
    const rows: [string, unknown][] = [
      ["an event that is a string", "data"],
      ["candidates that is an object", { candidates: { 0: { content: { parts: [{ text: "x" }] } } } }],
      ["a candidate that is a string", { candidates: ["x"] }],
      ["content that is an array", { candidates: [{ content: [{ parts: [] }] }] }],
      ["parts that is an object", { candidates: [{ content: { parts: { text: "x" } } }] }],
      ["a part that is a number", { candidates: [{ content: { parts: [7] } }] }],
      ["a functionCall that is a string", { candidates: [{ content: { parts: [{ functionCall: "f" }] } }] }],
    ];
    for (const [label, bad] of rows) {
      const r = replay({ dialect: "gemini" }, { events: [bad, gemini.chunk([gemini.call("next", { k: 1 }), { text: "t" }], "STOP")] });
      expect(codes(r.steps[0].errors), label).toEqual(["bad_event"]);
      expect(streamFields(r.steps[0].errors[0]), label).toEqual(NO_CALL_FIELDS);
      expect(r.result.calls.map(brief), label).toEqual([{ id: "call_0", name: "next", arguments: { k: 1 } }]);
      expect(r.result, label).toMatchObject({ text: "t", status: "complete" });
      expect(r.result.errors, label).toHaveLength(1);
    }
    const failed = replay({ dialect: "gemini" }, { events: [gemini.chunk([{ text: "a" }]), { error: { code: 503, message: "overloaded", status: "UNAVAILABLE" } }, gemini.chunk([{ text: "b" }], "STOP")] });
    expect(codes(failed.steps[1].errors)).toEqual(["server_error"]);
    expect(failed.result).toMatchObject({ status: "failed", finishReason: null, text: "a" });
  });

  l2("Ollama: [DONE], a null error, message or tool_calls, content that is not a string and any usage field change nothing", () => {
    const rows: [string, unknown, string][] = [
      ["[DONE]", "[DONE]", ""],
      ["error: null", { error: null, message: { role: "assistant", content: "a" }, done: false }, "a"],
      ["message: null", { model: "qwen3", message: null, done: false }, ""],
      ["no message", { model: "qwen3", done: false }, ""],
      ["content that is a number", { message: { role: "assistant", content: 5, thinking: "t" }, done: false }, ""],
      ["content: null", { message: { role: "assistant", content: null }, done: false }, ""],
      ["tool_calls: null beside text", { message: { role: "assistant", content: "b", tool_calls: null }, done: false }, "b"],
      ["usage fields", { message: { role: "assistant", content: "" }, done: false, usage: { total_tokens: 3 }, prompt_eval_count: 3, eval_count: 1 }, ""],
    ];
    for (const [label, event, text] of rows) {
      const r = replay({ dialect: "ollama" }, { events: [ollama.text("<"), event, ollama.text(">"), ollama.done("stop")] });
      expect(r.result.errors, label).toEqual([]);
      expect(r.steps[1].text, label).toBe(text);
      expect(r.result, label).toMatchObject({ text: `<${text}>`, status: "complete", finishReason: "stop", usage: null, calls: [] });
    }
  });

  l2("Ollama: a done_reason that is not a string is no finish reason; the id is the entry's non-empty string id, absent or null arguments are {}", () => {
    for (const reason of [5, null, { r: "stop" }]) {
      const r = replay({ dialect: "ollama" }, { events: [ollama.text("x"), { message: { role: "assistant", content: "" }, done: true, done_reason: reason }] });
      expect(r.result, String(reason)).toMatchObject({ status: "complete", finishReason: null });
    }
    const r = replay({ dialect: "ollama" }, { events: [
      { message: { role: "assistant", content: "", tool_calls: [
        { id: "", function: { name: "a", arguments: { n: 0 } } },
        { id: 7, function: { name: "b", arguments: { n: 1 } } },
        { id: "tc_2", function: { name: "c", arguments: { n: 2 } } },
        { id: null, function: { name: "d" } },
        { function: { name: "e", arguments: null } },
      ] }, done: false },
      ollama.done("stop"),
    ] });
    expect(r.result.errors).toEqual([]);
    expect(r.steps[0].ready).toEqual([
      { index: 0, id: "call_0", name: "a", arguments: { n: 0 }, rawArguments: "{\"n\":0}" },
      { index: 1, id: "call_1", name: "b", arguments: { n: 1 }, rawArguments: "{\"n\":1}" },
      { index: 2, id: "tc_2", name: "c", arguments: { n: 2 }, rawArguments: "{\"n\":2}" },
      { index: 3, id: "call_3", name: "d", arguments: {}, rawArguments: "{}" },
      { index: 4, id: "call_4", name: "e", arguments: {}, rawArguments: "{}" },
    ]);
  });

  l2("Ollama: a message, tool_calls or entry of the wrong shape is bad_event, and the next line is read as usual", () => {
    const rows: [string, unknown][] = [
      ["an event that is a number", 12],
      ["a message that is a string", { message: "hi", done: false }],
      ["a message that is an array", { message: [{ content: "hi" }], done: false }],
      ["tool_calls that is an object", { message: { role: "assistant", content: "", tool_calls: { function: { name: "f" } } }, done: false }],
      ["tool_calls that is a string", { message: { role: "assistant", content: "", tool_calls: "f" }, done: false }],
      ["an entry that is a number", { message: { role: "assistant", content: "", tool_calls: [3] }, done: false }],
      ["an entry without a function", { message: { role: "assistant", content: "", tool_calls: [{ name: "f", arguments: {} }] }, done: false }],
      ["a function that is an array", { message: { role: "assistant", content: "", tool_calls: [{ function: [] }] }, done: false }],
    ];
    for (const [label, bad] of rows) {
      const r = replay({ dialect: "ollama" }, { events: [bad, ollama.calls({ name: "next", arguments: { k: 1 } }), ollama.text("t"), ollama.done("stop")] });
      expect(codes(r.steps[0].errors), label).toEqual(["bad_event"]);
      expect(streamFields(r.steps[0].errors[0]), label).toEqual(NO_CALL_FIELDS);
      expect(r.result.calls.map(brief), label).toEqual([{ id: "call_0", name: "next", arguments: { k: 1 } }]);
      expect(r.result, label).toMatchObject({ text: "t", status: "complete" });
      expect(r.result.errors, label).toHaveLength(1);
    }
  });

  l2("Responses, Gemini and Ollama ignore [DONE] anywhere, an open call included", () => {
    const rs = replay({ dialect: "responses" }, { events: ["[DONE]", responses.callAdded("fc_1", "call_1", "f"), "[DONE]", responses.delta("fc_1", "{}"), "[DONE]", responses.argsDone("fc_1", "{}"), responses.completed(), "[DONE]"] });
    expect(rs.result).toMatchObject({ errors: [], status: "complete" });
    expect(readyLog(rs).map(({ at }) => at)).toEqual([5]);
    const open = replay({ dialect: "responses" }, { events: [responses.callAdded("fc_1", "call_1", "f"), "[DONE]"] });
    expect(open.result.status).toBe("cut");
    expect(codes(open.end.errors)).toEqual(["truncated"]);
    for (const dialect of ["gemini", "ollama"] as const) {
      const r = replay({ dialect }, { events: ["[DONE]", "[DONE]"] });
      expect(r.result, dialect).toMatchObject({ errors: [], status: "cut", toolTurn: false });
    }
  });

  l2("API misuse: options that are not an object, a dialect that is only an Object.prototype key, and a replay input that is not an object throw StreamUsageError", () => {
    for (const options of [null, "chat-completions", 3]) {
      expect(() => createAssembler(options as never), String(options)).toThrow(StreamUsageError);
    }
    for (const dialect of ["toString", "constructor", "__proto__", "hasOwnProperty", "Chat-Completions", ""]) {
      expect(() => createAssembler({ dialect } as never), dialect).toThrow(StreamUsageError);
      expect(() => replay({ dialect } as never, { events: [] }), dialect).toThrow(StreamUsageError);
    }
    for (const input of [null, "events", 5, [], { events: "x" }, { text: {} }]) {
      expect(() => replay({ dialect: "ollama" }, input as never), JSON.stringify(input)).toThrow(StreamUsageError);
    }
  });
});
