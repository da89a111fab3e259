// Held-out bank, kata 4, tasks 5-7: raw streams, tags and limits, with other examples and other
// random cuts than the visible specs. The candidate pack leaves this folder out.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { replay, type AssemblerOptions } from "@impl/04-stream-assembly";
import { l3 } from "../../support/graded.ts";
import { anthropicStreamOf, choose, cutChoices, rawHardCuts, responsesStreamOf, tagHardCuts, taggedText, utf8HardCuts, writeSse } from "../arbitraries.ts";
import {
  anthropic, brief, byteOffsets, chat, chatCall, codes, cutAt, cutBytes, everyN, expectLinear, expectStream, gemini, ndjson,
  ollama, releasedBy, responses, sse, utf8,
} from "../helpers.ts";

const CHAT: AssemblerOptions = { dialect: "chat-completions" };

describe("5. Raw streams: pushText and pushBytes", () => {
  l3("a Responses stream with event: lines, CRLF, a comment and a cut between \\r and \\n", () => {
    const events = [responses.created(), responses.text("Hi "), responses.callAdded("fc_1", "c1", "lookup"), responses.delta("fc_1", "{\"q\": \"北京\"}"),
      responses.argsDone("fc_1", "{\"q\": \"北京\"}"), responses.completed()];
    const text = `: hello\r\n\r\n${sse(events, { names: true }).replaceAll("\n", "\r\n")}`;
    const cuts = [...text.matchAll(/\r\n/g)].map((m) => m.index! + 1);
    const r = replay({ dialect: "responses" }, { text: cutAt(text, cuts) });
    expect(r.result).toMatchObject({ text: "Hi ", status: "complete", errors: [] });
    expect(r.result.calls.map(brief)).toEqual([{ id: "c1", name: "lookup", arguments: { q: "北京" } }]);
  });

  l3("an Anthropic stream with emoji and CJK, one byte at a time", () => {
    const events = [anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "天气 🌤️ "), anthropic.stop(0),
      anthropic.toolBlock(1, "t1", "weather"), anthropic.json(1, "{\"city\": \"上海\", \"emoji\": \"🌧\"}"), anthropic.stop(1),
      anthropic.messageDelta("tool_use"), anthropic.end()];
    const bytes = utf8(sse(events, { names: true }));
    const r = replay({ dialect: "anthropic" }, { bytes: [...bytes].map((b) => Uint8Array.of(b)) });
    expect(r.result.text).toBe("天气 🌤️ ");
    expect(r.result.calls.map((c) => c.arguments)).toEqual([{ city: "上海", emoji: "🌧" }]);
  });

  l3("NDJSON as bytes with a byte order mark, and Gemini's CRLF server-sent events", () => {
    const lines = [ollama.text("¡Hola!"), ollama.calls({ name: "now", arguments: {} }), ollama.done()];
    const r = replay({ dialect: "ollama" }, { bytes: cutBytes(utf8(`\uFEFF${ndjson(lines)}`), [1, 2, 3, 20]) });
    expect(r.result).toMatchObject({ text: "¡Hola!", status: "complete", errors: [] });
    const chunks = [gemini.chunk([{ text: "It is" }]), gemini.chunk([gemini.call("weather", { city: "Lyon" })], "STOP")];
    const g = replay({ dialect: "gemini" }, { text: everyN(sse(chunks).replaceAll("\n", "\r\n"), 3) });
    expect(g.result.calls.map((c) => c.arguments)).toEqual([{ city: "Lyon" }]);
    expect(g.result.text).toBe("It is");
  });

  l3("a field with no colon is a field with an empty value: a bare data line joins an event's lines with an empty one", () => {
    const text = "data: {\"choices\": [{\"delta\":\ndata\ndata: {\"content\": \"ok\"}}]}\n\nretry\n\ndata: [DONE]\n\n";
    const r = replay(CHAT, { text: everyN(text, 2) });
    expect(r.result).toMatchObject({ text: "ok", errors: [], status: "complete" });
  });

  l3("Anthropic's error event (event: error, overloaded) fails the stream and truncates the open block", () => {
    const text = sse([anthropic.start(), anthropic.toolBlock(0, "t0", "f"), anthropic.json(0, "{")], { names: true })
      + "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
    const r = replay({ dialect: "anthropic" }, { text: [text] });
    expect(r.result.status).toBe("failed");
    expect(codes(r.result.errors)).toEqual(["server_error", "truncated"]);
  });

  l3.property("Responses and Anthropic streams as bytes, cut inside characters and inside data:, give what their events give", () => {
    const stream = fc.oneof(responsesStreamOf(true), anthropicStreamOf(true));
    fc.assert(fc.property(stream, cutChoices, fc.boolean(), (s, choices, crlf) => {
      const raw = writeSse(s.events, { lineEnd: crlf ? "\r\n" : "\n", space: true, comments: true, names: true, multiline: false, otherFields: false, ending: "blank" });
      const bytes = utf8(raw.text);
      const offsets = byteOffsets(raw.text);
      const hard = [...utf8HardCuts(bytes), ...rawHardCuts(raw.text).map((c) => offsets[c])];
      const cuts = choose(raw.text, choices, hard).map((c) => Math.min(c, bytes.length - 1)).filter((c) => c > 0);
      const unique = [...new Set(cuts)];
      const stepOf = (k: number) => unique.filter((c) => c <= offsets[raw.dispatch[k]]).length;
      expectStream(replay({ dialect: s.dialect }, { bytes: cutBytes(bytes, cuts) }), s, stepOf);
    }));
  });
});

describe("6. <tool_call> tags in the text", () => {
  const TAGS: AssemblerOptions = { ...CHAT, toolCallTags: true };

  l3("two tags in one chunk with prose between them, their content on lines of its own", () => {
    const r = replay(TAGS, { events: [chat.text("A\n<tool_call>\n{\"name\": \"a\", \"arguments\": {\"n\": 1}}\n</tool_call>\nB\n<tool_call>{\"name\": \"b\"}</tool_call>C"), chat.finish("stop")] });
    expect(r.result.text).toBe("A\n\nB\nC");
    expect(r.result.calls.map((c) => [c.index, c.id, c.name, c.arguments])).toEqual([[0, "call_0", "a", { n: 1 }], [1, "call_1", "b", {}]]);
    expect(r.steps[0].ready).toHaveLength(2);
  });

  l3("an opening tag inside an open tag is content; a closing tag outside any tag is prose", () => {
    const r = replay(TAGS, { events: [chat.text("x </tool_call> y <tool_call><tool_call>{\"name\": \"f\"}</tool_call>z"), chat.finish("stop")] });
    expect(r.result.text).toBe("x </tool_call> y z");
    expect(r.result.errors.map((e) => [e.code, e.raw])).toEqual([["invalid_json", "<tool_call>{\"name\": \"f\"}"]]);
  });

  l3("tags in Responses text deltas, cut inside the tag's name", () => {
    const r = replay({ dialect: "responses", toolCallTags: true }, { events: [responses.text("ok <tool_"), responses.text("call>{\"name\": \"g\", \"arguments\": {\"a\": [1]}}</tool_c"), responses.text("all>!"), responses.completed()] });
    expect(r.steps.map((s) => s.text)).toEqual(["ok ", "", "!", ""]);
    expect(r.result.calls.map((c) => [c.name, c.arguments])).toEqual([["g", { a: [1] }]]);
  });

  l3("a tag's content counts towards maxArgumentBytes; a refused tag's content is not released either", () => {
    const big = replay({ ...TAGS, limits: { maxArgumentBytes: 16 } }, { events: [chat.text("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>after"), chat.finish("stop")] });
    expect(codes(big.result.errors)).toEqual(["arguments_too_large"]);
    expect(big.result.text).toBe("after");
  });

  l3.property("prose full of '<' and tag beginnings: after every piece, exactly what cannot become a tag has been released", () => {
    const prose = fc.array(fc.constantFrom("<", "<t", "<to", "<tool_", "<tool_call", "x", " ", "<tool_call>", "{\"name\": \"q\"}", "</tool_call>", "</", "<<"), { maxLength: 12 }).map((p) => p.join(""));
    fc.assert(fc.property(fc.oneof(prose, taggedText), cutChoices, (text, choices) => {
      const pieces = cutAt(text, choose(text, choices, tagHardCuts(text)));
      const r = replay(TAGS, { events: pieces.map((p) => chat.text(p)) });
      let so = "";
      pieces.forEach((piece, k) => {
        so += piece;
        expect(r.steps.slice(0, k + 1).map((u) => u.text).join("")).toBe(releasedBy(so));
      });
    }));
  });
});

describe("7. Limits and hostile streams", () => {
  l3("maxCalls counts whole calls too: Gemini's third call is refused once", () => {
    const r = replay({ dialect: "gemini", limits: { maxCalls: 2 } }, { events: [gemini.chunk([gemini.call("a", {}), gemini.call("b", {}), gemini.call("c", {}), gemini.call("d", {})], "STOP")] });
    expect(r.result.calls.map((c) => c.name)).toEqual(["a", "b"]);
    expect(codes(r.result.errors)).toEqual(["too_many_calls"]);
    expect(r.result.toolTurn).toBe(true);
  });

  l3("an argument exactly at maxArgumentBytes in a Responses delta is ready; over it, the .done is not compared", () => {
    const ok = replay({ dialect: "responses", limits: { maxArgumentBytes: 12 } }, { events: [responses.callAdded("fc", "c", "f"), responses.delta("fc", "{\"a\":\"éé\"}"), responses.argsDone("fc", "{\"a\":\"éé\"}"), responses.completed()] });
    expect(ok.result.calls.map((c) => c.arguments)).toEqual([{ a: "éé" }]);
    const over = replay({ dialect: "responses", limits: { maxArgumentBytes: 11 } }, { events: [responses.callAdded("fc", "c", "f"), responses.delta("fc", "{\"a\":\"éé\"}"), responses.argsDone("fc", "{\"a\":\"éé\"}"), responses.completed()] });
    expect(codes(over.result.errors)).toEqual(["arguments_too_large"]);
  });

  l3("hostile Anthropic, Responses and Gemini events: errors with codes, no throw, no call from a broken start", () => {
    const r = replay({ dialect: "anthropic" }, { events: [anthropic.start(), { type: "content_block_start", index: 0, content_block: "tool_use" },
      { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: 7, name: "f" } }, anthropic.json(1, "{}"), anthropic.stop(1),
      { type: "content_block_delta", index: 2 }, anthropic.end()] });
    expect(codes(r.result.errors)).toEqual(["bad_event", "bad_event", "out_of_order", "out_of_order", "out_of_order"]);
    expect(r.result.calls).toEqual([]);
    const g = replay({ dialect: "gemini" }, { events: [{ candidates: {} }, { candidates: [{ content: { parts: [null, { functionCall: "f" }] } }] }, gemini.chunk([], "STOP")] });
    expect(codes(g.result.errors)).toEqual(["bad_event", "bad_event", "bad_event"]);
    const resp = replay({ dialect: "responses" }, { events: [{ type: "response.output_item.added", item: { type: "function_call", call_id: "c", name: "f" } }, responses.completed()] });
    expect(codes(resp.result.errors)).toEqual(["bad_event"]);
  });

  l3("many '<' in 1 MiB of prose, and 1 MiB of tag content, in 100-character chunks: linear time", () => {
    const TAGS: AssemblerOptions = { ...CHAT, toolCallTags: true, limits: { maxArgumentBytes: 4 << 20 } };
    const prose = (size: number) => everyN("<tool_ca x ".repeat(Math.ceil(size / 11)).slice(0, size), 100).map((p) => chat.text(p));
    expectLinear("prose", prose, (events) => replay(TAGS, { events }));
    const tag = (size: number) => everyN(`<tool_call>{"name": "w", "arguments": {"t": "${"y".repeat(size)}"}}</tool_call>`, 100).map((p) => chat.text(p));
    expectLinear("tag", (size) => [...tag(size), chat.finish("stop")], (events) => replay(TAGS, { events }));
    const r = replay(TAGS, { events: [...tag(1 << 20), chat.finish("stop")] });
    expect(r.result.calls.map((c) => (c.arguments.t as string).length)).toEqual([1 << 20]);
  });

  l3("a call past the limit in chat-completions: its later fragments are dropped silently, the next calls too", () => {
    const r = replay({ ...CHAT, limits: { maxCalls: 1 } }, { events: [...chatCall(0, "a", "f", ["{}"]), ...chatCall(1, "b", "g", ["{\"x\":", "1}"]), ...chatCall(2, "c", "h", ["{}"]), chat.finish("tool_calls")] });
    expect(r.result.calls.map((c) => c.id)).toEqual(["a"]);
    expect(codes(r.result.errors)).toEqual(["too_many_calls"]);
  });
});
