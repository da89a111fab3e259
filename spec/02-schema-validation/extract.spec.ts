// Tasks 1 and 2: finding the tool calls in a model's reply, and decoding their arguments.
import { describe, expect } from "vitest";
import { extractToolCalls } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../support/graded.ts";

const names = (text: unknown, known?: string[]) => extractToolCalls(text, known).calls.map((c) => c.name);

describe("1. Extract the tool calls", () => {
  l1("the OpenAI shape: every entry of `tool_calls`, in order, with its id", () => {
    const message = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_abc", type: "function", function: { name: "get_weather", arguments: '{"city":"北京","date":"today"}' } },
        { id: "call_def", type: "function", function: { name: "get_time", arguments: '{"tz":"Asia/Shanghai"}' } },
      ],
    };
    const r = extractToolCalls(message);
    expect(r.calls).toEqual([
      { id: "call_abc", name: "get_weather", arguments: { city: "北京", date: "today" } },
      { id: "call_def", name: "get_time", arguments: { tz: "Asia/Shanghai" } },
    ]);
    expect(r.errors).toEqual([]);
  });

  l1("a single tool-call entry and the single {name, arguments} object", () => {
    expect(extractToolCalls({ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }).calls).toEqual([
      { id: "c1", name: "f", arguments: { a: 1 } },
    ]);
    const bare = extractToolCalls({ name: "get_weather", arguments: { city: "Paris" } }).calls;
    expect(bare).toHaveLength(1);
    expect(bare[0]).toMatchObject({ name: "get_weather", arguments: { city: "Paris" } });
  });

  l1("Anthropic: a `tool_use` block, and the tool_use blocks of a content array", () => {
    const block = { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } };
    expect(extractToolCalls(block).calls).toEqual([{ id: "toolu_01", name: "get_weather", arguments: { city: "Paris" } }]);
    const message = {
      role: "assistant",
      content: [
        { type: "text", text: "Let me check both." },
        block,
        { type: "tool_use", id: "toolu_02", name: "get_time", input: {} },
      ],
    };
    expect(extractToolCalls(message).calls.map((c) => c.id)).toEqual(["toolu_01", "toolu_02"]);
  });

  l1("<tool_call> tags, several in one reply, in order", () => {
    const text =
      'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n' +
      '<tool_call>{"name": "get_time", "arguments": {}}</tool_call> done';
    const r = extractToolCalls(text);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_time", {}],
    ]);
    expect(r.errors).toEqual([]);
  });

  l1("JSON inside prose and inside a code fence", () => {
    const prose = 'Sure, I will call {"name": "get_weather", "arguments": {"city": "Paris"}} right now.';
    expect(names(prose)).toEqual(["get_weather"]);
    const fenced = 'Here you go:\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\nThanks.';
    expect(extractToolCalls(fenced).calls[0]).toMatchObject({ name: "get_weather", arguments: { city: "Paris" } });
  });

  l2("nested objects in arguments are kept whole (a balanced scan, not a flat brace regex)", () => {
    const text = 'Call: {"name": "book", "arguments": {"guest": {"name": "Ann", "tags": ["a", {"x": 1}]}, "nights": 2}} ok';
    expect(extractToolCalls(text).calls).toEqual([
      { id: "call_0", name: "book", arguments: { guest: { name: "Ann", tags: ["a", { x: 1 }] }, nights: 2 } },
    ]);
  });

  l2("braces and brackets inside JSON strings don't end the value", () => {
    const text = 'x {"name": "echo", "arguments": {"text": "a } b { c ] [ \\" }"}} y';
    expect(extractToolCalls(text).calls[0].arguments).toEqual({ text: 'a } b { c ] [ " }' });
  });

  l2("braces in the prose around the call don't hide it", () => {
    const text = 'Use {braces} and [brackets] freely: {"name": "f", "arguments": {"a": 1}} and } then {';
    expect(names(text)).toEqual(["f"]);
  });

  l2("a JSON array of calls in prose gives every call, in order", () => {
    const text = 'Calls: [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]';
    expect(names(text)).toEqual(["a", "b"]);
  });

  l2("several JSON calls in prose keep their order", () => {
    const text = 'First {"name": "one", "arguments": {}}, then {"name": "two", "arguments": {}}.';
    expect(names(text)).toEqual(["one", "two"]);
  });

  l2("data JSON is not a call: no name, or no arguments key (without known names)", () => {
    const text = 'The user is {"name": "Alice", "age": 30} and the result was {"temp": 21}. {"name": "f", "arguments": {}}';
    expect(names(text)).toEqual(["f"]);
  });

  l2("with known tool names, bare JSON is a call only when its name is known", () => {
    const text = 'Data: {"name": "Alice", "arguments": {"x": 1}}. Call: {"name": "get_weather"}';
    const r = extractToolCalls(text, ["get_weather"]);
    expect(r.calls).toEqual([{ id: "call_0", name: "get_weather", arguments: {} }]);
  });

  l2("explicit calls (tool_calls entries, tool_use blocks, tags) count even when their name is unknown", () => {
    const message = { tool_calls: [{ id: "c1", type: "function", function: { name: "nope", arguments: "{}" } }] };
    expect(names(message, ["get_weather"])).toEqual(["nope"]);
    expect(names('<tool_call>{"name": "nope", "arguments": {}}</tool_call>', ["get_weather"])).toEqual(["nope"]);
    expect(names({ type: "tool_use", id: "t", name: "nope", input: {} }, ["get_weather"])).toEqual(["nope"]);
  });

  l2("calls without an id get deterministic ids call_<i>, unique in the result", () => {
    const text = '{"name": "a", "arguments": {}} {"name": "b", "arguments": {}}';
    expect(extractToolCalls(text).calls.map((c) => c.id)).toEqual(["call_0", "call_1"]);
    expect(extractToolCalls(text).calls.map((c) => c.id)).toEqual(["call_0", "call_1"]);
    const mixed = [
      { name: "a", arguments: {} },
      { id: "call_0", name: "b", arguments: {} },
    ];
    const ids = extractToolCalls(mixed).calls.map((c) => c.id);
    expect(ids[1]).toBe("call_0");
    expect(ids[0]).toBe("call_0_2");
  });

  l2("an unclosed <tool_call> tag: `unclosed_tag`, and the cut-off call is not a call", () => {
    const r = extractToolCalls('<tool_call>{"name": "a", "arguments": {"x": 1}}');
    expect(r.calls).toEqual([]);
    expect(r.errors.map((e) => e.code)).toEqual(["unclosed_tag"]);
  });

  l2("a <tool_call> tag that holds no JSON: `invalid_json`; a tag (or entry) with no name: `missing_name`", () => {
    const bad = extractToolCalls("<tool_call>get_weather(city='Paris')</tool_call>");
    expect(bad.calls).toEqual([]);
    expect(bad.errors.map((e) => e.code)).toEqual(["invalid_json"]);
    const nameless = extractToolCalls('<tool_call>{"arguments": {}}</tool_call>');
    expect(nameless.errors.map((e) => e.code)).toEqual(["missing_name"]);
    const entry = extractToolCalls({ tool_calls: [{ id: "c", type: "function", function: { arguments: "{}" } }, { id: "d", type: "function", function: { name: "ok" } }] });
    expect(entry.errors.map((e) => e.code)).toEqual(["missing_name"]);
    expect(entry.calls.map((c) => c.name)).toEqual(["ok"]);
  });

  l2("a code fence inside a <tool_call> tag", () => {
    const r = extractToolCalls('<tool_call>\n```json\n{"name": "f", "arguments": {"a": 1}}\n```\n</tool_call>');
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["f", { a: 1 }]]);
  });

  l2("a <tool_call> written inside a JSON string is not a tag; a </tool_call> inside the call's JSON does not end it", () => {
    const text = 'Say {"name": "say", "arguments": {"text": "use <tool_call> tags"}} then <tool_call>{"name": "echo", "arguments": {"s": "</tool_call>"}}</tool_call>';
    const r = extractToolCalls(text);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([
      ["say", { text: "use <tool_call> tags" }],
      ["echo", { s: "</tool_call>" }],
    ]);
    expect(r.errors).toEqual([]);
  });

  l2("a <tool_call> tag holding JSON that is not an object: `missing_name`", () => {
    const r = extractToolCalls('<tool_call>["f", {}]</tool_call> <tool_call>{"name": "g", "arguments": {}}</tool_call>');
    expect(r.errors.map((e) => e.code)).toEqual(["missing_name"]);
    expect(r.calls.map((c) => c.name)).toEqual(["g"]);
  });

  l2("Anthropic text blocks are scanned like text, in block order", () => {
    const message = {
      role: "assistant",
      content: [
        { type: "text", text: 'First <tool_call>{"name": "a", "arguments": {}}</tool_call>' },
        { type: "tool_use", id: "toolu_9", name: "b", input: {} },
        { type: "image", source: { name: "c", arguments: {} } },
      ],
    };
    expect(names(message)).toEqual(["a", "b"]);
  });

  l1("a reply without any call: no calls, no errors", () => {
    const r = extractToolCalls("It is sunny in Paris (about 21 °C). {no json here}");
    expect(r).toEqual({ calls: [], errors: [] });
    expect(names('{"name": "f", "arguments": {}}')).toEqual(["f"]);
  });

  l2("a message whose content is a string is scanned like text", () => {
    expect(names({ role: "assistant", content: 'ok <tool_call>{"name": "f", "arguments": {}}</tool_call>' })).toEqual(["f"]);
  });

  l3("inherited keys are never read: a prototype's tool_calls is not part of the message", () => {
    const proto = { tool_calls: [{ id: "x", type: "function", function: { name: "evil", arguments: "{}" } }] };
    const message = Object.create(proto) as Record<string, unknown>;
    message.content = 'fine {"name": "f", "arguments": {}}';
    expect(names(message)).toEqual(["f"]);
  });
});

describe("2. Decode the arguments", () => {
  const args = (value: unknown, key = "arguments") => extractToolCalls({ name: "f", [key]: value }).calls[0];

  l1("a JSON string (the usual wire format) and an object", () => {
    expect(args('{"a": 1, "b": [true, null]}')).toMatchObject({ arguments: { a: 1, b: [true, null] } });
    expect(args({ a: 1 })).toMatchObject({ arguments: { a: 1 } });
    expect(args({ a: 1 }).argumentsError).toBeUndefined();
  });

  l2("a double-encoded string is decoded twice", () => {
    const twice = JSON.stringify(JSON.stringify({ city: "Paris", n: 2 }));
    const call = args(twice);
    expect(call.arguments).toEqual({ city: "Paris", n: 2 });
    expect(call.argumentsError).toBeUndefined();
    const viaOpenAI = extractToolCalls({ tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: twice } }] });
    expect(viaOpenAI.calls[0].arguments).toEqual({ city: "Paris", n: 2 });
  });

  l2('"", whitespace, null and a missing key all mean {}', () => {
    for (const raw of ["", "   ", null]) {
      const call = args(raw);
      expect(call.arguments).toEqual({});
      expect(call.argumentsError).toBeUndefined();
    }
    expect(extractToolCalls({ tool_calls: [{ id: "c", type: "function", function: { name: "f" } }] }).calls[0].arguments).toEqual({});
    expect(extractToolCalls({ type: "tool_use", id: "t", name: "f" }).calls[0].arguments).toEqual({});
  });

  l2("invalid JSON: the call is kept, with `invalid_json`, {} and the raw text", () => {
    const raw = '{"city": "Paris", ';
    const call = args(raw);
    expect(call.name).toBe("f");
    expect(call.arguments).toEqual({});
    expect(call.argumentsError).toMatchObject({ code: "invalid_json", raw });
    const viaOpenAI = extractToolCalls({ tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{city: Paris}" } }] });
    expect(viaOpenAI.calls).toHaveLength(1);
    expect(viaOpenAI.calls[0].argumentsError?.code).toBe("invalid_json");
  });

  l2("arguments that decode to something other than an object: `not_an_object`", () => {
    for (const raw of ["[1, 2]", "42", '"\\"just text\\""', [1, 2], 7, true]) {
      const call = args(raw);
      expect(call.arguments).toEqual({});
      expect(call.argumentsError?.code).toBe("not_an_object");
    }
  });

  l2("`parameters` is an alias of `arguments`; both present is `ambiguous_arguments`", () => {
    expect(args('{"a": 1}', "parameters")).toMatchObject({ arguments: { a: 1 } });
    expect(extractToolCalls('{"name": "f", "parameters": {"a": 1}}').calls[0].arguments).toEqual({ a: 1 });
    const both = extractToolCalls({ name: "f", arguments: { a: 1 }, parameters: { a: 2 } }).calls[0];
    expect(both.name).toBe("f");
    expect(both.arguments).toEqual({});
    expect(both.argumentsError?.code).toBe("ambiguous_arguments");
  });

  l2("Anthropic `input` is decoded by the same rules", () => {
    expect(extractToolCalls({ type: "tool_use", id: "t", name: "f", input: '{"a": 1}' }).calls[0].arguments).toEqual({ a: 1 });
    expect(extractToolCalls({ type: "tool_use", id: "t", name: "f", input: "oops" }).calls[0].argumentsError?.code).toBe("invalid_json");
  });

  l3("__proto__ and constructor keys stay plain data and pollute nothing", () => {
    const raw = '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "a": 1}';
    const call = extractToolCalls(`<tool_call>{"name": "f", "arguments": ${JSON.stringify(raw)}}</tool_call>`).calls[0];
    expect(Object.hasOwn(call.arguments, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(call.arguments)).toBe(Object.prototype);
    expect(call.arguments.a).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
