// Kata 4, tasks 1-4 of the README: parsed events in the five dialects, when a call is ready, and
// how its arguments are read.
import { describe, expect } from "vitest";
import { createAssembler, replay, type StreamError } from "@impl/04-stream-assembly";
import { l1, l2 } from "../support/graded.ts";
import {
  aboutCall, anthropic, brief, chat, chatCall, codes, gemini, ollama, readyLog, releasedText, responses,
} from "./helpers.ts";

const chatRun = (events: unknown[]) => replay({ dialect: "chat-completions" }, { events });
const anyMessage = (errors: StreamError[]) => errors.map((e) => ({ ...e, message: expect.any(String) }));

describe("1. Chat-completions: text and calls", () => {
  l1("text deltas are released as they come, each in the push that brought it", () => {
    const a = createAssembler({ dialect: "chat-completions" });
    expect(a.push(chat.delta({ role: "assistant", content: "" }))).toEqual({ text: "", ready: [], errors: [] });
    expect(a.push(chat.text("北京 is"))).toEqual({ text: "北京 is", ready: [], errors: [] });
    expect(a.push(chat.text(" sunny 😀."))).toEqual({ text: " sunny 😀.", ready: [], errors: [] });
    expect(a.result().text).toBe("北京 is sunny 😀.");
    expect(a.result().status).toBe("open");
  });

  l1("one call: id and name from its first fragment, arguments appended, ready at the finish", () => {
    const a = createAssembler({ dialect: "chat-completions" });
    a.push(chat.text("Let me check."));
    for (const event of chatCall(0, "call_a", "get_weather", ["{\"ci", "ty\": \"Pa", "ris\", \"days\": 2}"])) {
      expect(a.push(event).ready).toEqual([]);
    }
    expect(a.push(chat.finish("tool_calls")).ready).toEqual([{
      index: 0, id: "call_a", name: "get_weather", arguments: { city: "Paris", days: 2 }, rawArguments: "{\"city\": \"Paris\", \"days\": 2}",
    }]);
  });

  l1("parallel calls, each with its own index, ready one after the other", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "search", ["{\"query\": \"Detroit Tigers\"}"]),
      ...chatCall(1, "call_2", "weather", ["{\"city\":", " \"Detroit\"}"]),
      chat.finish("tool_calls"),
      "[DONE]",
    ]);
    expect(run.result.calls.map(brief)).toEqual([
      { id: "call_1", name: "search", arguments: { query: "Detroit Tigers" } },
      { id: "call_2", name: "weather", arguments: { city: "Detroit" } },
    ]);
    expect(run.result.calls.map((c) => c.index)).toEqual([0, 1]);
  });

  l1("parallel calls whole in one chunk, with the finish in the same chunk (Mistral)", () => {
    const run = chatRun([{
      choices: [{
        index: 0, finish_reason: "tool_calls",
        delta: { tool_calls: [
          { id: "yBvJuId6u", function: { name: "search", arguments: "{\"query\": \"game time\"}" }, index: 0 },
          { id: "ihQrVBDfy", function: { name: "weather", arguments: "{\"city\": \"Detroit\"}" }, index: 1 },
        ] },
      }],
    }]);
    expect(run.steps[0].ready.map(brief)).toEqual([
      { id: "yBvJuId6u", name: "search", arguments: { query: "game time" } },
      { id: "ihQrVBDfy", name: "weather", arguments: { city: "Detroit" } },
    ]);
  });

  l1("the result at the end: status, finish reason, all the text, the calls, toolTurn", () => {
    const a = createAssembler({ dialect: "chat-completions" });
    a.push(chat.text("One moment. "));
    for (const event of chatCall(0, "call_x", "lookup", ["{\"id\": 7}"])) a.push(event);
    a.push(chat.finish("tool_calls"));
    a.push("[DONE]");
    a.end();
    expect(a.result()).toEqual({
      status: "complete", finishReason: "tool_calls", text: "One moment. ", errors: [], toolTurn: true, usage: null,
      calls: [{ index: 0, id: "call_x", name: "lookup", arguments: { id: 7 }, rawArguments: "{\"id\": 7}" }],
    });
  });

  l1("a plain answer: no call, toolTurn false, finish reason stop", () => {
    const run = chatRun([chat.text("Hello"), chat.text(" there."), chat.finish("stop"), "[DONE]"]);
    expect(run.result).toEqual({
      status: "complete", finishReason: "stop", text: "Hello there.", calls: [], errors: [], toolTurn: false, usage: null,
    });
  });

  l1("replay: one update per event, then the update of end(), then the result", () => {
    const run = chatRun([chat.text("Hi"), ...chatCall(0, "call_1", "ping", ["{}"]), chat.finish("tool_calls")]);
    expect(run.steps).toHaveLength(4);
    expect(run.steps.map((s) => s.text)).toEqual(["Hi", "", "", ""]);
    expect(run.steps[3].ready.map((c) => c.name)).toEqual(["ping"]);
    expect(run.end).toEqual({ text: "", ready: [], errors: [] });
    expect(run.result.calls.map((c) => c.id)).toEqual(["call_1"]);
  });

  l2("the whole id and name repeated in every fragment: one call named terminal, never terminalterminal", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_t", type: "function", name: "terminal", arguments: "{\"cmd\": " }),
      chat.calls({ index: 0, id: "call_t", type: "function", name: "terminal", arguments: "\"ls\"}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map(brief)).toEqual([{ id: "call_t", name: "terminal", arguments: { cmd: "ls" } }]);
    expect(run.result.errors).toEqual([]);
  });

  l2("an empty or null id and name on continuation fragments keep the call's id and name", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_k", name: "f", arguments: "" }),
      chat.calls({ index: 0, id: "", name: "", arguments: "{\"a\"" }),
      chat.calls({ index: 0, id: null, name: null, arguments: ": 1}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map(brief)).toEqual([{ id: "call_k", name: "f", arguments: { a: 1 } }]);
  });

  l2("no index at all: fragments continue the open call, a new id starts the next", () => {
    const run = chatRun([
      chat.calls({ id: "call_a", name: "weather", arguments: "{\"city\": " }),
      chat.calls({ arguments: "\"Oslo\"}" }),
      chat.calls({ id: "call_b", name: "weather", arguments: "{\"city\": \"Rome\"}" }),
      chat.finish("stop"),
    ]);
    expect(run.result.calls.map(brief)).toEqual([
      { id: "call_a", name: "weather", arguments: { city: "Oslo" } },
      { id: "call_b", name: "weather", arguments: { city: "Rome" } },
    ]);
    expect(readyLog(run).map(({ at, call }) => [call.id, at])).toEqual([["call_a", 2], ["call_b", 3]]);
  });

  l2("index 0 reused for every call with a new id each time: each id is a new call", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "read", ["{\"path\": \"a\"}"]),
      ...chatCall(0, "call_2", "read", ["{\"path\": ", "\"b\"}"]),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map(brief)).toEqual([
      { id: "call_1", name: "read", arguments: { path: "a" } },
      { id: "call_2", name: "read", arguments: { path: "b" } },
    ]);
    expect(run.result.calls.map((c) => c.index)).toEqual([0, 1]);
  });

  l2("the arguments already in the first fragment are read once, with the rest", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_1", type: "function", name: "add", arguments: "{\"a\": 1, " }),
      chat.calls({ index: 0, arguments: "\"b\": 2}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map(brief)).toEqual([{ id: "call_1", name: "add", arguments: { a: 1, b: 2 } }]);
  });

  l2("a name that changes mid-call is name_changed, and the call is never ready", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_1", name: "get_", arguments: "" }),
      chat.calls({ index: 0, name: "weather", arguments: "{}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls).toEqual([]);
    expect(run.result.errors.map(aboutCall)).toEqual([{ code: "name_changed", callIndex: 0, id: "call_1", name: "get_" }]);
    expect(run.result.toolTurn).toBe(true);
  });

  l2("a fragment of a call that has already ended is out_of_order and changes nothing", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "a", ["{\"x\": 1}"]),
      ...chatCall(1, "call_2", "b", ["{\"y\": 2"]),
      chat.calls({ index: 0, arguments: " " }),
      chat.calls({ index: 1, arguments: "}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map(brief)).toEqual([
      { id: "call_1", name: "a", arguments: { x: 1 } },
      { id: "call_2", name: "b", arguments: { y: 2 } },
    ]);
    expect(codes(run.result.errors)).toEqual(["out_of_order"]);
    expect(run.result.errors[0].callIndex).toBeUndefined();
    expect(run.steps[4].errors.map((e) => e.code)).toEqual(["out_of_order"]);
  });

  l2("a last chunk with choices: [] carrying usage: its usage is kept, nothing else happens", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "f", ["{}"]),
      chat.finish("tool_calls"),
      chat.usage({ prompt_tokens: 223, completion_tokens: 43, total_tokens: 266 }),
      "[DONE]",
    ]);
    expect(run.result.usage).toEqual({ prompt_tokens: 223, completion_tokens: 43, total_tokens: 266 });
    expect(run.result.errors).toEqual([]);
    expect(run.result.calls.map((c) => c.name)).toEqual(["f"]);
    expect(run.steps[3]).toEqual({ text: "", ready: [], errors: [] });
  });

  l2("only choice 0 is read; array content gives its text parts; reasoning and refusal are not text", () => {
    const run = chatRun([
      chat.delta({ reasoning_content: "think {\"a\":1}", reasoning: "more" }),
      chat.delta({ content: [{ type: "thinking", thinking: [{ type: "text", text: "hmm" }] }, { type: "text", text: "The answer" }] }),
      { choices: [{ index: 1, delta: { content: "other candidate", tool_calls: [{ index: 0, id: "x", function: { name: "g", arguments: "{}" } }] } }] },
      chat.delta({ refusal: "no" }),
      chat.text(" is 4."),
      chat.finish("stop"),
    ]);
    expect(run.result.text).toBe("The answer is 4.");
    expect(run.result.calls).toEqual([]);
    expect(run.result.toolTurn).toBe(false);
  });

  l2("a chunk with an error field ends the stream as failed with server_error; the open call is truncated", () => {
    const run = chatRun([...chatCall(0, "call_1", "f", ["{\"a\":"]), { error: { message: "overloaded", type: "server_error" } }, chat.finish("stop")]);
    expect(run.result.status).toBe("failed");
    expect(codes(run.result.errors)).toEqual(["server_error", "truncated"]);
    expect(run.result.calls).toEqual([]);
  });

  l2("null counts as absent: a fragment with no function or function null, index null, a delta, tool_calls, content or choices null", () => {
    const choice = (fields: Record<string, unknown>) => ({ choices: [{ index: 0, ...fields }] });
    const run = chatRun([
      choice({ delta: { tool_calls: [{ index: 0, id: "call_n" }] } }),
      { choices: [{ index: null, delta: { tool_calls: [{ index: null, id: null, function: null }] } }] },
      choice({ delta: { tool_calls: [{ index: 0, function: { name: "lookup", arguments: "{\"q\":" } }] } }),
      choice({ delta: null }),
      { choices: [{ index: 0 }] },
      choice({ delta: { content: null, tool_calls: null } }),
      { choices: null, usage: { total_tokens: 3 } },
      { usage: { total_tokens: 4 } },
      { choices: [{ index: null, delta: { tool_calls: [{ function: { arguments: " 1}" } }] } }] },
      { choices: [{ delta: {}, finish_reason: "tool_calls" }] },
    ]);
    expect(run.result.errors).toEqual([]);
    expect(run.result.calls).toEqual([{ index: 0, id: "call_n", name: "lookup", arguments: { q: 1 }, rawArguments: "{\"q\": 1}" }]);
    expect(run.result).toMatchObject({ status: "complete", finishReason: "tool_calls", usage: { total_tokens: 4 } });
  });

  l2("a fragment with no index continues the open call; a call with no id takes the next fragment's; an ended call's id is out_of_order", () => {
    const run = chatRun([
      chat.calls({ index: 0, name: "weather", arguments: "" }),
      chat.calls({ index: 0, id: "call_w", arguments: "{\"city\": " }),
      chat.calls({ arguments: "\"Oslo\"}" }),
      chat.calls({ index: 1, id: "call_t", name: "time", arguments: "{}" }),
      chat.calls({ id: "call_w", arguments: " " }),
      chat.finish("tool_calls"),
    ]);
    expect(readyLog(run).map(({ at, call }) => [at, brief(call)])).toEqual([
      [3, { id: "call_w", name: "weather", arguments: { city: "Oslo" } }],
      [5, { id: "call_t", name: "time", arguments: {} }],
    ]);
    expect(run.steps.map((step) => codes(step.errors))).toEqual([[], [], [], [], ["out_of_order"], []]);
    expect(run.result.errors[0]).not.toHaveProperty("callIndex");
  });

  l2("array content: only parts {type: \"text\", text: <a string>} are text, whatever else the array holds", () => {
    const run = chatRun([
      chat.delta({ content: [{ type: "thinking", text: "hidden" }, { type: "text", text: 5 }, "plain", null, { type: "text", text: "shown" }, { text: "untyped" }] }),
      chat.finish("stop"),
    ]);
    expect(run.result).toMatchObject({ text: "shown", errors: [] });
  });

  l2("a delta or a choice that is not an object, tool_calls that is not an array, an entry that is not an object, an id or a name that is not a string: bad_event, the open call lost", () => {
    const bad: unknown[] = [
      { choices: [5] }, { choices: [{ index: 0, delta: "x" }] }, chat.delta({ tool_calls: {} }), chat.delta({ tool_calls: [7] }),
      chat.delta({ tool_calls: [{ index: 0, id: 5 }] }), chat.delta({ tool_calls: [{ index: 0, function: { name: 5 } }] }),
      chat.delta({ tool_calls: [{ index: 0, function: { name: ["f"], arguments: "1}" } }] }),
    ];
    for (const event of bad) {
      const r = chatRun([...chatCall(0, "call_1", "f", ["{\"a\":"]), event, chat.calls({ index: 0, arguments: " 1}" }), chat.finish("tool_calls")]);
      expect(r.result.errors.map(aboutCall), JSON.stringify(event)).toEqual([
        { code: "bad_event", callIndex: undefined, id: undefined, name: undefined },
        { code: "lost_fragment", callIndex: 0, id: "call_1", name: "f" },
      ]);
      expect(r.result.calls, JSON.stringify(event)).toEqual([]);
    }
  });
});

describe("2. When a call is ready", () => {
  l1("a call is ready when the next call starts, not before; the last one at the finish", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "a", ["{\"n\": 1}"]),
      chat.text(" and "),
      ...chatCall(1, "call_2", "b", ["{\"n\": 2}"]),
      chat.finish("tool_calls"),
    ]);
    expect(readyLog(run).map(({ at, call }) => [call.name, at])).toEqual([["a", 3], ["b", 5]]);
  });

  l1("the README's opening example: search is ready only at the finish, with its limit", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_1", name: "search", arguments: "" }),
      chat.calls({ index: 0, arguments: "{\"query\":\"test\"" }),
      chat.calls({ index: 0, arguments: ",\"limit\":10}" }),
      chat.finish("tool_calls"),
      "[DONE]",
    ]);
    expect(readyLog(run).map(({ at, call }) => [at, call.arguments])).toEqual([[3, { query: "test", limit: 10 }]]);
  });

  l2("never because its arguments parse: {\"query\":\"test\"} then more is not ready, then invalid_json", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_1", name: "search", arguments: "{\"query\":\"test\"}" }),
      chat.calls({ index: 0, arguments: ",\"limit\":10}" }),
      chat.finish("tool_calls"),
    ]);
    expect(readyLog(run)).toEqual([]);
    expect(anyMessage(run.result.errors)).toEqual([{
      code: "invalid_json", message: expect.any(String), callIndex: 0, id: "call_1", name: "search", raw: "{\"query\":\"test\"},\"limit\":10}",
    }]);
    expect(run.steps[2].errors.map((e) => e.code)).toEqual(["invalid_json"]);
  });

  l2("arguments that parse after every fragment are still ready only at the call's end", () => {
    const run = chatRun([
      chat.calls({ index: 0, id: "call_1", name: "f", arguments: "{}" }),
      chat.calls({ index: 0, arguments: " " }),
      chat.calls({ index: 0, arguments: "\n" }),
      chat.text("…"),
      chat.finish("stop"),
    ]);
    expect(readyLog(run).map(({ at, call }) => [at, call.rawArguments])).toEqual([[4, "{} \n"]]);
  });

  l2("finish_reason stop with tool calls, or no finish reason and [DONE]: the calls are ready all the same", () => {
    const stop = chatRun([...chatCall(0, "call_1", "f", ["{\"a\": 1}"]), chat.finish("stop")]);
    expect(stop.result.calls.map((c) => c.name)).toEqual(["f"]);
    expect(stop.result.toolTurn).toBe(true);
    const none = chatRun([...chatCall(0, "call_1", "f", ["{\"a\": 1}"]), "[DONE]"]);
    expect(readyLog(none).map(({ at, call }) => [at, call.name])).toEqual([[2, "f"]]);
    expect(none.result).toMatchObject({ status: "complete", finishReason: null, toolTurn: true });
  });

  l2("finish_reason tool_calls with no call at all: toolTurn is false", () => {
    const run = chatRun([chat.text("Nothing to do."), chat.finish("tool_calls"), "[DONE]"]);
    expect(run.result).toMatchObject({ status: "complete", finishReason: "tool_calls", toolTurn: false, calls: [] });
  });

  l2("finish_reason length: the open call is truncated, never ready, its text kept; status incomplete", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "write", ["{\"path\": \"a.txt\"}"]),
      ...chatCall(1, "call_2", "write", ["{\"path\": \"b.txt\", \"text\": \"Dear"]),
      chat.finish("length"),
      "[DONE]",
    ]);
    expect(run.result.calls.map((c) => c.id)).toEqual(["call_1"]);
    expect(anyMessage(run.result.errors)).toEqual([{
      code: "truncated", message: expect.any(String), callIndex: 1, id: "call_2", name: "write", raw: "{\"path\": \"b.txt\", \"text\": \"Dear",
    }]);
    expect(run.steps[4].errors.map((e) => e.code)).toEqual(["truncated"]);
    expect(run.result).toMatchObject({ status: "incomplete", finishReason: "length", toolTurn: true });
  });

  l2("content_filter cuts the output short too: incomplete, the open call truncated", () => {
    const run = chatRun([...chatCall(0, "call_1", "f", ["{\"a\": 1}"]), chat.finish("content_filter")]);
    expect(run.result.calls).toEqual([]);
    expect(codes(run.result.errors)).toEqual(["truncated"]);
    expect(run.result.status).toBe("incomplete");
  });

  l2("end() before the stream's end: cut, the open call truncated, its JSON never repaired", () => {
    const a = createAssembler({ dialect: "chat-completions" });
    for (const event of chatCall(0, "call_1", "make_file", ["{\"filename\": \"taxes.txt\", \"lines\": [\"# Guide\""])) a.push(event);
    const end = a.end();
    expect(end.ready).toEqual([]);
    expect(end.errors.map(aboutCall)).toEqual([{ code: "truncated", callIndex: 0, id: "call_1", name: "make_file" }]);
    expect(a.result()).toMatchObject({ status: "cut", calls: [], toolTurn: true, finishReason: null });
  });

  l2("the first end counts: a fragment or text after the finish is out_of_order, a second finish changes nothing", () => {
    const run = chatRun([
      ...chatCall(0, "call_1", "f", ["{}"]),
      chat.finish("tool_calls"),
      chat.text("late text"),
      ...chatCall(1, "call_2", "g", ["{}"]),
      chat.finish("length"),
      "[DONE]",
    ]);
    expect(run.result.calls.map((c) => c.name)).toEqual(["f"]);
    expect(run.result.text).toBe("");
    expect(run.result).toMatchObject({ status: "complete", finishReason: "tool_calls" });
    expect(new Set(codes(run.result.errors))).toEqual(new Set(["out_of_order"]));
    expect(run.steps[3].errors.map((e) => e.code)).toEqual(["out_of_order"]);
  });

  l2("every call ends exactly once: the ready calls and the call errors name each call once", () => {
    const run = chatRun([
      ...chatCall(0, "c0", "ok", ["{}"]),
      ...chatCall(1, "c1", "bad", ["{"]),
      chat.calls({ index: 2, id: "c2", arguments: "{}" }),
      ...chatCall(3, "c3", "cut", ["{\"a\""]),
      chat.finish("length"),
    ]);
    expect(run.result.calls.map((c) => c.index)).toEqual([0]);
    expect(run.result.errors.map((e) => [e.callIndex, e.code])).toEqual([[1, "invalid_json"], [2, "missing_name"], [3, "truncated"]]);
  });

  l2("a call that failed before it had an id still takes the next fragment's id: a fragment with another id then starts the next call", () => {
    const run = chatRun([
      chat.calls({ index: 0, name: "get_", arguments: "" }),
      chat.calls({ index: 0, name: "weather", arguments: "{" }),
      chat.calls({ index: 0, id: "call_x", arguments: "}" }),
      chat.calls({ index: 0, id: "call_x", arguments: " " }),
      chat.calls({ index: 0, id: "call_y", name: "time", arguments: "{}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.errors.map(aboutCall)).toEqual([{ code: "name_changed", callIndex: 0, id: "call_0", name: "get_" }]);
    expect(run.result.calls).toEqual([{ index: 1, id: "call_y", name: "time", arguments: {}, rawArguments: "{}" }]);
  });
});

describe("3. Reading the arguments", () => {
  l1("arguments are JSON.parse of the whole text: nesting, arrays, unicode and escapes", () => {
    const text = JSON.stringify({ city: "北京", tags: ["a", "}{", "\"q\""], nested: { deep: [1, { x: null }] }, emoji: "😀", line: "a\nb" });
    const pieces = [text.slice(0, 7), text.slice(7, 30), text.slice(30, 31), text.slice(31)];
    const run = chatRun([...chatCall(0, "call_1", "f", pieces), chat.finish("tool_calls")]);
    expect(run.result.calls[0].arguments).toEqual(JSON.parse(text));
    expect(run.result.calls[0].rawArguments).toBe(text);
  });

  l2("empty arguments are {}: a tool without parameters", () => {
    const run = chatRun([chat.calls({ index: 0, id: "call_1", name: "now", arguments: "" }), chat.finish("tool_calls")]);
    expect(run.result.calls).toEqual([{ index: 0, id: "call_1", name: "now", arguments: {}, rawArguments: "" }]);
  });

  l2("a {} placeholder followed by the whole object is dropped; {} alone or before whitespace is kept", () => {
    const placeholder = chatRun([...chatCall(0, "call_1", "weather", ["{}", "{\"city\": \"Paris\"}"]), chat.finish("tool_calls")]);
    expect(placeholder.result.calls.map((c) => [c.arguments, c.rawArguments])).toEqual([[{ city: "Paris" }, "{\"city\": \"Paris\"}"]]);
    const alone = chatRun([...chatCall(0, "call_1", "time", ["{}"]), chat.finish("tool_calls")]);
    expect(alone.result.calls.map((c) => [c.arguments, c.rawArguments])).toEqual([[{}, "{}"]]);
    const spaced = chatRun([...chatCall(0, "call_1", "time", ["{}", " \n"]), chat.finish("tool_calls")]);
    expect(spaced.result.calls.map((c) => c.rawArguments)).toEqual(["{} \n"]);
    const notFirst = chatRun([...chatCall(0, "call_1", "f", ["{", "}", "{\"a\": 1}"]), chat.finish("tool_calls")]);
    expect(codes(notFirst.result.errors)).toEqual(["invalid_json"]);
  });

  l2("two objects glued on one index with no new id: one call, invalid_json, never split", () => {
    const run = chatRun([...chatCall(0, "call_1", "get_weather", ["{\"city\": \"Oslo\"}", "{\"city\": \"Rome\"}"]), chat.finish("tool_calls")]);
    expect(run.result.calls).toEqual([]);
    expect(anyMessage(run.result.errors)).toEqual([{
      code: "invalid_json", message: expect.any(String), callIndex: 0, id: "call_1", name: "get_weather", raw: "{\"city\": \"Oslo\"}{\"city\": \"Rome\"}",
    }]);
  });

  l2("no repair: a trailing comma, single quotes or unclosed JSON is invalid_json with the raw text", () => {
    for (const raw of ["{\"a\": 1,}", "{'a': 1}", "{\"a\": [1, 2", "{\"a\": tru", " "]) {
      const run = chatRun([...chatCall(0, "call_1", "f", [raw]), chat.finish("tool_calls")]);
      expect(run.result.calls, raw).toEqual([]);
      expect(run.result.errors.map((e) => [e.code, e.raw]), raw).toEqual([["invalid_json", raw]]);
    }
  });

  l2("arguments that are JSON but not an object are not_an_object", () => {
    for (const raw of ["[1, 2]", "\"Paris\"", "42", "null", "true"]) {
      const run = chatRun([...chatCall(0, "call_1", "f", [raw]), chat.finish("tool_calls")]);
      expect(run.result.errors.map((e) => [e.code, e.raw]), raw).toEqual([["not_an_object", raw]]);
    }
  });

  l2("a call that never got a name is missing_name, checked before its JSON", () => {
    const run = chatRun([chat.calls({ index: 0, id: "call_1", arguments: "{not json" }), chat.finish("tool_calls")]);
    expect(anyMessage(run.result.errors)).toEqual([{ code: "missing_name", message: expect.any(String), callIndex: 0, id: "call_1", raw: "{not json" }]);
  });

  l2("a call without an id gets call_<index>, in ready calls and in errors", () => {
    const run = chatRun([
      chat.calls({ index: 0, name: "a", arguments: "{}" }),
      chat.calls({ index: 1, name: "b", arguments: "{" }),
      chat.calls({ index: 2, id: "", name: "c", arguments: "{}" }),
      chat.finish("tool_calls"),
    ]);
    expect(run.result.calls.map((c) => c.id)).toEqual(["call_0", "call_2"]);
    expect(run.result.errors.map((e) => e.id)).toEqual(["call_1"]);
  });
});

describe("4. The other dialects", () => {
  const run = (dialect: "responses" | "anthropic" | "gemini" | "ollama", events: unknown[]) => replay({ dialect }, { events });

  l2("Responses: name and call_id from output_item.added, deltas by item_id (not the call id), ready at .done", () => {
    const r = run("responses", [
      responses.created(),
      responses.callAdded("fc_1", "call_A", "search"),
      responses.delta("fc_1", "{\"query\":"),
      responses.delta("fc_1", "\"Detroit\"}"),
      responses.argsDone("fc_1", "{\"query\":\"Detroit\"}"),
      responses.itemDone("fc_1", "call_A", "search", "{\"query\":\"Detroit\"}"),
      responses.callAdded("fc_2", "call_B", "weather"),
      responses.delta("fc_2", "{\"city\":\"Detroit\"}"),
      responses.itemDone("fc_2", "call_B", "weather", "{\"city\":\"Detroit\"}"),
      responses.completed(),
    ]);
    expect(readyLog(r).map(({ at, call }) => [at, brief(call)])).toEqual([
      [4, { id: "call_A", name: "search", arguments: { query: "Detroit" } }],
      [8, { id: "call_B", name: "weather", arguments: { city: "Detroit" } }],
    ]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: "completed", errors: [], usage: { input_tokens: 30, output_tokens: 12 } });
  });

  l2("Responses: the .done text must agree with the deltas; with no delta, it is the text; arguments in .added count", () => {
    const mismatch = run("responses", [responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{\"a\": 1}"), responses.argsDone("fc_1", "{\"a\": 2}"), responses.completed()]);
    expect(mismatch.result.calls).toEqual([]);
    expect(mismatch.result.errors.map(aboutCall)).toEqual([{ code: "arguments_mismatch", callIndex: 0, id: "c1", name: "f" }]);
    const doneOnly = run("responses", [responses.callAdded("fc_1", "c1", "f"), responses.itemDone("fc_1", "c1", "f", "{\"a\": 2}"), responses.completed()]);
    expect(doneOnly.result.calls.map((c) => c.arguments)).toEqual([{ a: 2 }]);
    const inAdded = run("responses", [responses.callAdded("fc_1", "c1", "f", "{\"a\""), responses.delta("fc_1", ": 3}"), responses.argsDone("fc_1", "{\"a\": 3}"), responses.completed()]);
    expect(inAdded.result.calls.map((c) => c.arguments)).toEqual([{ a: 3 }]);
  });

  l2("Responses: output_text.delta is text, output_text.done is not released again, reasoning is not text", () => {
    const r = run("responses", [
      { type: "response.output_item.added", item: { id: "rs_1", type: "reasoning" } },
      { type: "response.reasoning_summary_text.delta", item_id: "rs_1", delta: "thinking" },
      responses.text("The Tigers "),
      responses.text("play at 3."),
      responses.textDone("The Tigers play at 3."),
      responses.completed(),
    ]);
    expect(r.result.text).toBe("The Tigers play at 3.");
    expect(r.steps.map((s) => s.text)).toEqual(["", "", "The Tigers ", "play at 3.", "", ""]);
  });

  l2("Responses: response.incomplete truncates an open call; response.failed and error are server_error", () => {
    const cut = run("responses", [responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{\"a\""), responses.incomplete()]);
    expect(cut.result).toMatchObject({ status: "incomplete", finishReason: "max_output_tokens", calls: [] });
    expect(codes(cut.result.errors)).toEqual(["truncated"]);
    const failed = run("responses", [responses.created(), { type: "error", error: { code: "rate_limit_exceeded", message: "slow down" } },
      { type: "response.failed", response: { status: "failed", error: { code: "rate_limit_exceeded" } } }]);
    expect(failed.result).toMatchObject({ status: "failed", finishReason: null });
    expect(codes(failed.result.errors)).toEqual(["server_error"]);
  });

  l2("Responses: a delta or an end for an item that never started is out_of_order", () => {
    const r = run("responses", [responses.delta("fc_9", "{}"), responses.argsDone("fc_9", "{}"), responses.completed()]);
    expect(codes(r.result.errors)).toEqual(["out_of_order", "out_of_order"]);
    expect(r.result.toolTurn).toBe(false);
  });

  l2("Responses: an item added twice, or a delta after its call's end, is out_of_order and changes nothing", () => {
    const twice = run("responses", [responses.callAdded("fc_1", "c1", "f"), responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{}"), responses.argsDone("fc_1", "{}"), responses.completed()]);
    expect(codes(twice.result.errors)).toEqual(["out_of_order"]);
    expect(twice.result.calls.map(brief)).toEqual([{ id: "c1", name: "f", arguments: {} }]);
    const late = run("responses", [responses.callAdded("fc_2", "c2", "g"), responses.delta("fc_2", "{\"k\": 1}"), responses.argsDone("fc_2", "{\"k\": 1}"), responses.delta("fc_2", " "), responses.completed()]);
    expect(codes(late.result.errors)).toEqual(["out_of_order"]);
    expect(late.result.calls.map(brief)).toEqual([{ id: "c2", name: "g", arguments: { k: 1 } }]);
  });

  l2("Responses: an event whose fields have the wrong types is bad_event; a delta that is not a string loses its call", () => {
    const item = (fields: Record<string, unknown>) => ({ type: "response.output_item.added", output_index: 0, item: { type: "function_call", arguments: "", ...fields } });
    const badEvents: unknown[][] = [
      [item({ call_id: "c", name: "f" })], [item({ id: 7, call_id: "c", name: "f" })], [item({ id: "fc", call_id: 1, name: "f" })],
      [item({ id: "fc", call_id: "c", name: ["f"] })], [item({ id: "fc", call_id: "c", name: "f", arguments: {} })],
      [{ type: "response.output_item.added", output_index: 0, item: "function_call" }],
      [responses.callAdded("fc", "c", "f"), { type: "response.function_call_arguments.delta", item_id: 3, output_index: 0, delta: "{}" }],
      [responses.callAdded("fc", "c", "f"), { type: "response.function_call_arguments.done", item_id: "fc", output_index: 0, arguments: 5 }],
    ];
    for (const events of badEvents) {
      const r = run("responses", [...events, responses.completed()]);
      const open = events.length - 1; // the calls started before the event that cannot be read
      expect(codes(r.result.errors), JSON.stringify(events.at(-1))).toEqual(["bad_event", ...Array(open).fill("lost_fragment")]);
      expect(r.result.calls, JSON.stringify(events.at(-1))).toEqual([]);
    }
    const lost = run("responses", [responses.callAdded("fc_3", "c3", "h"), responses.delta("fc_3", "{"), { type: "response.function_call_arguments.delta", item_id: "fc_3", output_index: 0, delta: 5 }, responses.completed()]);
    expect(codes(lost.result.errors)).toEqual(["bad_event", "lost_fragment"]);
  });

  l2("Anthropic: an index that is not an integer of 0 or more is bad_index, a field of the wrong type bad_event; every open tool block then loses its call, in start order", () => {
    const unreadable: [unknown, string][] = [
      [{ type: "content_block_delta", index: -1, delta: { type: "input_json_delta", partial_json: "1" } }, "bad_index"],
      [{ type: "content_block_delta", index: 1.5, delta: { type: "text_delta", text: "x" } }, "bad_index"],
      [{ type: "content_block_stop", index: "0" }, "bad_index"],
      [{ type: "content_block_start", index: 3, content_block: "tool_use" }, "bad_event"],
      [{ type: "content_block_delta", index: 1, delta: "more text" }, "bad_event"],
      [anthropic.toolBlock(3, 5 as unknown as string, "c"), "bad_event"],
      [anthropic.toolBlock(3, "toolu_c", 42 as unknown as string), "bad_event"],
      [anthropic.json(0, 7 as unknown as string), "bad_event"],
    ];
    for (const [bad, code] of unreadable) {
      const r = run("anthropic", [
        anthropic.start(), anthropic.toolBlock(0, "toolu_a", "a"), anthropic.json(0, "{\"x\":"), anthropic.textBlock(1), anthropic.text(1, "and "),
        anthropic.toolBlock(2, "toolu_b", "b"), anthropic.json(2, "{"), bad, anthropic.json(0, " 1}"), anthropic.stop(0), anthropic.json(2, "}"), anthropic.stop(2),
        anthropic.messageDelta("tool_use"), anthropic.end(),
      ]);
      expect(r.result.errors.map(aboutCall), JSON.stringify(bad)).toEqual([
        { code, callIndex: undefined, id: undefined, name: undefined },
        { code: "lost_fragment", callIndex: 0, id: "toolu_a", name: "a" },
        { code: "lost_fragment", callIndex: 1, id: "toolu_b", name: "b" },
      ]);
      expect(r.result.calls, JSON.stringify(bad)).toEqual([]);
    }
  });

  l2("Gemini and Ollama: an event of the wrong shape is bad_event; their calls are whole, so none is lost, and the next event is read as usual", () => {
    const geminiBad = [
      { candidates: "none" }, { candidates: [5] }, { candidates: [{ content: 5, index: 0 }] }, { candidates: [{ content: { parts: {} }, index: 0 }] },
      gemini.chunk([7]), gemini.chunk([{ functionCall: "weather" }]),
    ];
    for (const bad of geminiBad) {
      const r = run("gemini", [bad, gemini.chunk([gemini.call("weather", { city: "Oslo" })], "STOP")]);
      expect([codes(r.result.errors), r.result.calls.map(brief)], JSON.stringify(bad)).toEqual([["bad_event"], [{ id: "call_0", name: "weather", arguments: { city: "Oslo" } }]]);
    }
    const ollamaBad = [
      { model: "qwen3", message: "hi", done: false }, { model: "qwen3", message: { content: "", tool_calls: {} }, done: false },
      { model: "qwen3", message: { content: "", tool_calls: [{ function: "weather" }] }, done: false }, { model: "qwen3", message: { content: "", tool_calls: [5] }, done: false },
    ];
    for (const bad of ollamaBad) {
      const r = run("ollama", [bad, ollama.calls({ name: "search", arguments: { q: "tigers" } }), ollama.done()]);
      expect([codes(r.result.errors), r.result.calls.map(brief)], JSON.stringify(bad)).toEqual([["bad_event"], [{ id: "call_0", name: "search", arguments: { q: "tigers" } }]]);
    }
  });

  l2("Anthropic: a tool block's index counts the text block before it; the call's own index is 0", () => {
    const r = run("anthropic", [
      anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "I'll check the weather."), anthropic.stop(0),
      anthropic.toolBlock(1, "toolu_1", "get_weather"), anthropic.json(1, ""), anthropic.json(1, "{\"locati"), anthropic.json(1, "on\": \"Paris\"}"),
      anthropic.stop(1), anthropic.messageDelta("tool_use"), anthropic.end(),
    ]);
    expect(readyLog(r)).toEqual([{ at: 8, call: { index: 0, id: "toolu_1", name: "get_weather", arguments: { location: "Paris" }, rawArguments: "{\"location\": \"Paris\"}" } }]);
    expect(r.result).toMatchObject({ text: "I'll check the weather.", status: "complete", finishReason: "tool_use", errors: [] });
  });

  l2("Anthropic: each tool block keeps its own arguments, a text block between them", () => {
    const r = run("anthropic", [
      anthropic.start(),
      anthropic.toolBlock(0, "toolu_a", "search"), anthropic.json(0, "{\"query\": "), anthropic.json(0, "\"Tigers\"}"), anthropic.stop(0),
      anthropic.textBlock(1), anthropic.text(1, " and "), anthropic.stop(1),
      anthropic.toolBlock(2, "toolu_b", "weather"), anthropic.json(2, "{\"city\""), anthropic.json(2, ": \"Detroit\"}"), anthropic.stop(2),
      anthropic.messageDelta("tool_use"), anthropic.end(),
    ]);
    expect(r.result.calls.map(brief)).toEqual([
      { id: "toolu_a", name: "search", arguments: { query: "Tigers" } },
      { id: "toolu_b", name: "weather", arguments: { city: "Detroit" } },
    ]);
    expect(r.result.errors).toEqual([]);
  });

  l2("Anthropic: input {} is a placeholder; with no delta at all, input is the arguments", () => {
    const r = run("anthropic", [
      anthropic.start(),
      anthropic.toolBlock(0, "toolu_a", "now"), anthropic.stop(0),
      anthropic.toolBlock(1, "toolu_b", "weather", { city: "Lyon" }), anthropic.stop(1),
      anthropic.toolBlock(2, "toolu_c", "weather", {}), anthropic.json(2, "{\"city\": \"Nice\"}"), anthropic.stop(2),
      anthropic.messageDelta("tool_use"), anthropic.end(),
    ]);
    expect(r.result.calls.map((c) => [c.arguments, c.rawArguments])).toEqual([
      [{}, "{}"], [{ city: "Lyon" }, "{\"city\":\"Lyon\"}"], [{ city: "Nice" }, "{\"city\": \"Nice\"}"],
    ]);
  });

  l2("Anthropic: max_tokens with a tool block that never stops: truncated, incomplete, nothing ready", () => {
    const r = run("anthropic", [
      anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "Writing the file."), anthropic.stop(0),
      anthropic.toolBlock(1, "toolu_1", "make_file"), anthropic.json(1, ""), anthropic.json(1, "{\"filename\": \"taxes.txt\", \"lines\": [\n\"# GUIDE\","),
      anthropic.messageDelta("max_tokens"), anthropic.end(),
    ]);
    expect(r.result).toMatchObject({ status: "incomplete", finishReason: "max_tokens", calls: [], toolTurn: true });
    expect(anyMessage(r.result.errors)).toEqual([{
      code: "truncated", message: expect.any(String), callIndex: 0, id: "toolu_1", name: "make_file", raw: "{\"filename\": \"taxes.txt\", \"lines\": [\n\"# GUIDE\",",
    }]);
    expect(r.steps[8].errors.map((e) => e.code)).toEqual(["truncated"]);
  });

  l2("Anthropic: thinking, server tools and citations are neither text nor calls; usage merges start and delta", () => {
    const r = run("anthropic", [
      anthropic.start({ input_tokens: 50, output_tokens: 1 }),
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me think." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } },
      anthropic.stop(0),
      { type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } },
      anthropic.json(1, "{\"query\": \"weather\"}"), anthropic.stop(1),
      { type: "content_block_start", index: 2, content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] } },
      anthropic.stop(2),
      { type: "content_block_start", index: 3, content_block: { citations: [], type: "text", text: "" } },
      { type: "content_block_delta", index: 3, delta: { type: "citations_delta", citation: { cited_text: "sunny" } } },
      anthropic.text(3, "It is sunny."), anthropic.stop(3),
      anthropic.messageDelta("end_turn", { output_tokens: 90 }), anthropic.end(),
    ]);
    expect(r.result).toMatchObject({ text: "It is sunny.", calls: [], errors: [], toolTurn: false, usage: { input_tokens: 50, output_tokens: 90 } });
  });

  l2("Anthropic: a delta or a stop for a block that never started, or stopped, is out_of_order", () => {
    const r = run("anthropic", [
      anthropic.start(), anthropic.json(0, "{}"), anthropic.toolBlock(1, "toolu_1", "f"), anthropic.json(1, "{}"), anthropic.stop(1),
      anthropic.json(1, " "), anthropic.stop(1), anthropic.messageDelta("tool_use"), anthropic.end(),
    ]);
    expect(codes(r.result.errors)).toEqual(["out_of_order", "out_of_order", "out_of_order"]);
    expect(r.result.calls.map((c) => c.rawArguments)).toEqual(["{}"]);
  });

  l2("Gemini: whole functionCall parts are ready in their chunk, ids call_<index>, the thoughtSignature kept", () => {
    const r = run("gemini", [
      gemini.chunk([{ text: "**Plan**", thought: true }]),
      gemini.chunk([{ ...gemini.call("weather", { city: "San Francisco" }), thoughtSignature: "CiQBcsjafHZT" }, gemini.call("weather", { city: "Santa Cruz" })]),
      gemini.chunk([gemini.call("clock", undefined, { id: "fc-7" })], "STOP"),
    ]);
    expect(readyLog(r)).toEqual([
      { at: 1, call: { index: 0, id: "call_0", name: "weather", arguments: { city: "San Francisco" }, rawArguments: "{\"city\":\"San Francisco\"}", thoughtSignature: "CiQBcsjafHZT" } },
      { at: 1, call: { index: 1, id: "call_1", name: "weather", arguments: { city: "Santa Cruz" }, rawArguments: "{\"city\":\"Santa Cruz\"}" } },
      { at: 2, call: { index: 2, id: "fc-7", name: "clock", arguments: {}, rawArguments: "{}" } },
    ]);
    expect(r.result).toMatchObject({ text: "", status: "complete", finishReason: "STOP", usage: { promptTokenCount: 12, totalTokenCount: 12 } });
  });

  l2("Gemini: text parts are text unless thought; any finishReason but STOP is incomplete", () => {
    const r = run("gemini", [gemini.chunk([{ text: "It is" }]), gemini.chunk([{ text: "secret", thought: true }, { text: " 75°." }], "MAX_TOKENS")]);
    expect(r.result).toMatchObject({ text: "It is 75°.", status: "incomplete", finishReason: "MAX_TOKENS" });
    const bad = run("gemini", [gemini.chunk([gemini.call("", {}), gemini.call("f", [1, 2])], "STOP")]);
    expect(bad.result.errors.map((e) => [e.code, e.callIndex])).toEqual([["missing_name", 0], ["not_an_object", 1]]);
  });

  l2("Ollama: whole calls with object arguments, ready in their line; done_reason is the finish", () => {
    const r = run("ollama", [
      ollama.text("Checking"),
      { model: "qwen3", message: { role: "assistant", content: "", thinking: "hmm" }, done: false },
      ollama.calls({ name: "weather", arguments: { city: "Detroit" } }),
      ollama.calls({ name: "search", arguments: { query: "Tigers game" } }),
      ollama.done("stop"),
    ]);
    expect(readyLog(r).map(({ at, call }) => [at, brief(call)])).toEqual([
      [2, { id: "call_0", name: "weather", arguments: { city: "Detroit" } }],
      [3, { id: "call_1", name: "search", arguments: { query: "Tigers game" } }],
    ]);
    expect(r.result).toMatchObject({ text: "Checking", status: "complete", finishReason: "stop", usage: null });
    expect(run("ollama", [ollama.text("cut"), ollama.done("length")]).result.status).toBe("incomplete");
  });

  l2("the other dialects ignore [DONE]; the first end counts in each", () => {
    const r = run("anthropic", ["[DONE]", anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "ok"), anthropic.stop(0), anthropic.messageDelta("end_turn"), anthropic.end(), "[DONE]"]);
    expect(r.result).toMatchObject({ text: "ok", status: "complete", errors: [] });
    expect(releasedText(r)).toBe("ok");
  });

  l2("[DONE] means nothing outside chat-completions, before, between and after the events", () => {
    const streams = {
      responses: ["[DONE]", responses.text("a"), "[DONE]", responses.completed(), "[DONE]"],
      gemini: ["[DONE]", gemini.chunk([{ text: "a" }]), "[DONE]", gemini.chunk([], "STOP"), "[DONE]"],
      ollama: ["[DONE]", ollama.text("a"), "[DONE]", ollama.done("stop"), "[DONE]"],
    };
    for (const [dialect, events] of Object.entries(streams)) {
      const r = run(dialect as "responses", events);
      expect(r.result, dialect).toMatchObject({ text: "a", status: "complete", errors: [] });
      expect(r.steps[2], dialect).toEqual({ text: "", ready: [], errors: [] });
    }
  });

  l2("Anthropic: a start for an index already started is out_of_order; a text block's own text is text; deltas of the other kind, and a thinking block's, are ignored", () => {
    const r = run("anthropic", [
      anthropic.start(),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hello " } },
      anthropic.text(0, "world"), anthropic.json(0, "{\"x\": 1}"), anthropic.stop(0),
      anthropic.toolBlock(1, "toolu_1", "f"), anthropic.text(1, "not text"), anthropic.toolBlock(1, "toolu_2", "g"), anthropic.json(1, "{}"), anthropic.stop(1),
      { type: "content_block_start", index: 2, content_block: { type: "thinking", thinking: "" } }, anthropic.text(2, "hidden"), anthropic.stop(2),
      anthropic.messageDelta("tool_use"), anthropic.end(),
    ]);
    expect(r.result).toMatchObject({ text: "Hello world", status: "complete" });
    expect(r.steps.map((step) => step.text).join("|")).toBe("|Hello |world||||||||||||");
    expect(r.result.calls).toEqual([{ index: 0, id: "toolu_1", name: "f", arguments: {}, rawArguments: "{}" }]);
    expect(codes(r.result.errors)).toEqual(["out_of_order"]);
    const badStart = run("anthropic", [anthropic.start(), anthropic.toolBlock(0, "toolu_a", "a"), { type: "content_block_start", index: -1, content_block: { type: "text", text: "" } }]);
    expect(codes(badStart.result.errors)).toEqual(["bad_index", "lost_fragment"]);
  });

  l2("Anthropic: after message_stop a block's start, delta or stop is out_of_order and a message_delta changes nothing; a null stop_reason is none", () => {
    const r = run("anthropic", [
      { type: "message_start", message: { id: "msg_1", role: "assistant", content: [] } },
      anthropic.toolBlock(0, "toolu_1", "f"), anthropic.json(0, "{\"a\": 1"),
      { type: "message_delta", delta: { stop_reason: "end_turn" } }, { type: "message_delta", delta: { stop_reason: null } },
      anthropic.end(),
      anthropic.textBlock(1), anthropic.json(0, "}"), anthropic.stop(0),
      anthropic.messageDelta("max_tokens", { output_tokens: 99 }), anthropic.end(),
    ]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: "end_turn", usage: null, calls: [] });
    expect(r.result.errors.map(aboutCall)).toEqual([
      { code: "truncated", callIndex: 0, id: "toolu_1", name: "f" },
      { code: "out_of_order", callIndex: undefined, id: undefined, name: undefined },
      { code: "out_of_order", callIndex: undefined, id: undefined, name: undefined },
      { code: "out_of_order", callIndex: undefined, id: undefined, name: undefined },
    ]);
    expect(r.steps[5].errors.map((e) => e.code)).toEqual(["truncated"]);
  });

  l2("Anthropic: max_tokens, model_context_window_exceeded and refusal are incomplete, any other stop reason complete", () => {
    for (const [reason, status] of [["max_tokens", "incomplete"], ["model_context_window_exceeded", "incomplete"], ["refusal", "incomplete"],
      ["end_turn", "complete"], ["tool_use", "complete"], ["stop_sequence", "complete"], ["pause_turn", "complete"]]) {
      const r = run("anthropic", [anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "a"), anthropic.stop(0), anthropic.messageDelta(reason), anthropic.end()]);
      expect([r.result.status, r.result.finishReason], reason).toEqual([status, reason]);
    }
  });

  l2("Anthropic: only a string text of a text block is text: not a text block's null text, not another block's text, not a delta of another type or a text_delta whose text is not a string", () => {
    const r = run("anthropic", [
      anthropic.start(),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: null } },
      { type: "content_block_delta", index: 0, delta: { type: "citations_delta", text: "cited" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 5 } },
      anthropic.text(0, "shown"), anthropic.stop(0),
      { type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", text: "hidden" } }, anthropic.stop(1),
      anthropic.messageDelta("end_turn"), anthropic.end(),
    ]);
    expect(r.result).toMatchObject({ text: "shown", status: "complete", calls: [] });
    expect(releasedText(r)).toBe("shown");
  });

  l2("Anthropic: an error event ends the stream as failed, the open tool block truncated", () => {
    const r = run("anthropic", [
      anthropic.start(), anthropic.toolBlock(0, "toolu_e", "f"), anthropic.json(0, "{"),
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, anthropic.messageDelta("end_turn"), anthropic.end(),
    ]);
    expect(r.result).toMatchObject({ status: "failed", finishReason: null, calls: [] });
    expect(r.steps[3].errors.map(aboutCall)).toEqual([
      { code: "server_error", callIndex: undefined, id: undefined, name: undefined },
      { code: "truncated", callIndex: 0, id: "toolu_e", name: "f" },
    ]);
    expect(r.result.errors).toHaveLength(2);
  });

  l2("Responses: after the end, a delta or an end for a call the end truncated is out_of_order, other items and a second end are ignored", () => {
    const r = run("responses", [
      responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{}"), responses.argsDone("fc_1", "{}"),
      responses.callAdded("fc_2", "c2", "g"), responses.delta("fc_2", "{\"k\": "),
      responses.completed({ input_tokens: 1, output_tokens: 2 }),
      responses.delta("fc_2", "1}"), responses.argsDone("fc_2", "{\"k\": 1}"), responses.itemDone("fc_2", "c2", "g", "{\"k\": 1}"),
      { type: "response.output_item.done", output_index: 1, item: { id: "msg_1", type: "message", content: [] } },
      responses.incomplete(),
      { type: "response.failed", response: { status: "failed", usage: { input_tokens: 9 } } },
      { type: "error", error: { message: "late" } },
    ]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: "completed", usage: { input_tokens: 1, output_tokens: 2 }, text: "" });
    expect(r.result.calls.map(brief)).toEqual([{ id: "c1", name: "f", arguments: {} }]);
    expect(r.steps.map((step) => codes(step.errors))).toEqual([[], [], [], [], [], ["truncated"], ["out_of_order"], ["out_of_order"], ["out_of_order"], [], [], [], []]);
  });

  l2("Responses: an end with no arguments, or arguments null, reads the deltas; with neither, the text is empty; no incomplete_details is the reason incomplete", () => {
    const r = run("responses", [
      responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{\"a\": 1}"), { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: null },
      responses.callAdded("fc_2", "c2", "now"), { type: "response.output_item.done", item: { id: "fc_2", type: "function_call", call_id: "c2", name: "now" } },
      responses.text("ok"), { type: "response.output_text.delta", item_id: "msg_1", delta: 5 },
      { type: "response.incomplete", response: { status: "incomplete" } },
    ]);
    expect(r.result.calls).toEqual([
      { index: 0, id: "c1", name: "f", arguments: { a: 1 }, rawArguments: "{\"a\": 1}" },
      { index: 1, id: "c2", name: "now", arguments: {}, rawArguments: "" },
    ]);
    expect(r.result).toMatchObject({ status: "incomplete", finishReason: "incomplete", text: "ok", usage: null });
    expect(codes(r.result.errors).filter((code) => code !== "bad_event")).toEqual([]);
  });

  l2("Responses: an error event alone ends the stream as failed; the second of a call's two end events is ignored, whatever it carries", () => {
    const failed = run("responses", [responses.callAdded("fc_1", "c1", "f"), { type: "error", code: "server_error", message: "boom" }, responses.completed()]);
    expect(failed.result).toMatchObject({ status: "failed", finishReason: null, calls: [] });
    expect(codes(failed.result.errors)).toEqual(["server_error", "truncated"]);
    const twice = run("responses", [
      responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{}"), responses.argsDone("fc_1", "{}"),
      { type: "response.output_item.done", item: { id: "fc_1", type: "function_call", call_id: "c1", name: "f", arguments: 5 } },
      responses.completed(),
    ]);
    expect(twice.result).toMatchObject({ status: "complete", errors: [] });
    expect(twice.result.calls.map(brief)).toEqual([{ id: "c1", name: "f", arguments: {} }]);
  });

  l2("Responses: response.failed carries its usage; response.incomplete its own", () => {
    const failed = run("responses", [responses.text("a"), { type: "response.failed", response: { status: "failed", usage: { input_tokens: 5, output_tokens: 0 } } }]);
    expect(failed.result).toMatchObject({ status: "failed", usage: { input_tokens: 5, output_tokens: 0 } });
    const cut = run("responses", [{ type: "response.incomplete", response: { incomplete_details: { reason: "content_filter" }, usage: { input_tokens: 4 } } }]);
    expect(cut.result).toMatchObject({ status: "incomplete", finishReason: "content_filter", usage: { input_tokens: 4 } });
  });

  l2("Gemini: null counts as absent (candidates, content, parts, error, functionCall, a candidate's index); another candidate is ignored; text must be a string", () => {
    const r = run("gemini", [
      { candidates: null, usageMetadata: { totalTokenCount: 1 } },
      { usageMetadata: { totalTokenCount: 2 } },
      { candidates: [{ content: null, index: 0 }] },
      { candidates: [{ content: { parts: null }, index: null }] },
      { error: null, candidates: [{ index: null, content: { parts: [{ functionCall: null, text: "Hi" }] } }] },
      { candidates: [{ index: 1, content: { parts: [{ text: "other" }, { functionCall: { name: "x" } }] }, finishReason: "MAX_TOKENS" }] },
      { candidates: [{ index: 0 }] },
      { candidates: [{ content: { role: "model" }, index: 0 }] },
      { candidates: [{ content: { parts: [{ text: 5 }, gemini.call("f", { a: 1 })] }, finishReason: "STOP" }] },
    ]);
    expect(r.result).toMatchObject({ text: "Hi", status: "complete", finishReason: "STOP", errors: [], usage: { totalTokenCount: 2 } });
    expect(r.result.calls.map(brief)).toEqual([{ id: "call_0", name: "f", arguments: { a: 1 } }]);
  });

  l2("Gemini: an error field ends the stream as failed; a call after the end is out_of_order", () => {
    const failed = run("gemini", [gemini.chunk([{ text: "a" }]), { error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } }]);
    expect(failed.result).toMatchObject({ status: "failed", finishReason: null });
    expect(codes(failed.result.errors)).toEqual(["server_error"]);
    const late = run("gemini", [gemini.chunk([gemini.call("f", {})], "STOP"), gemini.chunk([gemini.call("g", {})])]);
    expect(late.result.calls.map((c) => c.name)).toEqual(["f"]);
    expect(codes(late.result.errors)).toEqual(["out_of_order"]);
  });

  l2("Gemini: an id or a thoughtSignature that is not a string is not kept; a name that is not a string is missing_name; args null are {}", () => {
    const r = run("gemini", [gemini.chunk([
      { functionCall: { name: "f", args: { a: 1 }, id: 5 }, thoughtSignature: 7 },
      gemini.call(5 as unknown as string, { b: 2 }),
      gemini.call("h", null, { id: "" }),
    ], "STOP")]);
    expect(r.result.calls).toEqual([
      { index: 0, id: "call_0", name: "f", arguments: { a: 1 }, rawArguments: "{\"a\":1}" },
      { index: 2, id: "call_2", name: "h", arguments: {}, rawArguments: "{}" },
    ]);
    expect(r.result.errors.map((e) => ({ ...aboutCall(e), raw: e.raw }))).toEqual([{ code: "missing_name", callIndex: 1, id: "call_1", name: undefined, raw: "{\"b\":2}" }]);
  });

  l2("Ollama: null counts as absent (message, tool_calls, error); content must be a string; a done_reason that is not a string is no finishReason", () => {
    const r = run("ollama", [
      { model: "qwen3", message: null, done: false },
      { model: "qwen3", message: { role: "assistant", content: "Hi", tool_calls: null }, error: null, done: false },
      { model: "qwen3", message: { role: "assistant", content: 5 }, done: false },
      { model: "qwen3", done: false },
      { model: "qwen3", message: { role: "assistant", content: "" }, done: true, done_reason: null },
    ]);
    expect(r.result).toMatchObject({ text: "Hi", status: "complete", finishReason: null, errors: [], calls: [] });
    expect(run("ollama", [ollama.text("a"), { model: "qwen3", done: true, done_reason: 5 }]).result).toMatchObject({ status: "complete", finishReason: null });
    const failed = run("ollama", [ollama.text("a"), { error: "model \"x\" not found" }, ollama.done("stop")]);
    expect(failed.result).toMatchObject({ status: "failed", finishReason: null });
    expect(codes(failed.result.errors)).toEqual(["server_error"]);
  });
});
