// Held-out bank, kata 4, tasks 5-7: raw streams, tags and limits, with other examples and other
// random cuts than the visible specs. The candidate pack leaves this folder out.
import fc from "fast-check";
import { describe, expect } from "vitest";
import {
  createAssembler, replay, StreamUsageError, type Assembler, type AssemblerOptions, type Dialect, type ErrorCode, type Replay,
} from "@impl/04-stream-assembly";
import { l3 } from "../../support/graded.ts";
import { anthropicStreamOf, choose, cutChoices, rawHardCuts, responsesStreamOf, tagHardCuts, taggedText, utf8HardCuts, writeSse } from "../arbitraries.ts";
import {
  anthropic, brief, byteOffsets, chat, chatCall, codes, cutAt, cutBytes, everyN, expectLinear, expectStream, gemini, ndjson,
  expectErrorsWithMessages, expectUsageErrorsWithMessages, ollama, readyLog, releasedBy, releasedErrors, releasedText, responses, sse, utf8,
} from "../helpers.ts";

const CHAT: AssemblerOptions = { dialect: "chat-completions" };
const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";
const EMPTY = { text: "", ready: [], errors: [] };
const DIALECTS = ["chat-completions", "responses", "anthropic", "gemini", "ollama"] as const;

/** One chat-completions text chunk written as one server-sent event. */
const textEvent = (content: string) => `data: ${JSON.stringify(chat.text(content))}\n\n`;

/** `whole` cut at `positions` (sorted), a repeated position giving an empty piece. */
function piecesAt<T extends string | Uint8Array>(whole: T, positions: readonly number[]): T[] {
  const pieces: T[] = [];
  let from = 0;
  for (const at of positions) {
    pieces.push(whole.slice(from, at) as T);
    from = at;
  }
  pieces.push(whole.slice(from) as T);
  return pieces;
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** A result with the free-text messages left out. */
const withoutMessages = (r: Replay) => ({ ...r.result, errors: r.result.errors.map(({ message: _, ...rest }) => rest) });

/** The error a wrong use of the API must throw. */
function expectUsageError(run: () => unknown, label: string): void {
  let thrown: unknown = null;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, label).toBeInstanceOf(StreamUsageError);
  expect(thrown, label).toBeInstanceOf(Error);
  expect((thrown as Error).name, label).toBe("StreamUsageError");
}

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

  l3("a byte order mark is dropped only at the very start of the stream: after empty pieces, cut in its bytes, never at a later piece's start, and only once", () => {
    const rows: [string, string[], string][] = [
      ["an empty piece, then the mark", ["", `\uFEFF${textEvent("a")}`], "a"],
      ["empty pieces, the mark alone, then the event", ["", "", "\uFEFF", textEvent("a")], "a"],
      ["a mark that starts the second piece, inside the data, stays", ["data: {\"choices\":[{\"delta\":{\"content\":\"", "\uFEFFb\"}}]}\n\n"], "\uFEFFb"],
      ["a mark that starts a later line is part of that line's field name", [textEvent("a"), `\uFEFF${textEvent("b")}`], "a"],
      ["two marks at the start: the second is part of the first line's field name", [`\uFEFF\uFEFF${textEvent("a")}${textEvent("b")}`], "b"],
    ];
    for (const [label, pieces, text] of rows) {
      const r = replay(CHAT, { text: pieces });
      expect(r.result.text, label).toBe(text);
      expect(r.result.errors, label).toEqual([]);
      expect(replay(CHAT, { bytes: pieces.map(utf8) }).result.text, `${label}, as bytes`).toBe(text);
    }
    const mark = utf8("\uFEFF");
    const split = replay(CHAT, { bytes: [new Uint8Array(0), mark.slice(0, 1), mark.slice(1, 2), concat(mark.slice(2), utf8(textEvent("a")))] });
    expect(split.result.text, "the mark cut in its three bytes").toBe("a");
    const twice = replay(CHAT, { bytes: [mark, mark, utf8(textEvent("a") + textEvent("b"))] });
    expect(twice.result.text, "two marks as bytes in pieces of their own").toBe("b");
  });

  l3("line ends cut anywhere: \\r, an empty piece, then \\n is one line end; \\r\\n then \\n is a blank line; a blank line cut between its two \\n", () => {
    const head = "data: {\"choices\": [{\"delta\":";
    const tail = "data: {\"content\": \"ok\"}}]}";
    const a = `data: ${JSON.stringify(chat.text("a"))}`;
    const b = `data: ${JSON.stringify(chat.text("b"))}`;
    const rows: [string, string[], string][] = [
      ["\\r, an empty piece, \\n inside an event", [`${head}\r`, "", `\n${tail}\r\n\r\n`], "ok"],
      ["\\r and \\n in pieces of their own", [`${head}\r`, "\n", `${tail}\r`, "\n\r", "\n"], "ok"],
      ["\\r\\n cut in two, then a blank line of \\n alone", [`${a}\r`, "\n", "\n", `${b}\n\n`], "ab"],
      ["a blank line cut between its two \\n", [`${a}\n`, `\n${b}\n`, "\n"], "ab"],
      ["lone \\r line ends, each piece ending with one", [`${a}\r`, "\r", `${b}\r`, "\r"], "ab"],
      ["a lone \\r followed by the next line's first character", [`${a}\r\r${b}\r`, "\r"], "ab"],
      ["\\r at a piece's end, then a piece starting with \\r", [`${a}\r`, `\r${b}\r\n`, "\r\n"], "ab"],
    ];
    for (const [label, pieces, text] of rows) {
      const r = replay(CHAT, { text: pieces });
      expect(r.result.text, label).toBe(text);
      expect(r.result.errors, label).toEqual([]);
    }
  });

  l3("fields: a line with no colon is a field with an empty value, data:x needs no space, only an event named error is special, other fields are ignored", () => {
    const a = JSON.stringify(chat.text("a"));
    const rows: [string, string, string, ErrorCode[]][] = [
      ["data:x with no space", `data:${a}\n\n`, "a", []],
      ["a bare event line names the event \"\"", `event: error\nevent\ndata: ${a}\n\n`, "a", []],
      ["event:error with no space", "event:error\ndata: overloaded\n\n", "", ["server_error"]],
      ["an id: line between event: error and its data", "event: error\nid: 1\ndata: overloaded\n\n", "", ["server_error"]],
      ["an event named Error", `event: Error\ndata: ${a}\n\n`, "a", []],
      ["an event named \" error\" (two spaces after the colon)", `event:  error\ndata: ${a}\n\n`, "a", []],
      ["an event named message", `event: message\ndata: ${a}\n\n`, "a", []],
      ["id:, retry: and error: fields whose value is error", `id: error\nretry: error\nerror: error\ndata: ${a}\n\n`, "a", []],
      ["a field named Data", `Data: ${a}\n\n`, "", []],
      ["a comment that looks like data", `:data: ${a}\n\n`, "", []],
    ];
    for (const [label, stream, text, errors] of rows) {
      const r = replay(CHAT, { text: everyN(stream, 3) });
      expect(r.result.text, label).toBe(text);
      expect(codes(r.result.errors), label).toEqual(errors);
      expect(r.result.status, label).toBe(errors.length > 0 ? "failed" : "cut");
    }
  });

  l3("[DONE] with whitespace around it, or with an empty data line, ends the stream in its own piece; [DONE]x is not [DONE]", () => {
    const call = sse(chatCall(0, "c", "f", ["{\"q\": 1}"]));
    const rows: [string, string][] = [
      ["tabs and spaces", "data: \t [DONE]\t \n\n"],
      ["no space after the colon, lone \\r line ends", "data:[DONE]  \r\r"],
      ["an empty data line after it", "data: [DONE]\ndata:\n\n"],
      ["an empty data line before it", "data:\ndata: [DONE]\n\n"],
    ];
    for (const [label, done] of rows) {
      const r = replay(CHAT, { text: [call, done, textEvent("late")] });
      expect(r.steps[1].ready.map((c) => c.name), label).toEqual(["f"]);
      expect(r.result, label).toMatchObject({ status: "complete", finishReason: null, text: "" });
      expect(codes(r.result.errors), label).toEqual(["out_of_order"]);
    }
    const bad = replay(CHAT, { text: [call, "data: [DONE]x\n\n"] });
    expect(codes(bad.result.errors)).toEqual(["bad_event", "lost_fragment"]);
    expect(bad.result.calls).toEqual([]);
  });

  l3("end() reads what is pending: a finish with no blank line readies the open call in end()'s update; cut JSON is dropped without an error", () => {
    const call = sse(chatCall(0, "c", "f", ["{\"q\": 1}"]));
    const finish = JSON.stringify(chat.finish("tool_calls"));
    const comma = finish.indexOf(",") + 1;
    const rows: [string, string][] = [
      ["no line end", `data: ${finish}`],
      ["a line end but no blank line", `data: ${finish}\r\n`],
      ["over two data lines, no line end", `data: ${finish.slice(0, comma)}\ndata: ${finish.slice(comma)}`],
    ];
    for (const [label, last] of rows) {
      const r = replay(CHAT, { text: [call, last] });
      expect(r.steps[1], label).toEqual(EMPTY);
      expect(r.end.ready.map((c) => c.name), label).toEqual(["f"]);
      expect(r.result, label).toMatchObject({ status: "complete", finishReason: "tool_calls", errors: [] });
    }
    const cut = replay(CHAT, { text: [call, `data: ${finish.slice(0, comma)}\ndata: `] });
    expect(cut.end.errors.map((e) => [e.code, e.callIndex, e.id, e.name, e.raw])).toEqual([["truncated", 0, "c", "f", "{\"q\": 1}"]]);
    expect(cut.result).toMatchObject({ status: "cut", finishReason: null });
    expect(cut.result.errors).toHaveLength(1);
    const lines = ndjson([ollama.text("Hi"), ollama.calls({ name: "f", arguments: {} })]);
    const done = JSON.stringify(ollama.done("stop"));
    const o = replay({ dialect: "ollama" }, { text: [lines, done] });
    expect(o.steps[1], "an NDJSON last line with no line end").toEqual(EMPTY);
    expect(o.result).toMatchObject({ status: "complete", finishReason: "stop", errors: [], text: "Hi" });
    const oc = replay({ dialect: "ollama" }, { text: [lines, done.slice(0, -3)] });
    expect(oc.result).toMatchObject({ status: "cut", errors: [], text: "Hi" });
  });

  l3("bytes that end in an incomplete UTF-8 sequence become U+FFFD at end(): the last line they follow is no longer [DONE] or JSON", () => {
    const call = utf8(sse(chatCall(0, "c", "f", ["{}"])));
    const rows: [string, Uint8Array[], string, ErrorCode[]][] = [
      ["[DONE], then two bytes of 中", [call, utf8("data: [DONE]"), Uint8Array.of(0xe4, 0xb8)], "cut", ["truncated"]],
      ["[DONE] and the first byte of an emoji in one piece", [call, concat(utf8("data: [DONE]"), Uint8Array.of(0xf0))], "cut", ["truncated"]],
      ["[DONE] and nothing after it", [call, utf8("data: [DONE]")], "complete", []],
    ];
    for (const [label, bytes, status, errors] of rows) {
      const r = replay(CHAT, { bytes });
      expect(r.result.status, label).toBe(status);
      expect(codes(r.result.errors), label).toEqual(errors);
    }
    const line = utf8(ndjson([ollama.text("Hi")]) + JSON.stringify(ollama.done()));
    expect(replay({ dialect: "ollama" }, { bytes: [line, Uint8Array.of(0xf0, 0x9f, 0x98)] }).result).toMatchObject({ status: "cut", errors: [], text: "Hi" });
    expect(replay({ dialect: "ollama" }, { bytes: [line] }).result).toMatchObject({ status: "complete", errors: [], text: "Hi" });
  });

  l3("NDJSON: lines of spaces and tabs are blank, lone \\r line ends cut after each, \\r\\n cut in two, a last line ended by \\r or by blanks", () => {
    const lines = [ollama.text("Hola "), ollama.calls({ name: "weather", arguments: { city: "Lyon" } }), ollama.text("ya"), ollama.done("stop")];
    const expected = replay({ dialect: "ollama" }, { events: lines }).result;
    expect(expected).toMatchObject({ text: "Hola ya", status: "complete", errors: [] });
    const json = lines.map((l) => JSON.stringify(l));
    const rows: [string, string[]][] = [
      ["lines of spaces and tabs between", [`${json.join("\n \t\n\t\n  \n")}\n`]],
      ["a first line of spaces, CRLF", [` \r\n${json.join("\r\n \r\n")}\r\n`]],
      ["lone \\r, cut after each", json.map((j) => `${j}\r`)],
      ["\\r\\n cut between its \\r and its \\n", json.flatMap((j) => [`${j}\r`, "\n"])],
      ["the last line ended by \\r alone, after an empty piece", [...json.slice(0, -1).map((j) => `${j}\n`), "", `${json.at(-1)}\r`]],
      ["spaces after the last line, no line end", [`${json.join("\n")}\n   `]],
    ];
    for (const [label, pieces] of rows) {
      expect(replay({ dialect: "ollama" }, { text: pieces }).result, label).toEqual(expected);
      expect(replay({ dialect: "ollama" }, { text: pieces.flatMap((p) => everyN(p, 2)) }).result, `${label}, in pieces of 2`).toEqual(expected);
    }
  });

  l3.property("any cut of server-sent events mixing \\n, \\r and \\r\\n, with empty pieces and a byte order mark, gives what the parsed events give", () => {
    const events = [chat.text("Sure: 北京 😀 "), ...chatCall(0, "call_1", "search", ["{\"q\": \"", "é\"}"]), ...chatCall(1, "call_2", "now", [""]),
      chat.finish("tool_calls"), chat.usage(), "[DONE]"];
    const whole = replay(CHAT, { events }).result;
    const lines = events.flatMap((e) => [`data: ${typeof e === "string" ? e : JSON.stringify(e)}`, ""]);
    const lineEnds = fc.array(fc.constantFrom("\n", "\r", "\r\n"), { minLength: lines.length, maxLength: lines.length });
    const cuts = fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 12 });
    fc.assert(fc.property(lineEnds, cuts, fc.boolean(), fc.boolean(), (ends, picks, bom, afterEveryCr) => {
      let text = bom ? "\uFEFF" : "";
      lines.forEach((line, k) => {
        // A blank line ended by \n right after a lone \r would merge into one \r\n line end.
        text += line + (line === "" && text.endsWith("\r") && ends[k] === "\n" ? "\r\n" : ends[k]);
      });
      const at = (size: number, extra: number[]) => [...picks.flatMap(([n, twice]) => (twice ? [n % (size + 1), n % (size + 1)] : [n % (size + 1)])), ...extra]
        .sort((x, y) => x - y);
      // Each \r followed by an empty piece: the line end may still be \r\n when the next piece comes.
      const crs = afterEveryCr ? [...text.matchAll(/\r/g)].flatMap((m) => [m.index + 1, m.index + 1]) : [];
      expect(replay(CHAT, { text: piecesAt(text, at(text.length, crs)) }).result).toEqual(whole);
      const bytes = utf8(text);
      const offsets = byteOffsets(text);
      expect(replay(CHAT, { bytes: piecesAt(bytes, at(bytes.length, crs.map((c) => offsets[c]))) }).result).toEqual(whole);
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

  l3("each beginning of <tool_call>, from < to <tool_call, is held back until the next piece says whether it opens a tag, and released when the stream ends", () => {
    for (let k = 1; k < OPEN.length; k++) {
      const part = OPEN.slice(0, k);
      const prose = replay(TAGS, { events: [chat.text(`a${part}`), chat.text("z"), chat.finish("stop")] });
      expect(prose.steps.map((s) => s.text), `${part}, then z`).toEqual(["a", `${part}z`, ""]);
      const tag = replay(TAGS, { events: [chat.text(`a${part}`), chat.text(`${OPEN.slice(k)}{"name": "f"}</tool_call>b`), chat.finish("stop")] });
      expect(tag.steps.map((s) => s.text), `${part}, then the rest of the tag`).toEqual(["a", "b", ""]);
      expect(readyLog(tag).map(({ at, call }) => [at, call.id, call.name]), `${part}, then the rest of the tag`).toEqual([[1, "call_0", "f"]]);
      const finished = replay(TAGS, { events: [chat.text(`a${part}`), chat.finish("stop")] });
      expect(finished.steps.map((s) => s.text), `${part}, then the finish`).toEqual(["a", part]);
      const cut = replay(TAGS, { events: [chat.text(`a${part}`)] });
      expect([cut.steps[0].text, cut.end.text], `${part}, then end()`).toEqual(["a", part]);
    }
    const again = replay(TAGS, { events: [chat.text("<tool_call"), chat.text("<tool_call>{\"name\": \"g\"}</tool_call>"), chat.finish("stop")] });
    expect(again.steps.map((s) => s.text)).toEqual(["", "<tool_call", ""]);
    expect(again.result.calls.map((c) => c.name)).toEqual(["g"]);
  });

  l3("a closing tag cut after each of its characters still closes the tag; a held beginning of </tool_call> that goes on otherwise is content", () => {
    for (let k = 1; k < CLOSE.length; k++) {
      const part = CLOSE.slice(0, k);
      const closed = replay(TAGS, { events: [chat.text(`<tool_call>{"name": "f"}${part}`), chat.text(`${CLOSE.slice(k)}!`), chat.finish("stop")] });
      expect(closed.steps.map((s) => s.text), part).toEqual(["", "!", ""]);
      expect(readyLog(closed).map(({ at, call }) => [at, call.name, call.arguments]), part).toEqual([[1, "f", {}]]);
      const content = replay(TAGS, { events: [chat.text(`<tool_call>{"name": "f", "arguments": {"s": "${part}`), chat.text("x\"}}</tool_call>"), chat.finish("stop")] });
      expect(content.result.calls.map((c) => c.arguments), `${part}x`).toEqual([{ s: `${part}x` }]);
      expect(content.result.text, `${part}x`).toBe("");
    }
    const oneByOne = replay(TAGS, { events: [chat.text("<tool_call>{\"name\": \"g\"}"), ...CLOSE.split("").map((c) => chat.text(c)), chat.finish("stop")] });
    expect(readyLog(oneByOne).map(({ at, call }) => [at, call.name])).toEqual([[CLOSE.length, "g"]]);
  });

  l3("a stream that ends inside a tag holding any beginning of </tool_call>: truncated with that beginning in raw, the prose before it released", () => {
    for (let k = 0; k < CLOSE.length; k++) {
      const part = CLOSE.slice(0, k);
      const r = replay(TAGS, { events: [chat.text("x <tool_call>{\"name\": \"f\"}"), chat.text(part)] });
      expect(r.end.errors.map((e) => [e.code, e.callIndex, e.id, e.raw]), JSON.stringify(part)).toEqual([["truncated", 0, "call_0", `{"name": "f"}${part}`]]);
      expect(r.result, JSON.stringify(part)).toMatchObject({ text: "x ", status: "cut", calls: [] });
    }
    const short = replay(TAGS, { events: [chat.text("<tool_call>{\"name\": \"f\"}</tool_c"), chat.finish("length")] });
    expect(short.steps[1].errors.map((e) => [e.code, e.raw])).toEqual([["truncated", "{\"name\": \"f\"}</tool_c"]]);
    expect(short.result.status).toBe("incomplete");
  });

  l3("tags in the text of Responses, Anthropic, Gemini and Ollama, as events and as raw streams cut small, the tag cut across pieces", () => {
    const pieces = ["Hi <tool_", "call>{\"name\": \"w\", \"arguments\": {\"c\": \"北京\"}}</tool", "_call> ok"];
    const streams: [Dialect, unknown[], (events: unknown[]) => string][] = [
      ["responses", [responses.created(), ...pieces.map((p) => responses.text(p)), responses.completed()], (e) => sse(e, { names: true })],
      ["anthropic", [anthropic.start(), anthropic.textBlock(0), ...pieces.map((p) => anthropic.text(0, p)), anthropic.stop(0), anthropic.messageDelta("end_turn"), anthropic.end()],
        (e) => sse(e, { names: true })],
      ["gemini", [gemini.chunk([{ text: pieces[0] }]), gemini.chunk([{ text: pieces[1] }, { text: pieces[2] }], "STOP")], (e) => sse(e)],
      ["ollama", [...pieces.map((p) => ollama.text(p)), ollama.done()], ndjson],
    ];
    for (const [dialect, events, write] of streams) {
      const options = { dialect, toolCallTags: true };
      const bytes = utf8(write(events));
      const runs = [
        ["events", replay(options, { events })],
        ["text", replay(options, { text: everyN(write(events), 4) })],
        ["bytes", replay(options, { bytes: cutBytes(bytes, [...bytes.keys()].filter((i) => i % 3 === 1)) })],
      ] as const;
      for (const [form, r] of runs) {
        expect(r.result.calls, `${dialect}, ${form}`).toEqual([{ index: 0, id: "call_0", name: "w", arguments: { c: "北京" }, rawArguments: "{\"c\":\"北京\"}" }]);
        expect(r.result, `${dialect}, ${form}`).toMatchObject({ text: "Hi  ok", errors: [], status: "complete", toolTurn: true });
      }
    }
  });

  l3("only the dialect's text is scanned: a tag in reasoning_content, refusal, a Gemini thought, an Anthropic thinking block or Ollama's thinking starts no call", () => {
    const tag = "<tool_call>{\"name\": \"x\"}</tool_call>";
    const runs: [string, Replay][] = [
      ["chat-completions", replay(TAGS, { events: [chat.delta({ reasoning_content: tag }), chat.delta({ refusal: tag }), chat.finish("stop")] })],
      ["gemini", replay({ dialect: "gemini", toolCallTags: true }, { events: [gemini.chunk([{ text: tag, thought: true }], "STOP")] })],
      ["anthropic", replay({ dialect: "anthropic", toolCallTags: true }, { events: [anthropic.start(),
        { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: tag } }, anthropic.stop(0), anthropic.messageDelta("end_turn"), anthropic.end()] })],
      ["ollama", replay({ dialect: "ollama", toolCallTags: true }, { events: [{ message: { role: "assistant", content: "", thinking: tag }, done: false }, ollama.done()] })],
    ];
    for (const [label, r] of runs) expect(r.result, label).toMatchObject({ calls: [], errors: [], text: "", toolTurn: false, status: "complete" });
  });

  l3("a tag call's errors carry its id call_<index>, its name when the content gave one, and the content as raw", () => {
    const rows: [string, ErrorCode, string | undefined][] = [
      ["{\"name\": \"d\", \"arguments\": [1]}", "not_an_object", "d"],
      ["{\"name\": \"d\", \"arguments\": 5}", "not_an_object", "d"],
      ["{\"name\": \"d\", \"arguments\": \"x\"}", "not_an_object", "d"],
      ["{\"name\": 5, \"arguments\": {}}", "missing_name", undefined],
      ["{\"name\": \"\", \"arguments\": {}}", "missing_name", undefined],
      ["\"just a string\"", "not_an_object", undefined],
      ["null", "not_an_object", undefined],
      ["{\"name\": \"d\", \"arguments\": {}", "invalid_json", undefined],
      ["", "invalid_json", undefined],
    ];
    for (const [content, code, name] of rows) {
      const r = replay(TAGS, { events: [chat.text(`a<tool_call>${content}</tool_call>b`), chat.finish("stop")] });
      expect(r.result.errors.map((e) => ({ code: e.code, callIndex: e.callIndex, id: e.id, name: e.name, raw: e.raw })), content)
        .toEqual([{ code, callIndex: 0, id: "call_0", name, raw: content }]);
      expect(r.result, content).toMatchObject({ text: "ab", calls: [], toolTurn: true });
    }
  });

  l3("tag calls and the dialect's own calls share maxCalls: a refused tool_use block, its deltas and stop, and a refused tag raise only the one too_many_calls", () => {
    const events = [anthropic.start(), anthropic.textBlock(0), anthropic.text(0, "<tool_call>{\"name\": \"a\"}</tool_call>"), anthropic.stop(0),
      anthropic.toolBlock(1, "toolu_1", "b"), anthropic.json(1, "{\"x\": 1}"), anthropic.stop(1), anthropic.toolBlock(2, "toolu_2", "c"), anthropic.json(2, "{"),
      anthropic.textBlock(3), anthropic.text(3, "x<tool_call>{\"name\": \"d\"}</tool_call>y"), anthropic.stop(3), anthropic.messageDelta("tool_use"), anthropic.end()];
    const r = replay({ dialect: "anthropic", toolCallTags: true, limits: { maxCalls: 1 } }, { events });
    expect(r.result.calls.map((c) => [c.index, c.id, c.name])).toEqual([[0, "call_0", "a"]]);
    expect(r.result.errors).toEqual([{ code: "too_many_calls", message: expect.any(String) }]);
    expect(r.steps[4].errors.map((e) => e.code)).toEqual(["too_many_calls"]);
    expect(r.result).toMatchObject({ text: "xy", status: "complete", toolTurn: true });
    const chatFirst = replay({ ...TAGS, limits: { maxCalls: 1 } }, { events: [...chatCall(0, "c", "f", ["{}"]), chat.text("x<tool_call>{\"name\": \"t\"}</tool_call>y"), chat.finish("tool_calls")] });
    expect(chatFirst.result.calls.map((c) => c.id)).toEqual(["c"]);
    expect(codes(chatFirst.result.errors)).toEqual(["too_many_calls"]);
    expect(chatFirst.result.text).toBe("xy");
  });

  l3("a tag's content of exactly maxArgumentBytes passes even with its closing tag cut; one byte less is arguments_too_large without raw", () => {
    for (const [label, content] of [["é", "{\"name\": \"é\"}"], ["an emoji", "{\"name\": \"😀\"}"], ["U+0800", "{\"name\": \"\u0800\"}"]] as const) {
      const bytes = utf8(content).length;
      const events = [chat.text(`<tool_call>${content}</tool_ca`), chat.text("ll>after"), chat.finish("stop")];
      const at = replay({ ...TAGS, limits: { maxArgumentBytes: bytes } }, { events });
      expect(at.result.calls.map((c) => [c.id, c.arguments]), label).toEqual([["call_0", {}]]);
      expect(at.result.errors, label).toEqual([]);
      const over = replay({ ...TAGS, limits: { maxArgumentBytes: bytes - 1 } }, { events });
      expect(over.result.errors.map((e) => [e.code, e.callIndex, e.id, e.raw]), label).toEqual([["arguments_too_large", 0, "call_0", undefined]]);
      expect(over.result, label).toMatchObject({ text: "after", calls: [] });
    }
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

  /** Characters at the edges of UTF-8's sizes, and how many bytes each takes. */
  const EDGES: [string, string, number][] = [
    ["U+007F", "\u007f", 1], ["U+0080", "\u0080", 2], ["U+07FF", "\u07ff", 2], ["U+0800", "\u0800", 3], ["U+FFFF", "\uffff", 3],
    ["U+10000", "\u{10000}", 4], ["U+10FFFF", "\u{10ffff}", 4], ["an emoji", "😀", 4], ["a CJK character", "北", 3], ["é", "é", 2],
  ];

  l3("maxArgumentBytes at each edge of UTF-8's sizes: argument text of exactly the limit is ready, one byte more fails in the fragment that passed it", () => {
    for (const [label, c, size] of EDGES) {
      const events = [...chatCall(0, "c", "f", [`{"a":"${c}`, c, `${c}"}`]), chat.finish("stop")];
      const bytes = 8 + 3 * size;
      const at = replay({ ...CHAT, limits: { maxArgumentBytes: bytes } }, { events });
      expect(at.result.calls.map((call) => call.arguments), label).toEqual([{ a: c.repeat(3) }]);
      expect(at.result.errors, label).toEqual([]);
      const over = replay({ ...CHAT, limits: { maxArgumentBytes: bytes - 1 } }, { events });
      expect(over.result.calls, label).toEqual([]);
      expect(over.steps[3].errors, label).toEqual([{ code: "arguments_too_large", message: expect.any(String), callIndex: 0, id: "c", name: "f" }]);
      expect(over.result.errors, label).toHaveLength(1);
    }
  });

  l3("a whole call's size is the UTF-8 bytes of JSON.stringify of its arguments: Gemini and Ollama calls at each edge pass at the limit, fail one byte under it", () => {
    for (const [label, c, size] of EDGES) {
      const args = { a: c.repeat(3) };
      const bytes = 8 + 3 * size;
      const streams = [["gemini", [gemini.chunk([gemini.call("f", args)], "STOP")]], ["ollama", [ollama.calls({ name: "f", arguments: args }), ollama.done()]]] as const;
      for (const [dialect, events] of streams) {
        const at = replay({ dialect, limits: { maxArgumentBytes: bytes } }, { events: [...events] });
        expect(at.result.calls.map((call) => call.rawArguments), `${dialect}, ${label}`).toEqual([JSON.stringify(args)]);
        const over = replay({ dialect, limits: { maxArgumentBytes: bytes - 1 } }, { events: [...events] });
        expect(over.result.errors.map((e) => [e.code, e.callIndex, e.id, e.raw]), `${dialect}, ${label}`).toEqual([["arguments_too_large", 0, "call_0", undefined]]);
        expect(over.result.calls, `${dialect}, ${label}`).toEqual([]);
      }
    }
    const none = [gemini.chunk([{ functionCall: { name: "now" } }], "STOP")];
    expect(replay({ dialect: "gemini", limits: { maxArgumentBytes: 2 } }, { events: none }).result.calls.map((c) => c.rawArguments)).toEqual(["{}"]);
    expect(codes(replay({ dialect: "gemini", limits: { maxArgumentBytes: 1 } }, { events: none }).result.errors)).toEqual(["arguments_too_large"]);
    const spaced = "{\"message\": {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": { \"k\" :  \"vv\" }}}]}, \"done\": false}\n";
    const raw = replay({ dialect: "ollama", limits: { maxArgumentBytes: 10 } }, { text: [spaced] });
    expect(raw.result.calls.map((c) => c.rawArguments), "an NDJSON line's own spacing does not count").toEqual(["{\"k\":\"vv\"}"]);
  });

  l3("maxArgumentBytes 1 is a limit like any other; past a limit, the call's later fragments and its end raise nothing, and the next call is read", () => {
    const one = { ...CHAT, limits: { maxArgumentBytes: 1 } };
    expect(replay(one, { events: [...chatCall(0, "c", "now", []), chat.finish("tool_calls")] }).result.calls.map((c) => [c.name, c.arguments])).toEqual([["now", {}]]);
    const braces = replay(one, { events: [...chatCall(0, "c", "now", ["{", "}"]), chat.finish("tool_calls")] });
    expect(braces.steps.map((s) => codes(s.errors))).toEqual([[], [], ["arguments_too_large"], []]);
    const events = [...chatCall(0, "a", "f", ["{\"s\":", "\"xyz", "w\"}", " ", "\n"]), ...chatCall(1, "b", "g", ["{\"t\": 1}"]), chat.finish("tool_calls")];
    const r = replay({ ...CHAT, limits: { maxArgumentBytes: 10 } }, { events });
    expect(r.steps.map((s) => codes(s.errors))).toEqual([[], [], [], ["arguments_too_large"], [], [], [], [], []]);
    expect(r.result.calls.map((c) => [c.index, c.id, c.arguments])).toEqual([[1, "b", { t: 1 }]]);
    expect(r.result.status).toBe("complete");
  });

  l3("exactly maxCalls calls all pass; one more gets the only too_many_calls, in the push of its first fragment, and refused calls raise nothing of their own", () => {
    const calls = (n: number) => Array.from({ length: n }, (_, i) => chatCall(i, `call_${i}`, "f", ["{}"])).flat();
    for (const max of [1, 3]) {
      const exact = replay({ ...CHAT, limits: { maxCalls: max } }, { events: [...calls(max), chat.finish("tool_calls")] });
      expect(exact.result.calls.map((c) => c.index), `${max} calls`).toEqual([...Array(max).keys()]);
      expect(exact.result.errors, `${max} calls`).toEqual([]);
      const refused = [chat.calls({ index: max, id: "x1", name: "broken", arguments: "{" }), chat.calls({ index: max, name: "other" }),
        chat.calls({ index: max + 1, id: "x2" }), chat.calls({ index: max + 1, arguments: "[]" })];
      const more = replay({ ...CHAT, limits: { maxCalls: max } }, { events: [...calls(max), ...refused, chat.finish("tool_calls")] });
      expect(more.result.calls.map((c) => c.index), `${max} calls, then refused ones`).toEqual([...Array(max).keys()]);
      expect(more.result.errors, `${max} calls, then refused ones`).toEqual([{ code: "too_many_calls", message: expect.any(String) }]);
      expect(more.steps[2 * max].errors.map((e) => e.code), `${max} calls, then refused ones`).toEqual(["too_many_calls"]);
      expect(more.result, `${max} calls, then refused ones`).toMatchObject({ toolTurn: true, status: "complete" });
    }
  });

  l3("Responses calls past maxCalls: their deltas and end events are neither out_of_order nor truncated", () => {
    const r = replay({ dialect: "responses", limits: { maxCalls: 1 } }, { events: [responses.callAdded("fc_1", "c1", "f"), responses.callAdded("fc_2", "c2", "g"),
      responses.delta("fc_2", "{\"b\": 2}"), responses.delta("fc_1", "{\"a\": 1}"), responses.argsDone("fc_2", "{\"b\": 2}"), responses.itemDone("fc_2", "c2", "g", "{\"b\": 2}"),
      responses.callAdded("fc_3", "c3", "h"), responses.delta("fc_3", "{"), responses.argsDone("fc_1", "{\"a\": 1}"), responses.completed()] });
    expect(r.result.calls.map(brief)).toEqual([{ id: "c1", name: "f", arguments: { a: 1 } }]);
    expect(r.result.errors).toEqual([{ code: "too_many_calls", message: expect.any(String) }]);
    expect(r.steps[1].errors.map((e) => e.code)).toEqual(["too_many_calls"]);
    expect(r.result.status).toBe("complete");
  });

  l3("an unreadable event fails every open call with lost_fragment in the order they started, after its bad_index or bad_event; their later events raise nothing", () => {
    const blocks = [anthropic.start(), anthropic.toolBlock(9, "t9", "a"), anthropic.toolBlock(2, "t2", "b"), anthropic.toolBlock(5, "t5", "c"), anthropic.json(2, "{}"), anthropic.stop(2)];
    const after = [anthropic.json(9, "{\"x\": 1}"), anthropic.json(5, "{}"), anthropic.stop(5), anthropic.stop(9), anthropic.messageDelta("tool_use"), anthropic.end()];
    const lost = [["lost_fragment", 0, "t9", "a"], ["lost_fragment", 2, "t5", "c"]];
    const about = (r: Replay) => r.result.errors.map((e) => [e.code, e.callIndex, e.id, e.name]);
    const badIndex = replay({ dialect: "anthropic" }, { events: [...blocks, { type: "content_block_delta", index: 1.5, delta: { type: "input_json_delta", partial_json: "1" } }, ...after] });
    expect(about(badIndex)).toEqual([["bad_index", undefined, undefined, undefined], ...lost]);
    expect(badIndex.result.calls.map((c) => c.id)).toEqual(["t2"]);
    expect(badIndex.result.status).toBe("complete");
    const text = `${sse(blocks, { names: true })}event: content_block_delta\ndata: {"type": "content_block_delta", oops\n\n${sse(after, { names: true })}`;
    const badData = replay({ dialect: "anthropic" }, { text: everyN(text, 9) });
    expect(about(badData)).toEqual([["bad_event", undefined, undefined, undefined], ...lost]);
    expect(badData.result.calls.map((c) => c.id)).toEqual(["t2"]);
    const items = replay({ dialect: "responses" }, { events: [responses.callAdded("fc_2", "c2", "g"), responses.callAdded("fc_1", "c1", "f"), responses.delta("fc_1", "{"),
      { type: "response.function_call_arguments.delta", item_id: "fc_2", output_index: 0, delta: 5 }, responses.delta("fc_1", "}"), responses.argsDone("fc_1", "{}"),
      responses.argsDone("fc_2", "{}"), responses.completed()] });
    expect(about(items)).toEqual([["bad_event", undefined, undefined, undefined], ["lost_fragment", 0, "c2", "g"], ["lost_fragment", 1, "c1", "f"]]);
    expect(items.result).toMatchObject({ calls: [], status: "complete" });
  });

  l3("indexes are keys, never sizes: 2^31, the largest safe integer and 7, in that order, as events and as raw bytes; each call's index is its start order", () => {
    const events = [...chatCall(2 ** 31, "a", "f", ["{}"]), ...chatCall(Number.MAX_SAFE_INTEGER, "b", "g", ["{\"x\": 1}"]), ...chatCall(7, "c", "h", ["{}"]),
      chat.calls({ index: 2 ** 31, arguments: " " }), chat.finish("tool_calls")];
    const bytes = utf8(sse(events));
    for (const [form, r] of [["events", replay(CHAT, { events })], ["bytes", replay(CHAT, { bytes: cutBytes(bytes, [...bytes.keys()].filter((i) => i % 7 === 3)) })]] as const) {
      expect(r.result.calls.map((c) => [c.index, c.id, c.arguments]), form).toEqual([[0, "a", {}], [1, "b", { x: 1 }], [2, "c", {}]]);
      expect(codes(r.result.errors), form).toEqual(["out_of_order"]);
    }
    const blocks = replay({ dialect: "anthropic" }, { text: everyN(sse([anthropic.start(), anthropic.toolBlock(1e9, "t1", "f"), anthropic.textBlock(0), anthropic.text(0, "hi"),
      anthropic.json(1e9, "{\"k\": 2}"), anthropic.stop(0), anthropic.stop(1e9), anthropic.messageDelta("tool_use"), anthropic.end()], { names: true }), 5) });
    expect(blocks.result.calls.map((c) => [c.index, c.id, c.arguments])).toEqual([[0, "t1", { k: 2 }]]);
    expect(blocks.result).toMatchObject({ text: "hi", errors: [], status: "complete" });
  });

  l3.property("no raw text or bytes make anything throw, in any dialect, with or without tags; any cut gives the same result, and the updates add up to it", () => {
    const token = fc.constantFrom("data: ", "data:", "event: error\n", "event: message\n", ": c\n", "\n", "\r", "\r\n", "\n\n", "\uFEFF", "[DONE]", "{", "}", "[", "]", "\"", ",", ":",
      "null", "5", "{\"choices\":[{\"delta\":", "{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}", "{\"content\":\"<tool_call>\"}",
      "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\"}}", "{\"candidates\":", "{\"message\":{\"content\":\"x\"}}",
      "{\"done\":true}", "\"finish_reason\":\"stop\"", "<tool_call>", "</tool_call>", "\ud83d", "😀", "北");
    const raw = fc.array(fc.oneof(token, fc.string({ maxLength: 3 })), { maxLength: 40 }).map((t) => t.join(""));
    const noise = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 8 }).map((b) => Uint8Array.from(b));
    fc.assert(fc.property(fc.constantFrom(...DIALECTS), fc.boolean(), raw, fc.array(fc.nat(), { maxLength: 6 }), noise, (dialect, toolCallTags, text, cuts, tail) => {
      const options = { dialect, toolCallTags };
      const bytes = concat(utf8(text), tail);
      const at = (size: number) => cuts.map((c) => c % (size + 1)).sort((x, y) => x - y);
      const runs = [
        [replay(options, { text: piecesAt(text, at(text.length)) }), replay(options, { text: [text] })],
        [replay(options, { bytes: piecesAt(bytes, at(bytes.length)) }), replay(options, { bytes: [bytes] })],
      ];
      for (const [cut, whole] of runs) {
        expect(withoutMessages(cut)).toEqual(withoutMessages(whole));
        expect(releasedText(cut)).toBe(cut.result.text);
        expect(releasedErrors(cut)).toEqual(cut.result.errors);
        expect(readyLog(cut).map(({ call }) => call)).toEqual(cut.result.calls);
        expect(cut.result.status).not.toBe("open");
      }
    }));
  });
});

describe("7. Limits and hostile streams", () => {
  l3("maxArgumentBytes is what TextEncoder writes for the whole text, whatever the cuts: pairs cut between fragments, lone surrogates beside other characters", () => {
    const texts = ["{\"clef\": \"𝄞𝄞\"}", "{\"a\": \"\udbff\"}", "{\"b\": \"x\ud834\"}", "{\"c\": \"\udd1e\u00e9\"}", "{\"d\": \"\u4e2d\udc01\udc01\"}", "{\"e\": \"🙂\ud83d\"}"];
    for (const text of texts) {
      const size = new TextEncoder().encode(text).length;
      const units = text.split("");
      const cutsOf = [units, [text.slice(0, 9), text.slice(9, 10), text.slice(10, 11), text.slice(11)], [text.slice(0, 10), text.slice(10)]];
      for (const pieces of cutsOf) {
        const label = `${JSON.stringify(pieces)}: ${size} bytes`;
        const result = (maxArgumentBytes: number) => replay({ ...CHAT, limits: { maxArgumentBytes } }, { events: [...chatCall(2, "call_u", "u", pieces.filter((p) => p !== "")), chat.finish("tool_calls")] }).result;
        expect(result(size).calls.map((c) => c.rawArguments), label).toEqual([text]);
        expect(codes(result(size - 1).errors), label).toEqual(["arguments_too_large"]);
      }
    }
  });

  l3("a refused call named again by its id or its index, after another refused call started, goes nowhere and raises nothing", () => {
    const r = replay({ ...CHAT, limits: { maxCalls: 2 } }, { events: [
      ...chatCall(4, "k4", "a", ["{}"]), ...chatCall(5, "k5", "b", ["{}"]), ...chatCall(6, "k6", "c", ["{}"]), ...chatCall(7, "k7", "d", ["{}"]),
      chat.calls({ index: 6, arguments: "1" }), chat.calls({ id: "k6", arguments: "2" }), chat.calls({ index: 7, id: "k7", arguments: "3" }),
      chat.calls({ index: 5, arguments: " " }),
      chat.finish("tool_calls"),
    ] });
    expect(r.result.calls.map((c) => c.id)).toEqual(["k4", "k5"]);
    expect(codes(r.result.errors)).toEqual(["too_many_calls", "out_of_order"]);
  });

  l3("data lines are joined with \\n: a number cut across two data lines is not one number", () => {
    const r = replay(CHAT, { text: [sse([chat.calls({ index: 0, id: "c", name: "f", arguments: "{" })]), `data: {"choices":[{"index":0,"delta":{"content":"x"}}],"n":1\ndata: 2}\n\n`] });
    expect(codes(r.result.errors)).toEqual(["bad_event", "lost_fragment"]);
    expect(r.result.text).toBe("");
  });

  l3("each error of each dialect and form, raised by other events than the visible specs', has a message that is not empty", () => {
    const open = (name: string) => chatCall(3, `call_${name}`, name, ["{\"q\": "]);
    const streams: [ErrorCode, AssemblerOptions, unknown[]][] = [
      ["out_of_order", CHAT, [chat.finish("tool_calls"), chat.calls({ index: 4, id: "late", name: "g", arguments: "{}" })]],
      ["bad_event", CHAT, [...open("a"), chat.delta({ tool_calls: ["x"] })]],
      ["bad_event", CHAT, [...open("b"), chat.delta({ tool_calls: [{ index: 3, function: [] }] })]],
      ["bad_index", CHAT, [...open("c"), chat.calls({ index: 2.5, arguments: "1" })]],
      ["bad_event", CHAT, [...open("d"), chat.delta({ tool_calls: [{ index: 3, id: [] }] })]],
      ["out_of_order", CHAT, [...chatCall(5, "x", "f", ["{}"]), ...chatCall(6, "y", "g", ["{}"]), chat.calls({ id: "x", arguments: "1" })]],
      ["bad_event", CHAT, [...open("e"), { choices: [{ index: 0, delta: 7 }] }]],
      ["bad_event", CHAT, [...open("f"), chat.delta({ tool_calls: "[]" })]],
      ["bad_event", CHAT, [...open("g"), "oops"]],
      ["server_error", CHAT, [...open("h"), { error: "rate limited" }]],
      ["truncated", CHAT, [...open("i"), chat.finish("content_filter")]],
      ["bad_event", CHAT, [{ choices: { 0: {} } }]],
      ["lost_fragment", CHAT, [...open("j"), { choices: [null] }]],
      ["out_of_order", CHAT, ["[DONE]", chat.text("late")]],
      ["too_many_calls", { ...CHAT, limits: { maxCalls: 2 } }, [...chatCall(0, "a", "f", ["{}"]), ...chatCall(1, "b", "g", ["{}"]), ...chatCall(2, "c", "h", ["{}"])]],
      ["name_changed", CHAT, [chat.calls({ index: 1, id: "n", name: "read" }), chat.calls({ index: 1, name: "write" })]],
      ["arguments_too_large", { ...CHAT, limits: { maxArgumentBytes: 5 } }, [...chatCall(0, "a", "f", ["{\"q\": \"long\"}"])]],
      ["missing_name", CHAT, [chat.calls({ index: 2, id: "m", arguments: "{\"a\": 1}" }), "[DONE]"]],
      ["invalid_json", CHAT, [...chatCall(0, "a", "f", ["{\"a\": tru"]), "[DONE]"]],
      ["not_an_object", CHAT, [...chatCall(0, "a", "f", ["\"Paris\""]), "[DONE]"]],
      ["out_of_order", { dialect: "gemini" }, [gemini.chunk([], "MAX_TOKENS"), gemini.chunk([gemini.call("late", {})])]],
      ["arguments_too_large", { dialect: "gemini", limits: { maxArgumentBytes: 8 } }, [gemini.chunk([gemini.call("f", { city: "Lyon" })])]],
      ["missing_name", { dialect: "gemini" }, [gemini.chunk([{ functionCall: { args: {} } }])]],
      ["not_an_object", { dialect: "gemini" }, [gemini.chunk([gemini.call("f", "x")])]],
      ["bad_event", { dialect: "gemini" }, [gemini.chunk(["text"])]],
      ["bad_event", { dialect: "gemini" }, [gemini.chunk([{ functionCall: [1] }])]],
      ["bad_event", { dialect: "gemini" }, [{ candidates: [{ content: "x" }] }]],
      ["bad_event", { dialect: "gemini" }, [{ candidates: [{ content: { parts: "x" } }] }]],
      ["bad_event", { dialect: "gemini" }, [[]]],
      ["server_error", { dialect: "gemini" }, [{ error: { message: "quota" } }]],
      ["bad_event", { dialect: "gemini" }, [{ candidates: "x" }]],
      ["bad_event", { dialect: "gemini" }, [{ candidates: [null] }]],
      ["bad_event", { dialect: "ollama" }, [{ message: { tool_calls: "x" } }]],
      ["bad_event", { dialect: "ollama" }, [{ message: { tool_calls: [{}] } }]],
      ["bad_event", { dialect: "ollama" }, ["line"]],
      ["server_error", { dialect: "ollama" }, [{ error: { message: "boom" } }]],
      ["bad_event", { dialect: "ollama" }, [{ message: [] }]],
      ["arguments_too_large", { dialect: "ollama", limits: { maxArgumentBytes: 3 } }, [ollama.calls({ name: "f", arguments: { a: 1 } })]],
      ["bad_index", { dialect: "anthropic" }, [anthropic.toolBlock(2, "t", "f"), anthropic.stop(-3)]],
      ["out_of_order", { dialect: "anthropic" }, [anthropic.stop(4)]],
      ["out_of_order", { dialect: "anthropic" }, [anthropic.textBlock(1), anthropic.stop(1), anthropic.text(1, "x")]],
      ["bad_index", { dialect: "anthropic" }, [{ type: "content_block_start", index: "2", content_block: { type: "text", text: "" } }]],
      ["out_of_order", { dialect: "anthropic" }, [anthropic.toolBlock(1, "t", "f"), anthropic.toolBlock(1, "u", "g")]],
      ["bad_event", { dialect: "anthropic" }, [{ type: "content_block_start", index: 1, content_block: null }]],
      ["bad_event", { dialect: "anthropic" }, [anthropic.toolBlock(1, "t", [] as never)]],
      ["bad_event", { dialect: "anthropic" }, [anthropic.toolBlock(1, "t", "f"), { type: "content_block_delta", index: 1, delta: "x" }]],
      ["bad_event", { dialect: "anthropic" }, [anthropic.toolBlock(1, "t", "f"), anthropic.json(1, null as never)]],
      ["bad_event", { dialect: "anthropic" }, [true]],
      ["out_of_order", { dialect: "anthropic" }, [anthropic.end(), anthropic.toolBlock(0, "t", "f")]],
      ["server_error", { dialect: "anthropic" }, [{ type: "error", error: { type: "api_error", message: "x" } }]],
      ["truncated", { dialect: "anthropic" }, [anthropic.toolBlock(3, "t", "f"), anthropic.json(3, "{"), anthropic.messageDelta("max_tokens"), anthropic.end()]],
      ["bad_event", { dialect: "responses" }, [{ type: "response.output_item.added", item: { type: "function_call", id: "fc", call_id: "c", name: 5 } }]],
      ["out_of_order", { dialect: "responses" }, [responses.callAdded("fc_2", "c", "f"), responses.argsDone("fc_2", "{}"), responses.callAdded("fc_2", "c", "f")]],
      ["bad_event", { dialect: "responses" }, [{ type: "response.function_call_arguments.done", item_id: [], arguments: "{}" }]],
      ["out_of_order", { dialect: "responses" }, [responses.argsDone("fc_7", "{}")]],
      ["bad_event", { dialect: "responses" }, [responses.callAdded("fc", "c", "f"), { type: "response.function_call_arguments.delta", item_id: "fc", delta: null }]],
      ["out_of_order", { dialect: "responses" }, [responses.callAdded("fc", "c", "f"), responses.itemDone("fc", "c", "f", "{}"), responses.delta("fc", "1")]],
      ["bad_event", { dialect: "responses" }, [responses.callAdded("fc", "c", "f"), { type: "response.output_item.done", item: { id: "fc", type: "function_call", arguments: {} } }]],
      ["bad_event", { dialect: "responses" }, [7]],
      ["out_of_order", { dialect: "responses" }, [responses.callAdded("fc", "c", "f"), responses.incomplete(), responses.argsDone("fc", "{}")]],
      ["bad_event", { dialect: "responses" }, [{ type: "response.output_item.done", item: "fc" }]],
      ["server_error", { dialect: "responses" }, [{ type: "response.failed", response: { error: { code: "x" } } }]],
      ["server_error", { dialect: "responses" }, [{ type: "error", message: "x" }]],
      ["arguments_mismatch", { dialect: "responses" }, [responses.callAdded("fc", "c", "f"), responses.delta("fc", "{}"), responses.itemDone("fc", "c", "f", "{\"b\": 1}")]],
    ];
    const tags: [ErrorCode, string][] = [["invalid_json", "{\"name\": "], ["not_an_object", "\"f\""], ["missing_name", "{\"name\": \"\"}"], ["not_an_object", "{\"name\": \"g\", \"arguments\": [1]}"]];
    const raw: [ErrorCode, AssemblerOptions, string][] = [
      ["server_error", { dialect: "anthropic" }, "event: error\ndata: {}\n\n"], ["bad_event", { dialect: "responses" }, "data: {\"type\"\n\n"],
      ["bad_event", { dialect: "ollama" }, "{\"done\": tru\n"],
    ];
    const runs: [string, ErrorCode, Replay][] = [
      ...streams.map(([code, options, events]): [string, ErrorCode, Replay] => [JSON.stringify(events.at(-1)), code, replay(options, { events })]),
      ...tags.map(([code, content]): [string, ErrorCode, Replay] => [content, code, replay({ dialect: "ollama", toolCallTags: true }, { events: [ollama.text(`${OPEN}${content}${CLOSE}`)] })]),
      ...raw.map(([code, options, text]): [string, ErrorCode, Replay] => [text, code, replay(options, { text: everyN(text, 3) })]),
    ];
    expectErrorsWithMessages(runs);
  });

  l3("each StreamUsageError, raised by other misuses than the visible specs', has a message that is not empty", () => {
    const ended = (a: Assembler) => {
      a.end();
      return a;
    };
    const misuses: [string, () => unknown][] = [
      ["a maxCalls of 1.5", () => createAssembler({ ...CHAT, limits: { maxCalls: 1.5 } })],
      ["a dialect of null", () => createAssembler({ dialect: null as never })],
      ["toolCallTags \"false\"", () => createAssembler({ ...CHAT, toolCallTags: "false" as never })],
      ["pushText after end()", () => ended(createAssembler(CHAT)).pushText("x")],
      ["push after pushText", () => { const a = createAssembler(CHAT); a.pushText("data: x"); return a.push({}); }],
      ["pushText of null", () => createAssembler(CHAT).pushText(null as never)],
      ["pushBytes of an array", () => createAssembler(CHAT).pushBytes([1, 2] as never)],
      ["end() twice after a push", () => { const a = createAssembler(CHAT); a.push(chat.text("x")); a.end(); return a.end(); }],
      ["a replay input with no form", () => replay(CHAT, { lines: [] } as never)],
    ];
    expectUsageErrorsWithMessages(misuses);
  });
});

describe("7. Limits and hostile streams", () => {
  // The public API: a wrong use throws StreamUsageError, and only a wrong use.
  l3("options that are not an object, and a dialect that is not one of the five, throw in createAssembler and in replay", () => {
    const rows: [string, unknown][] = [
      ["undefined", undefined], ["a dialect's name alone", "chat-completions"], ["a number", 42], ["true", true], ["an array", ["chat-completions"]],
      ["no dialect", {}], ["dialect null", { dialect: null }], ["Chat-Completions", { dialect: "Chat-Completions" }], ["an empty dialect", { dialect: "" }],
      ["openai-chat", { dialect: "openai-chat" }], ["constructor", { dialect: "constructor" }], ["toString", { dialect: "toString" }],
      ["__proto__", { dialect: "__proto__" }], ["hasOwnProperty", { dialect: "hasOwnProperty" }], ["a dialect that is not a string", { dialect: 1 }],
    ];
    for (const [label, options] of rows) {
      expectUsageError(() => createAssembler(options as AssemblerOptions), `createAssembler, ${label}`);
      expectUsageError(() => replay(options as AssemblerOptions, { events: [] }), `replay, ${label}`);
    }
    for (const dialect of DIALECTS) expect(createAssembler({ dialect }).result().status, dialect).toBe("open");
  });

  l3("toolCallTags must be a boolean when given: 1, 0, \"true\", {} and [] throw; false and leaving it out keep a tag as text", () => {
    for (const toolCallTags of [1, 0, "true", "false", {}, []]) {
      expectUsageError(() => createAssembler({ ...CHAT, toolCallTags } as never), `toolCallTags ${JSON.stringify(toolCallTags)}`);
    }
    const tag = "<tool_call>{\"name\": \"a\"}</tool_call>";
    for (const [label, options] of [["false", { ...CHAT, toolCallTags: false }], ["left out", CHAT]] as const) {
      expect(replay(options, { events: [chat.text(tag), chat.finish("stop")] }).result, label).toMatchObject({ text: tag, calls: [], toolTurn: false });
    }
    expect(replay({ ...CHAT, toolCallTags: true }, { events: [chat.text(tag), chat.finish("stop")] }).result.calls.map((c) => c.name)).toEqual(["a"]);
  });

  l3("each limit must be an integer of 1 or more: 0, -0, -1, 0.5, 1.5, \"2\", NaN, Infinity, true and {} throw for either; 1 and the largest safe integer do not", () => {
    for (const key of ["maxCalls", "maxArgumentBytes"] as const) {
      for (const value of [0, -0, -1, 0.5, 1.5, "2", NaN, Infinity, -Infinity, true, {}]) {
        expectUsageError(() => createAssembler({ ...CHAT, limits: { [key]: value } as never }), `${key} ${String(value)}`);
        expectUsageError(() => replay({ ...CHAT, limits: { [key]: value } as never }, { events: [] }), `replay, ${key} ${String(value)}`);
      }
      for (const value of [1, 2, Number.MAX_SAFE_INTEGER]) expect(() => createAssembler({ ...CHAT, limits: { [key]: value } }), `${key} ${value}`).not.toThrow();
    }
    expectUsageError(() => createAssembler({ ...CHAT, limits: { maxCalls: 2, maxArgumentBytes: 0 } }), "a good maxCalls beside a bad maxArgumentBytes");
    expectUsageError(() => createAssembler({ ...CHAT, limits: { maxCalls: 2.5, maxArgumentBytes: 100 } }), "a bad maxCalls beside a good maxArgumentBytes");
  });

  l3("a limit left out or undefined takes its default beside one that is given: 128 calls, exactly 1,048,576 bytes", () => {
    const big = (bytes: number) => [...chatCall(0, "c", "f", [`{"a":"${"x".repeat(bytes - 8)}"}`]), chat.finish("stop")];
    const rows: [string, AssemblerOptions][] = [
      ["no limits", CHAT], ["limits {}", { ...CHAT, limits: {} }], ["only maxCalls", { ...CHAT, limits: { maxCalls: 5 } }],
      ["maxArgumentBytes undefined", { ...CHAT, limits: { maxCalls: 5, maxArgumentBytes: undefined } }],
    ];
    for (const [label, options] of rows) {
      expect(replay(options, { events: big(1_048_576) }).result.calls.map((c) => c.rawArguments.length), label).toEqual([1_048_576]);
      expect(codes(replay(options, { events: big(1_048_577) }).result.errors), label).toEqual(["arguments_too_large"]);
    }
    const many = Array.from({ length: 129 }, (_, i) => chat.calls({ index: i, id: `c${i}`, name: "f", arguments: "{}" }));
    const calls = replay({ ...CHAT, limits: { maxArgumentBytes: 64 } }, { events: [...many, chat.finish("tool_calls")] });
    expect(calls.result.calls).toHaveLength(128);
    expect(codes(calls.result.errors)).toEqual(["too_many_calls"]);
    expect(calls.steps[128].errors.map((e) => e.code)).toEqual(["too_many_calls"]);
  });

  l3("a limits value that is not an object of limits makes nothing throw but StreamUsageError", () => {
    for (const limits of [null, 5, "x", [], true]) {
      let outcome: unknown;
      try {
        outcome = replay({ ...CHAT, limits } as never, { events: [chat.text("hi")] }).result.text;
      } catch (error) {
        outcome = error;
      }
      if (typeof outcome === "string") expect(outcome, `limits ${JSON.stringify(limits)}`).toBe("hi");
      else expect(outcome, `limits ${JSON.stringify(limits)}`).toBeInstanceOf(StreamUsageError);
    }
  });

  l3("replay's input must have exactly one of events, text and bytes, as an array", () => {
    const rows: [string, unknown][] = [
      ["null", null], ["undefined", undefined], ["a number", 5], ["a string", "data: [DONE]\n\n"], ["an array of events", [chat.text("x")]],
      ["a misspelled form", { event: [] }], ["events a string", { events: "x" }], ["events null", { events: null }], ["text a string", { text: "data: x\n\n" }],
      ["bytes one Uint8Array", { bytes: utf8("data: x\n\n") }], ["events an array-like object", { events: { 0: chat.text("x"), length: 1 } }],
      ["text and bytes", { text: [], bytes: [] }], ["events and bytes", { events: [], bytes: [] }], ["all three", { events: [], text: [], bytes: [] }],
    ];
    for (const [label, input] of rows) expectUsageError(() => replay(CHAT, input as never), label);
    for (const input of [{ events: [] }, { text: [] }, { bytes: [] }]) expect(replay(CHAT, input).result.status, Object.keys(input)[0]).toBe("cut");
  });

  l3("the first push chooses the form: each other form throws after it; after end() every push and a second end() throw", () => {
    const pushes: Record<"events" | "text" | "bytes", (a: Assembler) => unknown> = {
      events: (a) => a.push(chat.text("x")),
      text: (a) => a.pushText(textEvent("x")),
      bytes: (a) => a.pushBytes(utf8(textEvent("x"))),
    };
    const forms = ["events", "text", "bytes"] as const;
    for (const first of forms) {
      for (const other of forms) {
        const a = createAssembler(CHAT);
        pushes[first](a);
        if (other === first) expect(() => pushes[other](a), `${other} after ${first}`).not.toThrow();
        else expectUsageError(() => pushes[other](a), `${other} after ${first}`);
        a.end();
        expectUsageError(() => pushes[other](a), `${other} after ${first} and end()`);
        expectUsageError(() => a.end(), `end() again after ${first}`);
      }
    }
    for (const form of forms) {
      const fresh = createAssembler(CHAT);
      expect(fresh.end(), `end() with no push, then ${form}`).toEqual(EMPTY);
      expectUsageError(() => pushes[form](fresh), `${form} after an end() with no push`);
      expectUsageError(() => fresh.end(), `a second end() with no push, after ${form}`);
    }
  });

  l3("pushText takes only strings and pushBytes only Uint8Arrays; an empty one of each is no misuse, and push takes any JSON value", () => {
    const notText: [string, unknown][] = [["null", null], ["undefined", undefined], ["a number", 7], ["bytes", utf8("x")], ["an array", ["data: x"]], ["an object", {}]];
    for (const [label, chunk] of notText) expectUsageError(() => createAssembler(CHAT).pushText(chunk as never), `pushText of ${label}`);
    const notBytes: [string, unknown][] = [["null", null], ["a string", "data"], ["an array of numbers", [100, 97]], ["an ArrayBuffer", new ArrayBuffer(2)],
      ["a Uint8ClampedArray", new Uint8ClampedArray(2)], ["an Int8Array", new Int8Array(2)], ["a Uint16Array", new Uint16Array(1)], ["a DataView", new DataView(new ArrayBuffer(2))]];
    for (const [label, chunk] of notBytes) expectUsageError(() => createAssembler(CHAT).pushBytes(chunk as never), `pushBytes of ${label}`);
    const text = createAssembler(CHAT);
    expect(text.pushText("")).toEqual(EMPTY);
    expect(text.pushText(textEvent("ok")).text).toBe("ok");
    const bytes = createAssembler(CHAT);
    expect(bytes.pushBytes(new Uint8Array(0))).toEqual(EMPTY);
    expect(bytes.pushBytes(utf8(textEvent("ok"))).text).toBe("ok");
    for (const dialect of DIALECTS) {
      for (const event of [42, null, "x", [], {}, true, 1.5, "[DONE]"]) expect(() => createAssembler({ dialect }).push(event), `${dialect}: ${JSON.stringify(event)}`).not.toThrow();
    }
  });
});
