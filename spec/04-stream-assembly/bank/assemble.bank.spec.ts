// Held-out bank, kata 4, tasks 1-4: the same README contract as the visible specs, with other
// examples and other random streams, so that answers tuned to the visible examples do not carry
// over. The candidate pack leaves this folder out; `npm run grade -- --bank` runs it.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { createAssembler, replay, StreamUsageError } from "@impl/04-stream-assembly";
import { l1, l2 } from "../../support/graded.ts";
import { anyStream, chatStreamOf } from "../arbitraries.ts";
import {
  aboutCall, anthropic, brief, chat, chatCall, codes, gemini, ollama, readyLog, releasedErrors, responses,
} from "../helpers.ts";

const chatRun = (events: unknown[]) => replay({ dialect: "chat-completions" }, { events });

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
});
