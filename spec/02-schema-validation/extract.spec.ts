// Tasks 1 and 2: finding the tool calls in a model's reply, and decoding their arguments.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { extractToolCalls } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";

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
  }, { core: true });

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

  l2("a <tool_call> tag holding an array, even an array of calls, is missing_name; the same array in prose gives its calls", () => {
    const array = '[{"name": "lookup", "arguments": {"q": "tides"}}, {"name": "notify", "arguments": {}}]';
    const tagged = extractToolCalls(`<tool_call>${array}</tool_call>`);
    expect(tagged.calls, "rule: a tag holds one call, an array in it gives no call").toEqual([]);
    expect(tagged.errors.map((e) => e.code), "rule: an array in a tag is missing_name").toEqual(["missing_name"]);
    const fenced = extractToolCalls(`<tool_call>\n\`\`\`json\n${array}\n\`\`\`\n</tool_call>`);
    expect([fenced.calls, fenced.errors.map((e) => e.code)], "rule: the first JSON value found in a tag, an array, is missing_name too").toEqual([[], ["missing_name"]]);
    const prose = extractToolCalls(`Running both: ${array} now.`);
    expect([prose.calls.map((c) => c.name), prose.errors], "rule: an array in prose contributes its object elements").toEqual([["lookup", "notify"], []]);
  });

  l2("a standalone OpenAI tool-call entry is an explicit call wherever it is found", () => {
    const entry = '{"type": "function", "function": {"name": "zap_cache", "arguments": "{}"}}';
    expect(names(`Sure: ${entry}`, ["other_tool"]), "rule: knownToolNames never filters an entry found in prose").toEqual(["zap_cache"]);
    expect(names([{ function: { name: "zap_cache" } }], []), "rule: an entry in an array is explicit, arguments may be absent").toEqual(["zap_cache"]);
    expect(names({ id: "e1", function: { name: "zap_cache" } }), "rule: an entry handed over needs no arguments key").toEqual(["zap_cache"]);
    const nameless = extractToolCalls('note {"type": "function", "function": {"arguments": "{}"}} end');
    expect([nameless.calls, nameless.errors.map((e) => e.code)], "rule: an entry without a name in prose is missing_name").toEqual([[], ["missing_name"]]);
  });

  l2("a tool_calls entry is read by its shape: a function object, a tool_use block, or a flat {id, name, arguments}", () => {
    const r = extractToolCalls({
      tool_calls: [
        { id: "a1", name: "flat_call", arguments: '{"x": 1}' },
        { type: "tool_use", id: "b2", name: "block_call", input: { y: 2 } },
        { id: "c3", type: "function", function: { name: "fn_call", arguments: { z: 3 } } },
      ],
    });
    expect(r.calls.map((c) => [c.id, c.name, c.arguments]), "rule: each entry read like a call object").toEqual([
      ["a1", "flat_call", { x: 1 }],
      ["b2", "block_call", { y: 2 }],
      ["c3", "fn_call", { z: 3 }],
    ]);
  });

  l2("a tag's object is read with the whole table; `input` is the arguments of a tool_use block only", () => {
    const block = extractToolCalls('<tool_call>{"type": "tool_use", "id": "tu_7", "name": "dig", "input": {"depth": 3}}</tool_call>');
    expect(block.calls.map((c) => [c.id, c.name, c.arguments]), "rule: a tool_use block in a tag uses its input").toEqual([["tu_7", "dig", { depth: 3 }]]);
    const bare = extractToolCalls('<tool_call>{"name": "dig", "input": {"depth": 3}}</tool_call>');
    expect([bare.calls.map((c) => [c.name, c.arguments]), bare.errors], "rule: a bare object's input is not its arguments").toEqual([[["dig", {}]], []]);
  });

  l2("the prose is scanned once over the whole text: a stray quote before a tag reaches past it", () => {
    const text = '[ "a <tool_call>{"name": "first", "arguments": {}}</tool_call> {"name": "second", "arguments": {}} ]';
    expect(names(text), "rule: values starting after the tag come from the same whole-text scan").toEqual(["first"]);
    expect(names('<tool_call>{"name": "first", "arguments": {}}</tool_call> {"name": "second", "arguments": {}}')).toEqual(["first", "second"]);
  });

  l2("ids: two calls carrying the same id both keep it; knownToolNames [] makes no bare JSON a call", () => {
    const r = extractToolCalls([
      { id: "dup", name: "a", arguments: {} },
      { id: "dup", name: "b", arguments: {} },
    ]);
    expect(r.calls.map((c) => c.id), "rule: an own id is kept even when repeated").toEqual(["dup", "dup"]);
    expect(names('{"name": "a", "arguments": {}}', []), "rule: knownToolNames [] means no bare call").toEqual([]);
    expect(names('<tool_call>{"name": "a"}</tool_call>', []), "rule: a tag is explicit, knownToolNames [] or not").toEqual(["a"]);
  });

  l2("bare JSON whose name is empty or not a string is data: no call, no error", () => {
    for (const message of [{ name: "", arguments: {} }, { name: 5, arguments: {} }, { name: "Alice", age: 30 }]) {
      expect(extractToolCalls(message)).toEqual({ calls: [], errors: [] });
    }
    expect(extractToolCalls('say {"name": "", "arguments": {}} ok')).toEqual({ calls: [], errors: [] });
  });

  l2("an explicit call with an empty name adds missing_name; a non-object entry or tag content too, without throwing", () => {
    const tagged = extractToolCalls('<tool_call>{"name": "", "arguments": {}}</tool_call>');
    expect(tagged.calls).toEqual([]);
    expect(tagged.errors.map((e) => e.code)).toEqual(["missing_name"]);
    const entries = extractToolCalls({ tool_calls: [null, { id: "a", type: "function", function: { name: "f", arguments: "{}" } }] });
    expect(entries.calls.map((c) => c.name)).toEqual(["f"]);
    expect(entries.errors.map((e) => e.code)).toEqual(["missing_name"]);
    expect(extractToolCalls("<tool_call>null</tool_call>").errors.map((e) => e.code)).toEqual(["missing_name"]);
  });

  l2("an empty tool_calls array is not an OpenAI message: the string content is scanned", () => {
    const r = extractToolCalls({ role: "assistant", tool_calls: [], content: 'ok {"name": "f", "arguments": {"a": 1}}' });
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["f", { a: 1 }]]);
  });

  l2("Anthropic content: only text blocks with a string text are scanned; other blocks (and non-objects) are ignored", () => {
    const call = '{"name": "f", "arguments": {}}';
    const r = extractToolCalls({
      role: "assistant",
      content: [null, 7, { type: "image", text: call }, { type: "text", text: 5 }, { type: "text", text: `x ${call}` }],
    });
    expect(r.calls.map((c) => c.name)).toEqual(["f"]);
    expect(r.errors).toEqual([]);
  });

  l2("a call whose id is empty or not a string gets a generated id", () => {
    const r = extractToolCalls([
      { id: "", name: "a", arguments: {} },
      { id: 7, name: "b", arguments: {} },
    ]);
    expect(r.calls.map((c) => c.id)).toEqual(["call_0", "call_1"]);
  });

  l2("a generated id skips every suffix already taken: call_0, then call_0_2, call_0_3, ...", () => {
    const r = extractToolCalls([
      { name: "a", arguments: {} },
      { id: "call_0", name: "b", arguments: {} },
      { id: "call_0_2", name: "c", arguments: {} },
    ]);
    expect(r.calls.map((c) => c.id)).toEqual(["call_0_3", "call_0", "call_0_2"]);
  });

  l2("finding JSON in prose: a closed candidate that JSON.parse rejects is skipped and the candidates inside it are tried", () => {
    expect(extractToolCalls('{bad {"name": "f", "arguments": {}} }').calls.map((c) => c.name)).toEqual(["f"]);
    // Adjacent objects inside a rejected array: both are tried.
    const adjacent = '[{"name": "f", "arguments": {}}{"name": "g", "arguments": {}}]';
    expect(extractToolCalls(adjacent).calls.map((c) => c.name)).toEqual(["f", "g"]);
  });

  l2("finding JSON in prose: a region ends when its first bracket closes, or at a closer of the wrong kind; quotes after it are prose", () => {
    const call = '{"name": "f", "arguments": {}}';
    expect(extractToolCalls(`{"a": 1} it"s ${call}`).calls.map((c) => c.name)).toEqual(["f"]);
    expect(extractToolCalls(`[{ ] it"s ${call}`).calls.map((c) => c.name)).toEqual(["f"]);
  });

  l2("a tag right after a JSON value of the prose that mentions <tool_call> is still a tag", () => {
    const r = extractToolCalls('{"note": "<tool_call>"}<tool_call>{"name": "f"}</tool_call>');
    expect(r.calls.map((c) => c.name)).toEqual(["f"]);
    expect(r.errors).toEqual([]);
  });

  l2("a tag whose content is an array ends after the array: a </tool_call> inside its strings does not end it", () => {
    const r = extractToolCalls('<tool_call>["</tool_call>"]</tool_call> then {"name": "g", "arguments": {}}');
    expect(r.errors.map((e) => e.code)).toEqual(["missing_name"]);
    expect(r.calls.map((c) => c.name)).toEqual(["g"]);
  });

  l2("tags: a value right after `</tool_call>` is prose; content that does not start with a bracket ends at the first `</tool_call>`; an escaped quote stays inside the string", () => {
    expect(names('<tool_call>{"name": "first", "arguments": {"n": 1}}</tool_call>{"name": "second", "arguments": {"n": 2}}'), "rule: the JSON value right after the tag is prose").toEqual(["first", "second"]);
    const afterBadTag = extractToolCalls('<tool_call>not json</tool_call> then {"name": "later", "arguments": {}}');
    expect([afterBadTag.calls.map((c) => c.name), afterBadTag.errors.map((e) => e.code)], "rule: content without a bracket ends at the first </tool_call>").toEqual([["later"], ["invalid_json"]]);
    const escaped = extractToolCalls('<tool_call>{"name": "echo", "arguments": {"text": "\\"</tool_call>"}}</tool_call>');
    expect(escaped.calls.map((c) => [c.name, c.arguments]), "rule: an escaped quote does not end the string that holds a </tool_call>").toEqual([["echo", { text: '"</tool_call>' }]]);
  });
});

describe("2. Decode the arguments", () => {
  const args = (value: unknown, key = "arguments") => extractToolCalls({ name: "f", [key]: value }).calls[0];

  l1("a JSON string (the usual wire format) and an object", () => {
    expect(args('{"a": 1, "b": [true, null]}')).toMatchObject({ arguments: { a: 1, b: [true, null] } });
    expect(args({ a: 1 })).toMatchObject({ arguments: { a: 1 } });
    expect(args({ a: 1 }).argumentsError).toBeUndefined();
  }, { core: true });

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

  l2("whitespace is JavaScript's: arguments of only NBSP, U+2028 or a BOM are {}", () => {
    for (const raw of ["\u00a0", " \u2028 ", "\ufeff", "\u3000\t"]) {
      const [call] = extractToolCalls({ name: "f", arguments: raw }).calls;
      expect([call.arguments, call.argumentsError], `rule: ${JSON.stringify(raw)} is only whitespace`).toEqual([{}, undefined]);
    }
  });

  l2("the empty rows are about the raw value: a decode giving \"\" is invalid_json, one giving null is not_an_object", () => {
    const code = (raw: unknown) => extractToolCalls({ name: "f", arguments: raw }).calls[0]?.argumentsError?.code;
    expect(code('""'), "rule: the second decode of an empty string fails").toBe("invalid_json");
    expect(code("null"), "rule: null after a decode is not an object").toBe("not_an_object");
    expect(code('"null"'), "rule: null after two decodes is not an object").toBe("not_an_object");
    expect(code(null), "rule: a raw null is {}").toBeUndefined();
  });

  l2("both keys present means own keys, whatever their values: parameters: null next to arguments is ambiguous", () => {
    const [call] = extractToolCalls({ name: "f", arguments: { a: 1 }, parameters: null }).calls;
    expect(call.argumentsError?.code, "rule: present = own key").toBe("ambiguous_arguments");
    expect(call.arguments).toEqual({});
  });

  l3.property("an argument error never quotes the model's raw text: no 4-character piece of a planted secret in any message", () => {
    // Letters and digits alternate, so no piece of the secret is an English word of a message.
    const secret = fc
      .array(fc.tuple(fc.constantFrom(..."ghkmpqrtvwxz"), fc.constantFrom(..."23456789")), { minLength: 8, maxLength: 20 })
      .map((pairs) => `sk-${pairs.map(([l, d]) => l + d).join("")}`);
    fc.assert(
      fc.property(secret, fc.nat(5), (key, shape) => {
        const broken = [
          `{"api_key": ${key}}`,
          `{"api_key": "${key}`,
          key,
          JSON.stringify(`{"token": ${key}}`),
          `{"token": "${key}", "retry": tru}`,
          `${key}"}`,
        ][shape];
        const messages: unknown[] = [
          { name: "auth", arguments: broken },
          { tool_calls: [{ id: "c", type: "function", function: { name: "auth", arguments: broken } }] },
          `<tool_call>{"name": "auth", "arguments": {"k": ${key}}}</tool_call>`,
          `<tool_call>${broken}</tool_call>`,
          `Calling {"name": "auth", "arguments": ${JSON.stringify(broken)}}`,
        ];
        const texts: string[] = [];
        let errorsSeen = 0;
        for (const message of messages) {
          const r = extractToolCalls(message);
          for (const e of r.errors) texts.push(e.message);
          for (const c of r.calls) if (c.argumentsError) texts.push(c.argumentsError.message);
          errorsSeen += r.errors.length + r.calls.filter((c) => c.argumentsError).length;
        }
        expect(errorsSeen, "every message above has a broken call or tag").toBeGreaterThanOrEqual(4);
        for (const text of texts) expect(leakedPieces(text, key), `rule: no piece of the raw text in ${JSON.stringify(text)}`).toEqual([]);
      }),
    );
  });

  l2("ambiguous_arguments: raw holds both values; decoded calls have no argumentsError key at all", () => {
    const [call] = extractToolCalls({ name: "f", arguments: { a: 1 }, parameters: '{"b":2}' }).calls;
    expect(call.argumentsError?.code).toBe("ambiguous_arguments");
    expect(call.argumentsError?.raw).toEqual({ arguments: { a: 1 }, parameters: '{"b":2}' });
    const [ok] = extractToolCalls({ name: "f", arguments: '{"a":1}' }).calls;
    expect(Object.keys(ok).sort()).toEqual(["arguments", "id", "name"]);
  });
});
