// Kata 4, tasks 5-7 of the README: raw streams (server-sent events, NDJSON, bytes), <tool_call>
// tags in the text, limits and hostile streams, linear time.
import { describe, expect } from "vitest";
import {
  createAssembler, DEFAULT_LIMITS, replay, StreamUsageError, type AssemblerOptions, type Dialect, type ErrorCode, type Limits, type Replay,
} from "@impl/04-stream-assembly";
import { l3 } from "../support/graded.ts";
import {
  aboutCall, anthropic, brief, chat, chatCall, codes, cutAt, cutBytes, everyN, expectLinear, fragment, gemini, ndjson, ollama, readyLog,
  expectErrorsWithMessages, expectUsageErrorsWithMessages, releasedText, responses, sse, utf8,
} from "./helpers.ts";

const CHAT: AssemblerOptions = { dialect: "chat-completions" };

/** A chat stream with text and two calls, as events and as the same events in SSE. */
const events = [
  chat.delta({ role: "assistant", content: "" }),
  chat.text("Sure: 北京 😀 "),
  ...chatCall(0, "call_1", "search", ["{\"query\": \"", "Tigers \\\"game\\\"\"}"]),
  ...chatCall(1, "call_2", "weather", ["{\"city\": \"Det", "roit\"}"]),
  chat.finish("tool_calls"),
  chat.usage(),
  "[DONE]",
];
/** What the parsed events give (checked here), which every raw form of them must give too. */
function wholeOf() {
  const result = replay(CHAT, { events }).result;
  expect(result.text).toBe("Sure: 北京 😀 ");
  expect(result.calls.map(brief)).toEqual([
    { id: "call_1", name: "search", arguments: { query: "Tigers \"game\"" } },
    { id: "call_2", name: "weather", arguments: { city: "Detroit" } },
  ]);
  return result;
}

describe("5. Raw streams: pushText and pushBytes", () => {
  l3("server-sent events in one piece give what the parsed events give", () => {
    const whole = wholeOf();
    const r = replay(CHAT, { text: [sse(events)] });
    expect(r.result).toEqual(whole);
  });

  l3("chunks cut inside data:, inside a line and between every character change nothing", () => {
    const whole = wholeOf();
    const text = sse(events);
    for (const at of [1, 2, 3, 4, 5, 6, text.indexOf("tool_calls") + 3, text.indexOf("\n\n") + 1]) {
      expect(replay(CHAT, { text: cutAt(text, [at]) }).result, `cut at ${at}`).toEqual(whole);
    }
    expect(replay(CHAT, { text: everyN(text, 1) }).result).toEqual(whole);
  });

  l3("CRLF and lone CR line ends, a \\r\\n cut between its two halves, comments, event: names, id: and retry: lines", () => {
    const whole = wholeOf();
    const lf = sse(events);
    const crlf = lf.replaceAll("\n", "\r\n");
    const cr = lf.replaceAll("\n", "\r");
    for (const text of [crlf, cr]) expect(replay(CHAT, { text: [text] }).result).toEqual(whole);
    const betweenCrLf = [...crlf.matchAll(/\r\n/g)].map((m) => m.index! + 1);
    expect(replay(CHAT, { text: cutAt(crlf, betweenCrLf) }).result).toEqual(whole);
    const decorated = `: OPENROUTER PROCESSING\n\n${lf.replaceAll("data: ", "event: message\nid: 7\nretry: 3000\ndata:")}:\n\n`;
    expect(replay(CHAT, { text: everyN(decorated, 7) }).result).toEqual(whole);
  });

  l3("an event's JSON over several data: lines is one event, its lines joined by \\n", () => {
    const whole = wholeOf();
    const text = events.map((e) => (typeof e === "string" ? `data: ${e}\n\n` : `${JSON.stringify(e, null, 2).split("\n").map((l) => `data: ${l}`).join("\n")}\n\n`)).join("");
    expect(replay(CHAT, { text: everyN(text, 5) }).result).toEqual(whole);
  });

  l3("[DONE] with spaces around it, and a last event with no blank line or no line end, are read at end()", () => {
    const whole = wholeOf();
    const body = sse(events.slice(0, -1));
    for (const ending of ["data: [DONE] \n", "data: [DONE]", "data:[DONE]\r\n"]) {
      const r = replay(CHAT, { text: [body, ending] });
      expect(r.result, JSON.stringify(ending)).toEqual(whole);
    }
    const noFinish = sse(events.slice(0, -3));
    const r = replay(CHAT, { text: [noFinish, "data: [DONE]"] });
    expect(r.end.ready.map((c) => c.name)).toEqual(["weather"]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: null });
  });

  l3("a stream cut inside an event: the pending piece is dropped without an error, the open call truncated, status cut", () => {
    const text = sse(events.slice(0, 5));
    const cut = text + "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_ca";
    const r = replay(CHAT, { text: [cut] });
    expect(r.result.status).toBe("cut");
    expect(r.end.errors.map(aboutCall)).toEqual([{ code: "truncated", callIndex: 0, id: "call_1", name: "search" }]);
    expect(r.result.errors).toHaveLength(1);
  });

  l3("bytes cut inside UTF-8 characters decode whole; a byte order mark at the start is dropped; bad bytes are U+FFFD", () => {
    const whole = wholeOf();
    const bytes = utf8(`\uFEFF${sse(events)}`);
    const inside = [...bytes.keys()].filter((i) => (bytes[i] & 0xc0) === 0x80);
    expect(inside.length).toBeGreaterThan(4);
    expect(replay(CHAT, { bytes: cutBytes(bytes, inside) }).result).toEqual(whole);
    expect(replay(CHAT, { bytes: [...bytes].map((b) => Uint8Array.of(b)) }).result).toEqual(whole);
    const bad = replay(CHAT, { bytes: [utf8("data: {\"choices\":[{\"delta\":{\"content\":\"a"), Uint8Array.of(0xff, 0xe4), utf8("b\"}}]}\n\n")] });
    expect(bad.result.text).toBe("a\uFFFD\uFFFDb");
  });

  l3("text pushed with a byte order mark at the start drops it, and only that one", () => {
    const r = replay(CHAT, { text: ["\uFEFF", "data: {\"choices\":[{\"delta\":{\"content\":\"\uFEFFhi\"}}]}\n\n"] });
    expect(r.result.text).toBe("\uFEFFhi");
    expect(r.result.errors).toEqual([]);
  });

  l3("an event named error is server_error whatever its data; data that is not JSON is bad_event and fails the open call", () => {
    const failed = replay(CHAT, { text: [sse(events.slice(0, 3)), "event: error\ndata: overloaded\n\n", sse([chat.text("more")])] });
    expect(codes(failed.result.errors)).toEqual(["server_error", "truncated", "out_of_order"]);
    expect(failed.result.status).toBe("failed");
    const garbled = replay(CHAT, { text: [sse(events.slice(0, 3)), "data: {\"choices\": oops\n\n", sse(events.slice(3))] });
    expect(codes(garbled.result.errors)).toEqual(["bad_event", "lost_fragment"]);
    expect(garbled.result.errors[1]).toMatchObject({ callIndex: 0, id: "call_1", name: "search" });
    expect(garbled.result.calls.map((c) => c.name)).toEqual(["weather"]);
  });

  l3("empty data dispatches nothing; Anthropic events with their event: lines", () => {
    const whole = wholeOf();
    const r = replay(CHAT, { text: ["data:\n\ndata: \n\n", sse(events)] });
    expect(r.result).toEqual(whole);
    const messages = [anthropic.start(), anthropic.toolBlock(0, "toolu_1", "f"), anthropic.json(0, "{\"a\": 1}"), anthropic.stop(0), anthropic.messageDelta("tool_use"), anthropic.end()];
    const a = replay({ dialect: "anthropic" }, { text: everyN(sse(messages, { names: true }), 3) });
    expect(a.result.calls.map(brief)).toEqual([{ id: "toolu_1", name: "f", arguments: { a: 1 } }]);
  });

  l3("Ollama: NDJSON lines, CRLF, blank lines, a last line with no line end", () => {
    const lines = [ollama.text("Hi"), ollama.calls({ name: "weather", arguments: { city: "Detroit" } }), ollama.done()];
    const text = ndjson(lines);
    const expected = replay({ dialect: "ollama" }, { events: lines }).result;
    expect(expected.calls.map((c) => c.name)).toEqual(["weather"]);
    for (const form of [text, text.replaceAll("\n", "\r\n"), `\n${text.replaceAll("\n", "\n\n")}`, text.slice(0, -1)]) {
      expect(replay({ dialect: "ollama" }, { text: everyN(form, 4) }).result).toEqual(expected);
    }
    const broken = replay({ dialect: "ollama" }, { text: ["{\"message\": oops\n", ndjson([ollama.done()])] });
    expect(codes(broken.result.errors)).toEqual(["bad_event"]);
  });

  l3("[DONE] with whitespace around it ends the stream in its own event, and the open call is ready there", () => {
    const noFinish = sse(events.slice(0, -3));
    const r = replay(CHAT, { text: [noFinish, "data:  [DONE] \t\n\n"] });
    expect(r.steps[1].ready.map((c) => c.name)).toEqual(["weather"]);
    expect(r.result).toMatchObject({ status: "complete", finishReason: null, errors: [] });
  });

  l3("a line with no colon is a field with an empty value; only the field event names an event, whatever the others say", () => {
    const text = `data\n\nerror: x\nretry: error\nid: error\n${sse([chat.text("ok")])}event\ndata: ${JSON.stringify(chat.text("!"))}\n\n`;
    const r = replay(CHAT, { text: [text] });
    expect(r.result).toMatchObject({ text: "ok!", status: "cut", errors: [] });
  });

  l3("a \\r at the end of a chunk and a \\n at the start of the next are one line end, even with empty chunks between them", () => {
    const lines = JSON.stringify(chat.text("two lines"), null, 1).split("\n").map((l) => `data: ${l}`);
    const r = replay(CHAT, { text: [`${lines[0]}\r`, "", "", `\n${lines.slice(1).join("\r\n")}\r`, "", "\n\r\n"] });
    expect(r.result).toMatchObject({ text: "two lines", errors: [] });
  });

  l3("a \\r\\n cut between two chunks is one line end, and a \\n in the chunk after that is a blank line; an event line with no colon names the event \"\"", () => {
    const a = `data: ${JSON.stringify(chat.text("a"))}`;
    const b = `data: ${JSON.stringify(chat.text("b"))}`;
    const r = replay(CHAT, { text: [`${a}\r`, "\n", "\n", `${b}\n\n`] });
    expect(r.steps.map((step) => step.text)).toEqual(["", "", "a", "b"]);
    expect(r.result.errors).toEqual([]);
    const renamed = replay(CHAT, { text: [`event: error\nevent\n${a}\n\n`] });
    expect(renamed.result).toMatchObject({ text: "a", errors: [] });
  });

  l3("the byte order mark is dropped at the very start only: after empty chunks still, never at a later chunk's start, and a second one stays", () => {
    const event = (content: string) => `data: ${JSON.stringify(chat.text(content))}\n\n`;
    const afterEmpty = replay(CHAT, { text: ["", "\uFEFF" + event("a")] });
    expect(afterEmpty.result).toMatchObject({ text: "a", errors: [] });
    const body = event("\uFEFFb");
    const at = body.indexOf("\uFEFF");
    expect(replay(CHAT, { text: [body.slice(0, at), body.slice(at)] }).result.text).toBe("\uFEFFb");
    // Later, U+FEFF is a character like any other: before `data`, it makes a field of another name.
    expect(replay(CHAT, { text: [event("x"), "\uFEFF" + event("y")] }).result).toMatchObject({ text: "x", errors: [] });
    expect(replay(CHAT, { bytes: [utf8(event("x")), utf8("\uFEFF" + event("y"))] }).result).toMatchObject({ text: "x", errors: [] });
    for (const r of [replay(CHAT, { text: ["\uFEFF\uFEFF" + event("c") + event("d")] }), replay(CHAT, { bytes: [utf8("\uFEFF\uFEFF" + event("c") + event("d"))] })]) {
      expect(r.result).toMatchObject({ text: "d", errors: [] });
    }
  });

  l3("data lines are joined with \\n: [DO and NE] on two lines is not [DONE] but data that is not JSON", () => {
    const r = replay(CHAT, { text: [sse(events.slice(0, 4)), "data: [DO\ndata: NE]\n\n"] });
    expect(codes(r.result.errors)).toEqual(["bad_event", "lost_fragment"]);
    expect(r.result.status).toBe("cut");
  });

  l3("bytes left over at end() that are not a whole UTF-8 character are U+FFFD: a last [DONE] followed by one is no longer [DONE]", () => {
    const body = utf8(sse(events.slice(0, -3)));
    const clean = replay(CHAT, { bytes: [body, utf8("data: [DONE]")] });
    expect(clean.result.status).toBe("complete");
    const cut = replay(CHAT, { bytes: [body, utf8("data: [DONE]"), Uint8Array.of(0xe4, 0xb8)] });
    expect(cut.result.status).toBe("cut");
    expect(cut.end.errors.map(aboutCall)).toEqual([{ code: "truncated", callIndex: 1, id: "call_2", name: "weather" }]);
  });

  l3("NDJSON: a line of spaces and tabs is blank", () => {
    const r = replay({ dialect: "ollama" }, { text: [`  \t \n${JSON.stringify(ollama.text("Hi"))}\n \r\n\t\n${JSON.stringify(ollama.done())}\n   `] });
    expect(r.result).toMatchObject({ text: "Hi", status: "complete", errors: [] });
  });
});

describe("6. <tool_call> tags in the text", () => {
  const TAGS: AssemblerOptions = { dialect: "chat-completions", toolCallTags: true };
  const texts = (pieces: string[]) => replay(TAGS, { events: [...pieces.map((p) => chat.text(p)), chat.finish("stop")] });

  l3("a tag in the text is a call, ready at its closing tag; the prose around it is released", () => {
    const r = texts(["Sure.\n<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", "\nDone."]);
    expect(r.steps[0]).toEqual({
      text: "Sure.\n", errors: [],
      ready: [{ index: 0, id: "call_0", name: "weather", arguments: { city: "Paris" }, rawArguments: "{\"city\":\"Paris\"}" }],
    });
    expect(r.result.text).toBe("Sure.\n\nDone.");
    expect(r.result.toolTurn).toBe(true);
  });

  l3("the closing tag split across two chunks still closes the tag", () => {
    const r = texts(["<tool_call>{\"name\": \"now\"}</tool", "_call> ok"]);
    expect(readyLog(r).map(({ at, call }) => [at, call.name, call.arguments])).toEqual([[1, "now", {}]]);
    expect(r.result.text).toBe(" ok");
  });

  l3("only what may still become a tag is held back: 'Sure <tool' releases 'Sure ' at once, '<b>' is text", () => {
    const r = texts(["Sure <tool", "_call>{\"name\": \"f\"}</tool_call>", "a <", "b> <tool_", "x", " <", "tool_call>"]);
    expect(r.steps.map((s) => s.text)).toEqual(["Sure ", "", "a ", "<b> ", "<tool_x", " ", "", ""]);
    expect(r.result.errors.map((e) => [e.code, e.callIndex])).toEqual([["truncated", 1]]);
  });

  l3("the first </tool_call> closes the tag, even inside a JSON string of the call", () => {
    const r = texts(["<tool_call>{\"name\": \"echo\", \"arguments\": {\"text\": \"</tool_call>\"}}</tool_call>"]);
    expect(r.result.calls).toEqual([]);
    expect(r.result.errors.map((e) => [e.code, e.raw])).toEqual([["invalid_json", "{\"name\": \"echo\", \"arguments\": {\"text\": \""]]);
    expect(r.result.text).toBe("\"}}</tool_call>");
  });

  l3("a stream that ends inside a tag: truncated, with what it held; held prose is released at the end", () => {
    const open = texts(["Let me. <tool_call>{\"name\": \"f\", \"arg", "uments\": {}}</tool_ca"]);
    expect(open.result.errors.map((e) => [e.code, e.raw])).toEqual([["truncated", "{\"name\": \"f\", \"arguments\": {}}</tool_ca"]]);
    expect(open.result.text).toBe("Let me. ");
    const held = replay(TAGS, { events: [chat.text("x <tool_c")] });
    expect(held.steps[0].text).toBe("x ");
    expect(held.end.text).toBe("<tool_c");
    expect(held.result.status).toBe("cut");
  });

  l3("tag content errors: invalid_json, not_an_object, missing_name; ids are call_<index>", () => {
    const r = texts(["<tool_call>{\"name\": \"a\"</tool_call><tool_call>[1]</tool_call><tool_call>{\"arguments\": {}}</tool_call>",
      "<tool_call>{\"name\": \"d\", \"arguments\": \"{}\"}</tool_call><tool_call>{\"name\": \"e\"}</tool_call>"]);
    expect(r.result.errors.map((e) => [e.code, e.callIndex, e.id])).toEqual([
      ["invalid_json", 0, "call_0"], ["not_an_object", 1, "call_1"], ["missing_name", 2, "call_2"], ["not_an_object", 3, "call_3"],
    ]);
    expect(r.result.calls.map((c) => [c.index, c.id, c.name])).toEqual([[4, "call_4", "e"]]);
  });

  l3("a tag's error names its call when the content gave a name, and carries the content as raw", () => {
    const r = texts(["<tool_call>{\"name\": \"d\", \"arguments\": [1]}</tool_call><tool_call>{\"name\": 5}</tool_call>"]);
    expect(r.result.errors.map((e) => ({ ...aboutCall(e), raw: e.raw }))).toEqual([
      { code: "not_an_object", callIndex: 0, id: "call_0", name: "d", raw: "{\"name\": \"d\", \"arguments\": [1]}" },
      { code: "missing_name", callIndex: 1, id: "call_1", name: undefined, raw: "{\"name\": 5}" },
    ]);
  });

  l3("tags in the text of every dialect, beside its own calls; off by default", () => {
    const messages = [anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "<tool_call>{\"name\": \"a\"}</tool_call>"), anthropic.stop(0),
      anthropic.toolBlock(1, "toolu_1", "b"), anthropic.json(1, "{}"), anthropic.stop(1), anthropic.messageDelta("tool_use"), anthropic.end()];
    const on = replay({ dialect: "anthropic", toolCallTags: true }, { events: messages });
    expect(on.result.calls.map((c) => [c.index, c.id, c.name])).toEqual([[0, "call_0", "a"], [1, "toolu_1", "b"]]);
    const off = replay({ dialect: "anthropic" }, { events: messages });
    expect(off.result.text).toBe("<tool_call>{\"name\": \"a\"}</tool_call>");
    expect(off.result.calls.map((c) => c.name)).toEqual(["b"]);
  });
});

describe("7. Limits and hostile streams", () => {
  l3("maxCalls: one too_many_calls, the later calls dropped without a place; toolTurn true", () => {
    const calls = Array.from({ length: 5 }, (_, i) => chatCall(i, `call_${i}`, "f", [`{"n": ${i}}`])).flat();
    const r = replay({ ...CHAT, limits: { maxCalls: 2 } }, { events: [...calls, chat.finish("tool_calls")] });
    expect(r.result.calls.map((c) => c.index)).toEqual([0, 1]);
    expect(codes(r.result.errors)).toEqual(["too_many_calls"]);
    expect(r.result.errors[0].callIndex).toBeUndefined();
    expect(r.steps[4].errors.map((e) => e.code)).toEqual(["too_many_calls"]);
    const tags = replay({ ...CHAT, toolCallTags: true, limits: { maxCalls: 1 } }, { events: [chat.text("<tool_call>{\"name\": \"a\"}</tool_call>x<tool_call>{\"name\": \"b\"}</tool_call>y"), chat.finish("stop")] });
    expect(tags.result.calls.map((c) => c.name)).toEqual(["a"]);
    expect(tags.result.text).toBe("xy");
    expect(DEFAULT_LIMITS).toEqual({ maxCalls: 128, maxArgumentBytes: 1048576 });
  });

  l3("a refused call's fragments go nowhere and raise nothing, also when they come back after the next refused call started", () => {
    const r = replay({ ...CHAT, limits: { maxCalls: 1 } }, { events: [
      ...chatCall(0, "call_a", "f", ["{}"]), ...chatCall(1, "call_b", "g", ["{}"]), ...chatCall(2, "call_c", "h", ["{}"]),
      chat.calls({ id: "call_b", arguments: " " }), chat.calls({ index: 1, id: "call_b", arguments: " " }), chat.calls({ index: 1, arguments: " " }),
      chat.finish("tool_calls"),
    ] });
    expect(r.result.calls.map(brief)).toEqual([{ id: "call_a", name: "f", arguments: {} }]);
    expect(codes(r.result.errors)).toEqual(["too_many_calls"]);
  });

  l3("maxArgumentBytes counts UTF-8 bytes: at the limit the call is ready, one byte more is arguments_too_large without raw", () => {
    const text = "{\"city\": \"北京\"}"; // 12 ASCII characters and two of 3 bytes: 18 bytes
    const at = replay({ ...CHAT, limits: { maxArgumentBytes: 18 } }, { events: [...chatCall(0, "c", "f", [text.slice(0, 11), text.slice(11)]), chat.finish("stop")] });
    expect(at.result.calls.map((c) => c.arguments)).toEqual([{ city: "北京" }]);
    const over = replay({ ...CHAT, limits: { maxArgumentBytes: 17 } }, { events: [...chatCall(0, "c", "f", [text.slice(0, 11), text.slice(11)]), chat.finish("stop")] });
    expect(over.result.calls).toEqual([]);
    expect(over.result.errors).toEqual([{ code: "arguments_too_large", message: expect.any(String), callIndex: 0, id: "c", name: "f" }]);
    expect(over.steps[2].errors.map((e) => e.code)).toEqual(["arguments_too_large"]);
    const whole = replay({ dialect: "gemini", limits: { maxArgumentBytes: 10 } }, { events: [{ candidates: [{ content: { parts: [{ functionCall: { name: "f", args: { q: "long enough" } } }] }, finishReason: "STOP" }] }] });
    expect(codes(whole.result.errors)).toEqual(["arguments_too_large"]);
  });

  l3("maxArgumentBytes counts each character's UTF-8 bytes, 1 to 4, at both sides of every boundary, a character cut between fragments included", () => {
    const chars: [string, number][] = [["\u007f", 1], ["\u0080", 2], ["\u07ff", 2], ["\u0800", 3], ["\uffff", 3], ["\u{10000}", 4], ["😀", 4], ["\u{10ffff}", 4]];
    for (const [char, size] of chars) {
      const text = `{"a": "${char}${char}"}`; // 9 ASCII characters and the character twice
      const limit = 9 + 2 * size;
      for (const pieces of [[text], [text.slice(0, 8), text.slice(8)], text.split("")]) {
        const label = `U+${char.codePointAt(0)!.toString(16)} in ${pieces.length} pieces`;
        const call = (maxArgumentBytes: number) => replay({ ...CHAT, limits: { maxArgumentBytes } }, { events: [...chatCall(0, "c", "f", pieces), chat.finish("stop")] }).result;
        expect(call(limit).calls.map((c) => c.rawArguments), label).toEqual([text]);
        expect(codes(call(limit - 1).errors), label).toEqual(["arguments_too_large"]);
      }
      const whole = (maxArgumentBytes: number) => replay({ dialect: "gemini", limits: { maxArgumentBytes } }, { events: [gemini.chunk([gemini.call("f", { a: char })], "STOP")] }).result;
      expect(whole(8 + size).calls.map((c) => c.arguments), char).toEqual([{ a: char }]); // {"a":"…"} is 8 ASCII characters
      expect(codes(whole(7 + size).errors), char).toEqual(["arguments_too_large"]);
    }
  });

  l3("maxArgumentBytes counts the bytes TextEncoder writes for the whole text: lone surrogates are 3, a pair cut between fragments 4", () => {
    const oddities = ["\ud800", "\udc00", "\udbff\u0041", "\u0041\udfff", "é\udc00", "\u4e2d\udfff", "\udc00\udc00", "\udc00\ud800", "\ud83d\ud83d", "\ud83d\ude00\ude00", "\ud800\udc00", "é\ud83d"];
    for (const odd of oddities) {
      const text = `{"a": "${odd}"}`;
      const size = new TextEncoder().encode(text).length;
      for (let cut = 1; cut < text.length; cut++) {
        const pieces = [text.slice(0, cut), text.slice(cut)];
        const label = `${JSON.stringify(pieces)}: ${size} bytes`;
        const call = (maxArgumentBytes: number) => replay({ ...CHAT, limits: { maxArgumentBytes } }, { events: [...chatCall(0, "c", "f", pieces), chat.finish("stop")] }).result;
        expect(call(size).calls.map((c) => c.rawArguments), label).toEqual([text]);
        expect(codes(call(size - 1).errors), label).toEqual(["arguments_too_large"]);
      }
    }
  });

  l3("maxCalls counts the whole calls of Gemini and Ollama too: the one past the limit is refused, once, and gets no place", () => {
    const g = replay({ dialect: "gemini", limits: { maxCalls: 1 } }, { events: [gemini.chunk([gemini.call("a", {}), gemini.call("b", {})]), gemini.chunk([gemini.call("c", {})], "STOP")] });
    expect(g.result.calls).toEqual([{ index: 0, id: "call_0", name: "a", arguments: {}, rawArguments: "{}" }]);
    expect(g.result.errors.map(aboutCall)).toEqual([{ code: "too_many_calls", callIndex: undefined, id: undefined, name: undefined }]);
    const o = replay({ dialect: "ollama", limits: { maxCalls: 2 } }, { events: [ollama.calls({ name: "a", arguments: {} }, { name: "b", arguments: {} }, { name: "c", arguments: [1] }), ollama.done()] });
    expect(o.result.calls.map((c) => [c.index, c.name])).toEqual([[0, "a"], [1, "b"]]);
    expect(codes(o.result.errors)).toEqual(["too_many_calls"]);
  });

  l3("an index of 10^9 is just another index; -1, 1.5 and \"0\" are bad_index and fail the open call", () => {
    const big = replay(CHAT, { events: [...chatCall(1e9, "call_big", "f", ["{\"a\": 1}"]), chat.finish("tool_calls")] });
    expect(big.result.calls.map((c) => [c.index, c.id])).toEqual([[0, "call_big"]]);
    for (const index of [-1, 1.5, "0"]) {
      const r = replay(CHAT, { events: [...chatCall(0, "call_1", "f", ["{\"a\": 1"]), { choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: "}" } }] } }] }, chat.finish("tool_calls")] });
      expect(codes(r.result.errors), String(index)).toEqual(["bad_index", "lost_fragment"]);
      expect(r.result.calls).toEqual([]);
    }
    const block = replay({ dialect: "anthropic" }, { events: [anthropic.start(), anthropic.toolBlock(1e9, "toolu_1", "f"), anthropic.json(1e9, "{}"), anthropic.stop(1e9), anthropic.end()] });
    expect(block.result.calls.map((c) => c.name)).toEqual(["f"]);
  });

  l3("events that are not objects, and call fields of the wrong type, are bad_event and fail the open call", () => {
    for (const bad of [42, null, [chat.text("x")], "data", { choices: "none" }, chat.calls({ index: 0, arguments: 7 as unknown as string }),
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: "f" }] } }] }]) {
      const r = replay(CHAT, { events: [...chatCall(0, "call_1", "f", ["{\"a\":"]), bad, chat.calls({ index: 0, arguments: " 1}" }), chat.finish("tool_calls")] });
      expect(codes(r.result.errors), JSON.stringify(bad)).toEqual(["bad_event", "lost_fragment"]);
      expect(r.result.calls).toEqual([]);
    }
    const text = replay(CHAT, { events: [chat.delta({ content: 5 }), chat.text("ok"), chat.finish("stop")] });
    expect(text.result).toMatchObject({ text: "ok", errors: [] });
  });

  l3("a stream of hostile events never throws, and a bad fragment never leaves a wrong call behind", () => {
    const hostile: unknown[] = [true, "", {}, { choices: [null] }, { choices: [{ delta: "x" }] }, { choices: [{ delta: { tool_calls: {} } }] },
      { choices: [{ delta: { tool_calls: [null, 1, { index: { a: 1 } }] } }] }, { usage: 3, choices: [] }, { error: null, choices: [] }];
    const r = replay(CHAT, { events: [...chatCall(0, "call_1", "pay", ["{\"amount\": 10"]), ...hostile, chat.calls({ index: 0, arguments: "0}" }), chat.finish("tool_calls")] });
    expect(r.result.calls).toEqual([]);
    expect(r.result.errors.filter((e) => e.callIndex === 0).map((e) => e.code)).toEqual(["lost_fragment"]);
    expect(r.result.status).toBe("complete");
    for (const dialect of ["responses", "anthropic", "gemini", "ollama"] as const) {
      expect(() => replay({ dialect }, { events: hostile })).not.toThrow();
    }
  });

  l3("every error says what went wrong: each code, in every dialect and form, comes with a message that is not empty", () => {
    const events = (dialect: Dialect, list: unknown[], limits?: Partial<Limits>): AssemblerOptions & { list: unknown[] } => ({ dialect, limits, list });
    const open = chatCall(0, "call_1", "f", ["{\"a\":"]);
    const cases: [ErrorCode, ReturnType<typeof events>][] = [
      ["out_of_order", events("chat-completions", [chat.finish("stop"), chat.calls({ index: 0, id: "a", name: "f" })])],
      ["bad_event", events("chat-completions", [...open, chat.delta({ tool_calls: [5] })])],
      ["bad_event", events("chat-completions", [...open, chat.delta({ tool_calls: [{ index: 0, function: "f" }] })])],
      ["bad_index", events("chat-completions", [...open, chat.calls({ index: -1, arguments: "1" })])],
      ["bad_event", events("chat-completions", [...open, chat.delta({ tool_calls: [{ index: 0, id: 5 }] })])],
      ["out_of_order", events("chat-completions", [...chatCall(0, "a", "f", ["{}"]), ...chatCall(1, "b", "g", ["{}"]), chat.calls({ index: 0, arguments: " " })])],
      ["bad_event", events("chat-completions", [...open, { choices: [{ index: 0, delta: "x" }] }])],
      ["bad_event", events("chat-completions", [...open, chat.delta({ tool_calls: {} })])],
      ["bad_event", events("chat-completions", [...open, 42])],
      ["server_error", events("chat-completions", [...open, { error: { message: "overloaded" } }])],
      ["truncated", events("chat-completions", [...open, chat.finish("length")])],
      ["bad_event", events("chat-completions", [...open, { choices: "x" }])],
      ["lost_fragment", events("chat-completions", [...open, { choices: [5] }])],
      ["out_of_order", events("chat-completions", [chat.finish("stop"), chat.text("x")])],
      ["too_many_calls", events("chat-completions", [...chatCall(0, "a", "f", ["{}"]), ...chatCall(1, "b", "g", ["{}"])], { maxCalls: 1 })],
      ["name_changed", events("chat-completions", [chat.calls({ index: 0, id: "a", name: "get_" }), chat.calls({ index: 0, name: "weather" })])],
      ["arguments_too_large", events("chat-completions", [...chatCall(0, "a", "f", ["{\"a\": 1}"])], { maxArgumentBytes: 2 })],
      ["missing_name", events("chat-completions", [chat.calls({ index: 0, id: "a", arguments: "{}" }), chat.finish("stop")])],
      ["invalid_json", events("chat-completions", [...chatCall(0, "a", "f", ["{"]), chat.finish("stop")])],
      ["not_an_object", events("chat-completions", [...chatCall(0, "a", "f", ["[1]"]), chat.finish("stop")])],
      ["out_of_order", events("gemini", [gemini.chunk([], "STOP"), gemini.chunk([gemini.call("f", {})])])],
      ["arguments_too_large", events("gemini", [gemini.chunk([gemini.call("f", { a: 1 })])], { maxArgumentBytes: 2 })],
      ["missing_name", events("gemini", [gemini.chunk([gemini.call("", {})])])],
      ["not_an_object", events("gemini", [gemini.chunk([gemini.call("f", [1])])])],
      ["bad_event", events("gemini", [gemini.chunk([7])])],
      ["bad_event", events("gemini", [gemini.chunk([{ functionCall: "f" }])])],
      ["bad_event", events("gemini", [{ candidates: [{ content: 5 }] }])],
      ["bad_event", events("gemini", [{ candidates: [{ content: { parts: {} } }] }])],
      ["bad_event", events("gemini", [42])],
      ["server_error", events("gemini", [{ error: { code: 500 } }])],
      ["bad_event", events("gemini", [{ candidates: {} }])],
      ["bad_event", events("gemini", [{ candidates: [5] }])],
      ["bad_event", events("ollama", [{ message: { tool_calls: {} } }])],
      ["bad_event", events("ollama", [{ message: { tool_calls: [{ function: 5 }] } }])],
      ["bad_event", events("ollama", [42])],
      ["server_error", events("ollama", [{ error: "no model" }])],
      ["bad_event", events("ollama", [{ message: 5 }])],
      ["bad_index", events("anthropic", [anthropic.toolBlock(0, "t", "f"), anthropic.json(-1, "{}")])],
      ["out_of_order", events("anthropic", [anthropic.json(5, "{}")])],
      ["out_of_order", events("anthropic", [anthropic.toolBlock(0, "t", "f"), anthropic.stop(0), anthropic.stop(0)])],
      ["bad_index", events("anthropic", [{ type: "content_block_start", index: 1.5, content_block: { type: "text", text: "" } }])],
      ["out_of_order", events("anthropic", [anthropic.textBlock(0), anthropic.textBlock(0)])],
      ["bad_event", events("anthropic", [{ type: "content_block_start", index: 0, content_block: 5 }])],
      ["bad_event", events("anthropic", [anthropic.toolBlock(0, 5 as never, "f")])],
      ["bad_event", events("anthropic", [anthropic.textBlock(0), { type: "content_block_delta", index: 0, delta: 5 }])],
      ["bad_event", events("anthropic", [anthropic.toolBlock(0, "t", "f"), anthropic.json(0, 7 as never)])],
      ["bad_event", events("anthropic", [42])],
      ["out_of_order", events("anthropic", [anthropic.end(), anthropic.textBlock(0)])],
      ["server_error", events("anthropic", [{ type: "error", error: { type: "overloaded_error" } }])],
      ["truncated", events("anthropic", [anthropic.toolBlock(0, "t", "f"), anthropic.end()])],
      ["bad_event", events("responses", [{ type: "response.output_item.added", item: { type: "function_call", call_id: "c", name: "f" } }])],
      ["out_of_order", events("responses", [responses.callAdded("fc", "c", "f"), responses.callAdded("fc", "c", "f")])],
      ["bad_event", events("responses", [{ type: "response.function_call_arguments.delta", item_id: 5, delta: "{}" }])],
      ["out_of_order", events("responses", [responses.delta("fc_9", "{}")])],
      ["bad_event", events("responses", [responses.callAdded("fc", "c", "f"), { type: "response.function_call_arguments.delta", item_id: "fc", delta: 5 }])],
      ["out_of_order", events("responses", [responses.callAdded("fc", "c", "f"), responses.argsDone("fc", "{}"), responses.delta("fc", " ")])],
      ["bad_event", events("responses", [responses.callAdded("fc", "c", "f"), { type: "response.function_call_arguments.done", item_id: "fc", arguments: 5 }])],
      ["bad_event", events("responses", [42])],
      ["out_of_order", events("responses", [responses.callAdded("fc", "c", "f"), responses.completed(), responses.delta("fc", "{}")])],
      ["bad_event", events("responses", [{ type: "response.output_item.added", item: 5 }])],
      ["server_error", events("responses", [{ type: "response.failed", response: {} }])],
      ["server_error", events("responses", [{ type: "error", error: {} }])],
      ["arguments_mismatch", events("responses", [responses.callAdded("fc", "c", "f"), responses.delta("fc", "{\"a\": 1}"), responses.argsDone("fc", "{\"a\": 2}")])],
    ];
    const tags: [ErrorCode, string][] = [["invalid_json", "{"], ["not_an_object", "[1]"], ["missing_name", "{}"], ["not_an_object", "{\"name\": \"f\", \"arguments\": 5}"]];
    const raw: [ErrorCode, AssemblerOptions, string][] = [
      ["server_error", CHAT, "event: error\ndata: overloaded\n\n"], ["bad_event", CHAT, "data: {oops\n\n"], ["bad_event", { dialect: "ollama" }, "{oops\n"],
    ];
    const runs: [string, ErrorCode, Replay][] = [
      ...cases.map(([code, { list, ...options }]): [string, ErrorCode, Replay] => [JSON.stringify(list.at(-1)), code, replay(options, { events: list })]),
      ...tags.map(([code, content]): [string, ErrorCode, Replay] => [content, code, replay({ ...CHAT, toolCallTags: true }, { events: [chat.text(`<tool_call>${content}</tool_call>`)] })]),
      ...raw.map(([code, options, text]): [string, ErrorCode, Replay] => [text, code, replay(options, { text: [text] })]),
    ];
    expectErrorsWithMessages(runs);
  });

  l3("a replay input that is not an object, or whose one form is not an array, throws StreamUsageError", () => {
    for (const input of [null, 5, "events", [], { events: "x" }, { text: null }, { bytes: utf8("data") }, { events: [], bytes: [] }]) {
      expect(() => replay(CHAT, input as never), JSON.stringify(input)).toThrow(StreamUsageError);
    }
    expect(replay(CHAT, { text: [] }).result.status).toBe("cut");
  });

  l3("a StreamUsageError says what was misused: every one has a message that is not empty", () => {
    const ended = () => {
      const a = createAssembler(CHAT);
      a.end();
      return a;
    };
    const misuses: [string, () => unknown][] = [
      ["a limit of 0", () => createAssembler({ ...CHAT, limits: { maxArgumentBytes: 0 } })],
      ["an unknown dialect", () => createAssembler({ dialect: "openai" as never })],
      ["toolCallTags 1", () => createAssembler({ ...CHAT, toolCallTags: 1 as never })],
      ["a push after end()", () => ended().push(chat.text("x"))],
      ["pushBytes after push", () => { const a = createAssembler(CHAT); a.push(chat.text("x")); return a.pushBytes(utf8("x")); }],
      ["pushText of a number", () => createAssembler(CHAT).pushText(7 as never)],
      ["pushBytes of a string", () => createAssembler(CHAT).pushBytes("x" as never)],
      ["a second end()", () => ended().end()],
      ["a replay input with two forms", () => replay(CHAT, { events: [], text: [] } as never)],
    ];
    expectUsageErrorsWithMessages(misuses);
  });

  l3("a wrong use of the API throws StreamUsageError, and nothing else does", () => {
    expect(() => createAssembler({ dialect: "openai" as never })).toThrow(StreamUsageError);
    expect(() => createAssembler(null as never)).toThrow(StreamUsageError);
    expect(() => createAssembler({ ...CHAT, toolCallTags: "yes" as never })).toThrow(StreamUsageError);
    for (const limits of [{ maxCalls: 0 }, { maxArgumentBytes: 1.5 }, { maxCalls: -1 }, { maxCalls: null }]) expect(() => createAssembler({ ...CHAT, limits: limits as never })).toThrow(StreamUsageError);
    const a = createAssembler(CHAT);
    a.push(chat.text("x"));
    expect(() => a.pushText("data: x\n\n")).toThrow(StreamUsageError);
    a.end();
    expect(() => a.push(chat.text("y"))).toThrow(StreamUsageError);
    expect(() => a.end()).toThrow(StreamUsageError);
    expect(a.result().text).toBe("x");
    const b = createAssembler(CHAT);
    expect(() => b.pushText(7 as never)).toThrow(StreamUsageError);
    expect(() => createAssembler(CHAT).pushBytes("data" as never)).toThrow(StreamUsageError);
    expect(() => replay(CHAT, { events: [], text: [] } as never)).toThrow(StreamUsageError);
    expect(() => replay(CHAT, {} as never)).toThrow(StreamUsageError);
    try {
      createAssembler({ dialect: "x" as never });
    } catch (error) {
      expect((error as Error).name).toBe("StreamUsageError");
    }
  });

  /** A chat stream of one call whose arguments hold `size` bytes, in fragments of `piece` characters. */
  function bigCall(size: number, piece = 100): unknown[] {
    const text = JSON.stringify({ text: "x".repeat(size - 11) });
    const out: unknown[] = [chat.calls({ index: 0, id: "call_big", type: "function", name: "write", arguments: "" })];
    for (let i = 0; i < text.length; i += piece) out.push({ choices: [{ index: 0, delta: { tool_calls: [fragment({ index: 0, arguments: text.slice(i, i + piece) })] } }] });
    out.push(chat.finish("tool_calls"));
    return out;
  }
  const BIG: AssemblerOptions = { ...CHAT, limits: { maxArgumentBytes: 4 << 20 } };

  l3("1 MiB of arguments in 10,000 fragments: ready once, read once, in linear time", () => {
    expectLinear("events", bigCall, (events) => replay(BIG, { events }));
    const events = bigCall(1 << 20);
    expect(events.length).toBeGreaterThan(10_000);
    const r = replay(BIG, { events });
    expect(r.result.calls.map((c) => c.rawArguments.length)).toEqual([1 << 20]);
    expect(readyLog(r).map(({ at }) => at)).toEqual([events.length - 1]);
  });

  l3("server-sent events in 100-character chunks: 1 MiB of arguments in 100 events, and a 1 MiB line, in linear time", () => {
    // Each event's line comes in about a hundred chunks here: building it by splitting the whole
    // buffer again per chunk is what this times (the events test above times the assembly).
    const events = (size: number) => everyN(sse(bigCall(size, Math.ceil(size / 100))), 100);
    expectLinear("server-sent events", events, (text) => replay(BIG, { text }));
    const r = replay(BIG, { text: events(1 << 20) });
    expect(r.result.calls.map((c) => c.rawArguments.length)).toEqual([1 << 20]);
    const line = (size: number) => everyN(`data: ${JSON.stringify(chat.text("y".repeat(size)))}\n\n`, 100);
    expectLinear("one long line", line, (text) => replay(CHAT, { text }));
    expect(releasedText(replay(CHAT, { text: line(1 << 20) }))).toHaveLength(1 << 20);
  });
});
