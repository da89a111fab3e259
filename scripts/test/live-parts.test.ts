// The pieces of live mode on their own: the calculator, the sandbox, the reply parser, the
// base URL, the replay's difference finder, the thinking splitter, kata 4's framing and chunks.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { evaluateArithmetic } from "../lib/live/arith.ts";
import { normaliseBaseUrl, parseChatReply } from "../lib/live/client.ts";
import { LiveError } from "../lib/live/errors.ts";
import { splitThinking } from "../lib/live/kata1.ts";
import { chunkBytes, chunkLine, createRecorder, firstDifference, recordingTransport, RECORDING_FORMAT, RECORDING_VERSION } from "../lib/live/recording.ts";
import { createSseReader } from "../lib/live/sse.ts";
import { calculator, DEFAULT_SANDBOX, readSandboxFile, weatherLookup } from "../lib/live/tools.ts";

describe("the demo calculator", () => {
  test("precedence, associativity, unary minus, decimals", () => {
    expect(evaluateArithmetic("(17.5 * 4) + 3")).toBe(73);
    expect(evaluateArithmetic("2 ** 3 ** 2")).toBe(512);
    expect(evaluateArithmetic("-2 ** 2")).toBe(-4);
    expect(evaluateArithmetic("10 - 4 - 3")).toBe(3);
    expect(evaluateArithmetic("-7 % 3")).toBe(-1);
    expect(evaluateArithmetic(".5 + 1.")).toBe(1.5);
  });
  test("anything but arithmetic is refused, never evaluated", () => {
    for (const bad of ["", "x", "Math.PI", "constructor", "1e3", "+1", "2 ^ 3", "1,2", "alert(1)", "(1"]) {
      expect(() => evaluateArithmetic(bad), bad).toThrow(SyntaxError);
    }
    expect(() => evaluateArithmetic("1 / (1 - 1)")).toThrow(RangeError);
    expect(() => evaluateArithmetic("10 ** 400")).toThrow(RangeError);
    expect(() => evaluateArithmetic("(".repeat(200) + "1" + ")".repeat(200))).toThrow(/nesting/);
    expect(() => calculator(42)).toThrow(TypeError);
  });
});

describe("the sandbox of read_file", () => {
  const outside = mkdtempSync(join(tmpdir(), "tuk-sandbox-"));
  const box = join(outside, "box");
  mkdirSync(join(box, "sub"), { recursive: true });
  writeFileSync(join(box, "a.txt"), "inside");
  writeFileSync(join(box, "sub", "b.txt"), "deeper");
  writeFileSync(join(box, ".hidden"), "no");
  writeFileSync(join(outside, "secret.txt"), "outside");
  symlinkSync(join(outside, "secret.txt"), join(box, "link.txt"));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  test("reads files and lists folders inside it", () => {
    expect(readSandboxFile(box, "a.txt")).toEqual({ path: "a.txt", content: "inside" });
    expect(readSandboxFile(box, "./sub/b.txt").content).toBe("deeper");
    expect(readSandboxFile(box, "").files).toEqual(["a.txt", "sub/b.txt"]); // symlinks are not listed
    expect(readSandboxFile(box, "sub").files).toEqual(["sub/b.txt"]);
    expect(readSandboxFile(DEFAULT_SANDBOX, "notes.txt").content).toContain("offsite");
  });
  test("refuses every way out: .., absolute paths, drives, home, hidden files, symlinks that point outside", () => {
    for (const path of ["../secret.txt", "sub/../../secret.txt", "/etc/passwd", "C:\\Windows\\win.ini", "~/x", ".hidden", "link.txt", "..\\secret.txt"]) {
      expect(() => readSandboxFile(box, path), path).toThrow(/refused|leaves|outside/);
    }
    expect(() => readSandboxFile(box, "missing.txt")).toThrow(/no file/);
    expect(() => readSandboxFile(box, 3)).toThrow(TypeError);
  });
});

describe("the canned weather", () => {
  test("knows cities by English and Chinese name, and says which it knows", () => {
    expect(weatherLookup("北京")).toMatchObject({ city: "Beijing", date: "today" });
    expect(weatherLookup(" new york ", "tomorrow")).toMatchObject({ city: "New York", date: "tomorrow" });
    expect(() => weatherLookup("Atlantis")).toThrow(/known cities: Beijing/);
  });
});

describe("reading a chat completion", () => {
  const parse = (json: unknown) => parseChatReply(JSON.stringify(json), "http://x/v1/chat/completions");
  test("content, tool calls, usage; tolerant of the variants servers send", () => {
    const reply = parse({
      choices: [{ message: { content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: { x: 1 } } }, null, { function: {} }] }, finish_reason: "tool_calls" }],
      usage: { prompt_tokens: 7, completion_tokens: -1 },
    });
    expect(reply).toEqual({ content: "ab", toolCalls: [{ id: "1", name: "f", arguments: { x: 1 } }, { id: undefined, name: "", arguments: undefined }], usage: { input_tokens: 7, output_tokens: 0 }, finishReason: "tool_calls" });
    expect(parse({ choices: [{ message: { content: null, function_call: { name: "g", arguments: "{}" } } }] }).toolCalls).toEqual([{ name: "g", arguments: "{}" }]);
  });
  test("not JSON, or JSON that is not a completion: a malformed-reply error", () => {
    const kind = (text: string) => {
      try {
        parseChatReply(text, "u");
      } catch (error) {
        return (error as LiveError).kind;
      }
      return "no error";
    };
    expect(kind("data: {\"choices\":[]}\n\n")).toBe("malformed");
    expect(kind('{"choices":[]}')).toBe("malformed");
    expect(kind('{"error":"x"}')).toBe("malformed");
  });
  test("base URLs: trailing slashes and a full endpoint are trimmed to the API root", () => {
    expect(normaliseBaseUrl("http://127.0.0.1:11434/v1/")).toBe("http://127.0.0.1:11434/v1");
    expect(normaliseBaseUrl("http://localhost:8000/v1/chat/completions")).toBe("http://localhost:8000/v1");
    expect(() => normaliseBaseUrl("localhost:11434")).toThrow();
  });
});

describe("small helpers", () => {
  test("firstDifference names the path and both values", () => {
    expect(firstDifference({ a: [1, { b: "x" }] }, { a: [1, { b: "y" }] }, "")).toBe('a[1].b: recorded "x", now "y"');
    expect(firstDifference({ a: 1, u: undefined }, { a: 1 }, "")).toBeUndefined();
    expect(firstDifference([1], [1, 2], "body")).toBe("body[1]: recorded nothing, now 2");
  });
  test("splitThinking keeps only the answer of a reasoning model", () => {
    expect(splitThinking("<think>maybe f(x)?</think>\nThe answer.")).toEqual({ thinking: "maybe f(x)?", answer: "The answer." });
    expect(splitThinking("no thinking")).toEqual({ thinking: "", answer: "no thinking" });
    expect(splitThinking("<think>cut off")).toEqual({ thinking: "cut off", answer: "" });
  });
});

describe("the recorder", () => {
  const meta = {
    type: "meta", format: RECORDING_FORMAT, version: RECORDING_VERSION, kata: 3, model: "m", baseUrl: "http://127.0.0.1:1/v1", impl: "solutions", runId: "run_x",
    settings: { prompt: "p", maxSteps: 8, toolChoice: "auto", sandbox: null, temperature: null },
  } as const;
  const types = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).type);

  test("a closed recording is never written again, even once its file is gone", () => {
    const dir = mkdtempSync(join(tmpdir(), "tuk-recorder-"));
    const file = join(dir, "r.jsonl");
    const recorder = createRecorder(file, meta);
    recorder.write({ type: "end", status: "aborted", steps: 1 });
    recorder.close();
    recorder.write({ type: "approval", seq: 1, name: "send_email", arguments: {}, approved: false, interrupted: true });
    expect(types(file)).toEqual(["meta", "end"]);
    rmSync(dir, { recursive: true, force: true });
    expect(() => recorder.write({ type: "interrupt", requests: 0 })).not.toThrow();
  });

  test("a request cut short by Ctrl-C is written as interrupted at once, and not again when it settles", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tuk-recorder-"));
    const file = join(dir, "r.jsonl");
    const recorder = createRecorder(file, meta);
    let finish!: () => void;
    const transport = recordingTransport(() => new Promise((_, reject) => (finish = () => reject(new LiveError("timeout", "late")))), recorder);
    const stop = new AbortController();
    const pending = transport({ method: "POST", url: "http://127.0.0.1:1/v1/chat/completions", body: {} }, stop.signal);
    stop.abort();
    expect(types(file)).toEqual(["meta", "request", "failure"]);
    expect(JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n")[2])).toMatchObject({ seq: 1, kind: "interrupted" });
    finish();
    await expect(pending).rejects.toThrow("late");
    expect(types(file)).toEqual(["meta", "request", "failure"]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("kata 4: live mode's own framing (--feed events) and the recorded chunks", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const read = (chunks: Uint8Array[]) => {
    const reader = createSseReader();
    return [...chunks.flatMap((c) => reader.push(c)), ...reader.end()];
  };
  const STREAM =
    "\uFEFF: OPENROUTER PROCESSING\r\n\r\n" +
    'event: message\nid: 7\nretry: 3000\ndata: {"choices":[{"delta":{"content":"北京 😀"}}]}\n\n' +
    'data: {"a":\r\ndata: 1}\r\rdata:\n\ndata: not json\n\nevent: error\ndata: overloaded\n\n' +
    "data:   [DONE] \n\n";
  const EVENTS = [{ choices: [{ delta: { content: "北京 😀" } }] }, { a: 1 }, "not json", { error: "overloaded" }, "[DONE]"];

  test("server-sent events as kata 4's README reads them: comments, fields, line ends, [DONE], an error event, data that is not JSON", () => {
    expect(read([bytes(STREAM)])).toEqual(EVENTS);
  });
  test("cut anywhere, even inside a \\r\\n or a UTF-8 character, the same events", () => {
    const whole = bytes(STREAM);
    for (let at = 1; at < whole.length; at++) {
      expect(read([whole.subarray(0, at), whole.subarray(at)]), `cut at byte ${at}`).toEqual(EVENTS);
    }
    expect(read([...whole].map((b) => new Uint8Array([b])))).toEqual(EVENTS);
  });
  test("at the end, what is pending is read as if a blank line ended it; a piece of an event cut off is dropped", () => {
    expect(read([bytes("data: [DONE]")])).toEqual(["[DONE]"]);
    expect(read([bytes('data: {"x": 1}\r\n')])).toEqual([{ x: 1 }]);
    expect(read([bytes('data: {"choices":[{"index":0,"delta":{"tool_ca')])).toEqual([]);
  });
  test("a recorded chunk is text when it is whole UTF-8, else base64, and gives back the same bytes", () => {
    const whole = bytes("data: 北京\n");
    expect(chunkLine(whole)).toEqual({ text: "data: 北京\n" });
    const cut = whole.subarray(0, 7);
    expect(chunkLine(cut)).toEqual({ base64: Buffer.from(cut).toString("base64") });
    for (const piece of [whole, cut, whole.subarray(7), new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), new Uint8Array(0)]) {
      expect([...chunkBytes(chunkLine(piece))]).toEqual([...piece]);
    }
  });
});
