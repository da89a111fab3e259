// Kata 4's live mode end to end: the loopback fake server streams server-sent events cut at
// awkward places (inside a line, inside `data:`, inside a UTF-8 character), and the command feeds
// them to the chosen assembler as they arrive. A gate the test opens holds the stream where the
// first call's arguments are complete but its end is not yet certain: no call may be shown ready
// there. Nothing here contacts another host.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { main, type LiveIO } from "../lib/live/main.ts";
import {
  byteOffset, callFragment, chatChunk, pieces, sse, startFakeServer, streamed,
  type FakeServer, type ScriptEntry, type StreamPiece,
} from "./fixtures/live/fake-server.ts";

interface Run {
  code: number;
  /** stdout as the terminal shows it: whole lines and the text written as it streamed, in order. */
  stdout: string;
  stderr: string;
}

/** Runs the command; `log` (shared with the test, which may add its own markers) receives stdout as it is written. */
async function live(argv: string[], extra: Partial<LiveIO> = {}, log: string[] = []): Promise<Run> {
  const err: string[] = [];
  const io: LiveIO = {
    out: (line) => log.push(line + "\n"),
    write: (text) => log.push(text),
    err: (line) => err.push(line),
    env: {},
    cwd: PROJECT_ROOT,
    ...extra,
  };
  const code = await main(argv, io);
  return { code, stdout: log.join(""), stderr: err.join("\n") };
}

let tmp: string;
let servers: FakeServer[] = [];
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "tuk-live-stream-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function server(script: ScriptEntry[]): Promise<FakeServer> {
  const s = await startFakeServer(script);
  servers.push(s);
  return s;
}
const args = (s: FakeServer, ...rest: string[]) => ["--kata", "4", "--base-url", s.baseUrl, "--model", "fake-model", "--impl", "solutions", ...rest];
const noNetwork = (() => {
  throw new Error("replay must not use the network");
}) as unknown as typeof fetch;

/**
 * A fetch that lets the test see how far the command has read a streamed body: `processed(n)`
 * resolves when the command asks for more after it was given n bytes, that is, once it has
 * handled all n (it reads the next chunk only after the last one went through its assembler).
 */
function watchedFetch() {
  let given = 0;
  /** What the command had been given when it last asked for more. */
  let asked = -1;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (!response.body || !response.headers.get("content-type")?.includes("event-stream")) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          asked = given;
          for (const w of waiters.filter((w) => asked >= w.n)) w.resolve();
          const next = await reader.read();
          if (next.done) return controller.close();
          given += next.value.length;
          controller.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return { status: response.status, headers: response.headers, body, text: () => response.text() } as unknown as Response;
  }) as typeof fetch;
  return {
    fetch: fetchFn,
    processed: (n: number) => new Promise<void>((resolve) => (asked >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

// The first reply: text with Chinese in it, two calls in fragments, the finish, a usage chunk, [DONE].
const FIRST = sse([
  chatChunk({ role: "assistant", content: "Let me check 北京 " }),
  chatChunk({ content: "and the sum.\nOne moment 😀." }),
  callFragment(0, "", { id: "call_a", name: "get_weather" }),
  callFragment(0, '{"city": "北'),
  callFragment(0, '京"}'),
  callFragment(1, '{"expression": ', { id: "call_b", name: "calculate" }),
  callFragment(1, '"(17.5 * 4) + 3"}'),
  chatChunk({}, "tool_calls"),
  { id: "chatcmpl-test", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 31, completion_tokens: 17, total_tokens: 48 } },
  "[DONE]",
]);
// Gate A: inside the 北 of call_a's arguments (a UTF-8 character cut in two, and the arguments not
// complete yet). Gate B: call_a's arguments are complete and parse, and the next line (call_b's
// start, the only thing that can end call_a) is cut inside its `data:`.
const AT_A = byteOffset(FIRST, "北", byteOffset(FIRST, '{\\"city\\"')) + 1;
const AT_B = Buffer.from(FIRST).lastIndexOf("data: ", byteOffset(FIRST, '"id":"call_b"')) + 3;
// Gate C: call_b has started (so call_a is ready) and its arguments are complete; the finish, cut
// inside its `data:`, has not come.
const AT_C = Buffer.from(FIRST).lastIndexOf("data: ", byteOffset(FIRST, '"finish_reason":"tool_calls"')) + 2;
const SECOND = sse([chatChunk({ content: "Beijing is sunny at 3 °C; " }), chatChunk({ content: "(17.5 * 4) + 3 = 73." }), chatChunk({}, "stop"), "[DONE]"]);

const READY_A = '[ready] call_a get_weather {"city":"北京"}';
const READY_B = '[ready] call_b calculate {"expression":"(17.5 * 4) + 3"}';
const MARK_A = "<test: gate A opens>\n";
const MARK_B = "<test: gate B opens>\n";
const MARK_C = "<test: gate C opens>\n";

/** The gated conversation: waits at each gate until the command has handled everything before it, marks the log, opens it. */
async function gatedRun(impl: string, ...rest: string[]) {
  const a = gate();
  const b = gate();
  const c = gate();
  const gates = [{ at: AT_A, gate: a.promise }, { at: AT_B, gate: b.promise }, { at: AT_C, gate: c.promise }];
  const s = await server([streamed(pieces(FIRST, 9, gates)), streamed(pieces(SECOND, 7))]);
  const watched = watchedFetch();
  const log: string[] = [];
  const running = live(["--kata", "4", "--base-url", s.baseUrl, "--model", "fake-model", "--impl", impl, ...rest], { fetch: watched.fetch }, log);
  await watched.processed(AT_A);
  log.push(MARK_A);
  a.open();
  await watched.processed(AT_B);
  const atB = log.join("");
  log.push(MARK_B);
  b.open();
  await watched.processed(AT_C);
  const atC = log.join("");
  log.push(MARK_C);
  c.open();
  const run = await running;
  return { run, s, atB, atC, transcript: [MARK_A, MARK_B, MARK_C].reduce((text, mark) => text.replace(mark, ""), run.stdout) };
}

describe("kata 4: the reference assembler reads a real stream", () => {
  test("text as it comes, each call ready only once its end is certain, with its arguments; then the tools, the next reply, the summary", async () => {
    const { run, s, atB, atC, transcript } = await gatedRun("solutions");
    expect(run.code, run.stderr).toBe(0);
    // At gate B call_a's arguments are complete and parse, and still nothing is ready: its end is not certain.
    expect(atB).toContain("[assistant] Let me check 北京 and the sum.\n    One moment 😀.");
    expect(atB).not.toContain("[ready]");
    expect(run.stdout.indexOf(READY_A)).toBeGreaterThan(run.stdout.indexOf(MARK_B));
    // At gate C call_b has started: call_a is shown ready at once, with its arguments; call_b,
    // complete too, waits for the finish.
    expect(atC).toContain(READY_A);
    expect(atC).not.toContain("[ready] call_b");
    expect(run.stdout.indexOf(READY_B)).toBeGreaterThan(run.stdout.indexOf(MARK_C));
    // call_a is ready where call_b starts, call_b at the finish: in that order, each exactly once.
    expect(run.stdout.split("[ready]")).toHaveLength(3);
    expect(run.stdout.indexOf(READY_B)).toBeGreaterThan(run.stdout.indexOf(READY_A));
    expect(transcript).toMatch(/\[ready\] call_a get_weather \{"city":"北京"\} · chunk \d+\n\[ready\] call_b calculate \{"expression":"\(17\.5 \* 4\) \+ 3"\} · chunk \d+\n/);
    expect(transcript).toContain("[stream] complete · finish tool_calls · 2 ready · 0 error(s) · tool turn · usage 31 in, 17 out");
    // The ready calls ran, and their results went back.
    expect(transcript).toContain('[tool get_weather · call_a] {"ok":true,"data":{"city":"Beijing"');
    expect(transcript).toContain('[tool calculate · call_b] {"ok":true,"data":{"expression":"(17.5 * 4) + 3","value":73}}');
    expect(transcript).toContain("[assistant] Beijing is sunny at 3 °C; (17.5 * 4) + 3 = 73.\n[stream] complete · finish stop · 0 ready");
    expect(transcript.trimEnd().split("\n").at(-1)).toBe("== completed after 2 step(s) · tokens 31 in + 17 out");

    const [first, second] = s.requests;
    expect(first.body).toMatchObject({ model: "fake-model", stream: true, tool_choice: "auto" });
    expect(first.body.tools.map((t: any) => t.function.name)).toEqual(["get_weather", "calculate", "read_file", "send_email"]);
    expect(second.body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Let me check 北京 and the sum.\nOne moment 😀.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city": "北京"}' } },
          { id: "call_b", type: "function", function: { name: "calculate", arguments: '{"expression": "(17.5 * 4) + 3"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: expect.stringContaining('"condition":"sunny"') },
      { role: "tool", tool_call_id: "call_b", content: '{"ok":true,"data":{"expression":"(17.5 * 4) + 3","value":73}}' },
    ]);
  });

  test("the gate catches an assembler that readies a call as soon as its arguments parse", async () => {
    // A deliberately wrong assembler: it reads these server-sent events and readies a call the
    // moment its arguments make JSON, the bug the kata is about.
    const root = join(tmp, "eager");
    mkdirSync(join(root, "04-stream-assembly"), { recursive: true });
    writeFileSync(join(root, "04-stream-assembly", "index.ts"), EAGER_ASSEMBLER);
    const { run, atB } = await gatedRun(root);
    expect(run.code, run.stderr).toBe(0);
    expect(atB).toContain(READY_A);
    expect(run.stdout.indexOf(READY_A)).toBeLessThan(run.stdout.indexOf(MARK_B));
  });

  test("a call cut off by finish_reason length is truncated, never ready, though its arguments parse", async () => {
    const body = sse([
      callFragment(0, '{"city": "Tokyo"}', { id: "call_1", name: "get_weather" }),
      callFragment(1, '{"path": "notes.txt"}', { id: "call_2", name: "read_file" }),
      chatChunk({}, "length"),
      "[DONE]",
    ]);
    const s = await server([streamed(pieces(body, 13))]);
    const run = await live(args(s));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[ready\] call_1 get_weather \{"city":"Tokyo"\} · chunk \d+\n/);
    expect(run.stdout).not.toContain("[ready] call_2");
    expect(run.stdout).toMatch(/\[error\] truncated · call 1 call_2 read_file · .* · raw \{"path": "notes\.txt"\} · chunk \d+\n/);
    expect(run.stdout).toContain("[stream] incomplete · finish length · 1 ready · 1 error(s) · tool turn");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("== incomplete after 1 step(s) · tokens 0 in + 0 out");
    expect(s.requests).toHaveLength(1);
  });

  test("a connection cut in the middle of a call: the stream is cut, the open call truncated at the end", async () => {
    const body = sse([chatChunk({ content: "Sure." }), callFragment(0, '{"expression": "1 + 1"}', { id: "c1", name: "calculate" })]);
    const s = await server([{ stream: [...pieces(body, 17), { destroy: true } satisfies StreamPiece] }]);
    const run = await live(args(s));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("[stream] cut short: the connection closed");
    expect(run.stdout).toMatch(/\[error\] truncated · call 0 c1 calculate · .* · raw \{"expression": "1 \+ 1"\} · at the end\n/);
    expect(run.stdout).not.toContain("[ready]");
    expect(run.stdout).toContain("[stream] cut · finish none · 0 ready · 1 error(s)");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("== cut after 1 step(s) · tokens 0 in + 0 out");
  });

  test("--tool-call-tags: a call the model wrote as a <tool_call> tag in its text, cut across chunks, is ready when the tag closes", async () => {
    const body = sse([
      chatChunk({ content: "Sure.\n<tool_call>\n" }),
      chatChunk({ content: '{"name": "calculate", "arguments": {"expression": "6 * 7"}}' }),
      chatChunk({ content: "\n</tool_call>" }),
      chatChunk({}, "stop"),
      "[DONE]",
    ]);
    const s = await server([streamed(pieces(body, 6)), streamed(pieces(sse([chatChunk({ content: "42." }), chatChunk({}, "stop")]), 6))]);
    const run = await live(args(s, "--tool-call-tags"));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[assistant\] Sure\.\n\[ready\] call_0 calculate \{"expression":"6 \* 7"\} · chunk \d+\n/);
    expect(run.stdout).toContain('[tool calculate · call_0] {"ok":true,"data":{"expression":"6 * 7","value":42}}');
    expect(s.requests[1].body.messages[2]).toEqual({
      role: "assistant",
      content: "Sure.\n",
      tool_calls: [{ id: "call_0", type: "function", function: { name: "calculate", arguments: '{"expression":"6 * 7"}' } }],
    });
    expect(run.stdout).toContain("== completed after 2 step(s)");
  });

  test("the stub: a clear message, exit code 1, and no request sent", async () => {
    const s = await server([streamed([sse(["[DONE]"])])]);
    const run = await live([...args(s).slice(0, -2), "--impl", "katas"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/createAssembler in katas\/04-stream-assembly is not implemented yet.*--impl solutions/s);
    expect(s.requests).toHaveLength(0);
  });

  test("an assembler without raw streams yet: the message says so before any request, and --feed events serves it", async () => {
    const root = join(tmp, "events-only");
    mkdirSync(join(root, "04-stream-assembly"), { recursive: true });
    // Parsed events only (tasks 1-4): the reference's push, with pushBytes and pushText left unfinished.
    writeFileSync(
      join(root, "04-stream-assembly", "index.ts"),
      `import { createAssembler as reference } from ${JSON.stringify(join(PROJECT_ROOT, "solutions", "04-stream-assembly", "index.ts"))};\n` +
        `const unfinished = () => { throw new Error("not implemented"); };\n` +
        `export function createAssembler(options) { const a = reference(options); return { push: (e) => a.push(e), pushText: unfinished, pushBytes: unfinished, end: () => a.end(), result: () => a.result() }; }\n`,
    );
    const s = await server([streamed(pieces(SECOND, 5))]);
    const refused = await live([...args(s).slice(0, -2), "--impl", root]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/pushBytes in .*04-stream-assembly is not implemented yet.*--feed events/s);
    expect(s.requests).toHaveLength(0);
    const run = await live([...args(s).slice(0, -2), "--impl", root, "--feed", "events"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("[stream] step 1 · each event → push\n[assistant] Beijing is sunny at 3 °C; (17.5 * 4) + 3 = 73.\n[stream] complete · finish stop");
  });
});

describe("kata 4: --record and --replay", () => {
  test("the recording keeps every chunk as it came; the replay feeds the same bytes, cut the same way, and prints the same", async () => {
    const file = join(tmp, "kata4.jsonl");
    const { run: recorded, transcript } = await gatedRun("solutions", "--record", file);
    expect(recorded.code, recorded.stderr).toBe(0);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "meta", kata: 4, settings: { feed: "bytes", toolCallTags: false } });
    const chunks = lines.filter((l) => l.type === "chunk" && l.seq === 1);
    // Put back together, the chunks are the reply byte for byte; gate A cut a character in two.
    const bytes = Buffer.concat(chunks.map((c) => (c.base64 !== undefined ? Buffer.from(c.base64, "base64") : Buffer.from(c.text))));
    expect(bytes.toString("utf8")).toBe(FIRST);
    expect(chunks.some((c) => c.base64 !== undefined)).toBe(true);
    expect(lines.find((l) => l.type === "response" && l.seq === 1)).toMatchObject({ status: 200, stream: true, text: "" });
    expect(lines.map((l) => l.type).filter((t) => t !== "chunk")).toEqual(["meta", "request", "response", "request", "response", "end"]);

    const replayed = await live(["--replay", file], { fetch: noNetwork });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(transcript);
    expect(replayed.stderr).toContain("offline");

    // The same bytes fed as text, or framed into events by live mode: the same calls at the same chunks.
    const withoutFeed = (text: string) => text.replace(/^\[stream\] step \d+ · .*$/gm, "");
    for (const feed of ["text", "events"]) {
      const other = await live(["--replay", file, "--feed", feed], { fetch: noNetwork });
      expect(other.code, other.stderr).toBe(0);
      expect(withoutFeed(other.stdout)).toBe(withoutFeed(transcript));
    }
  });

  test("a cut connection replays as the same cut", async () => {
    const body = sse([callFragment(0, '{"path": "notes.txt"}', { id: "r1", name: "read_file" })]);
    const s = await server([{ stream: [...pieces(body, 10), { destroy: true } satisfies StreamPiece] }]);
    const file = join(tmp, "cut.jsonl");
    const recorded = await live(args(s, "--record", file));
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").find((l) => l.includes('"type":"response"'))!)).toMatchObject({ stream: true, dropped: expect.stringContaining("the connection closed") });
    const replayed = await live(["--replay", file], { fetch: noNetwork });
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(replayed.stdout).toContain("== cut after 1 step(s)");
  });
});

describe("kata 4: Ctrl-C in the middle of a reply", () => {
  test("the run stops cleanly, the assembler still says what the cut leaves, and the replay stops at the same chunk", async () => {
    const body = sse([chatChunk({ content: "Writing it." }), callFragment(0, '{"to": "lin@example.com", "subject": "hi"', { id: "m1", name: "send_email" })]);
    const held = gate();
    const s = await server([{ stream: [...pieces(body, 8), { gate: held.promise }] }]);
    const file = join(tmp, "interrupted-stream.jsonl");
    const watched = watchedFetch();
    const interrupt = new AbortController();
    const running = live(args(s, "--record", file), { fetch: watched.fetch, interrupt: interrupt.signal });
    await watched.processed(Buffer.byteLength(body));
    interrupt.abort();
    const run = await running;
    held.open();
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain("Interrupted: stopped cleanly.");
    expect(run.stdout).toMatch(/\[error\] truncated · call 0 m1 send_email · .* · raw \{"to": "lin@example\.com", "subject": "hi" · at the end\n/);
    expect(run.stdout).toContain("[stream] cut · finish none · 0 ready · 1 error(s)");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("== aborted after 1 step(s) · tokens 0 in + 0 out");
    const types = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).type).filter((t) => t !== "chunk");
    expect(types).toEqual(["meta", "request", "interrupt", "failure", "end"]);
    const replayed = await live(["--replay", file], { fetch: noNetwork });
    expect(replayed.code).toBe(130);
    expect(replayed.stdout).toBe(run.stdout);
  });
});

describe("kata 4: the command line", () => {
  test("--help names kata 4 and its options; kata 4's options are refused for the other katas", async () => {
    const help = await live(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--kata 3|1|4");
    expect(help.stdout).toContain("--feed bytes|text|events");
    expect(help.stdout).toContain("--tool-call-tags");
    const base = ["--base-url", "http://127.0.0.1:1/v1", "--model", "m"];
    const wrongKata = await live(["--kata", "3", ...base, "--feed", "text"]);
    expect(wrongKata.code).toBe(2);
    expect(wrongKata.stderr).toContain("--feed is for kata 4");
    expect((await live(["--kata", "1", ...base, "--tool-call-tags"])).stderr).toContain("--tool-call-tags is for kata 4");
    const badFeed = await live(["--kata", "4", ...base, "--feed", "json"]);
    expect(badFeed.code).toBe(2);
    expect(badFeed.stderr).toContain("--feed must be bytes, text or events");
    expect((await live(["--kata", "5", ...base])).stderr).toContain("--kata must be 1, 3 or 4");
  });
});

/** A wrong assembler, for the negative control above: ready as soon as the arguments parse. */
const EAGER_ASSEMBLER = `
export function createAssembler() {
  const decoder = new TextDecoder();
  const calls = new Map();
  const ready = [];
  let line = "";
  let text = "";
  const read = (data, update) => {
    if (data === "[DONE]") return;
    const event = JSON.parse(data);
    const delta = (event.choices && event.choices[0] && event.choices[0].delta) || {};
    if (typeof delta.content === "string") update.text += delta.content;
    for (const f of delta.tool_calls || []) {
      let call = calls.get(f.index);
      if (!call) calls.set(f.index, (call = { index: f.index, id: f.id, name: f.function.name, raw: "", done: false }));
      call.raw += f.function.arguments || "";
      if (call.done) continue;
      try {
        const args = JSON.parse(call.raw);
        call.done = true;
        const made = { index: call.index, id: call.id, name: call.name, arguments: args, rawArguments: call.raw };
        ready.push(made);
        update.ready.push(made);
      } catch {}
    }
  };
  return {
    pushBytes(bytes) {
      const update = { text: "", ready: [], errors: [] };
      line += decoder.decode(bytes, { stream: true });
      for (let i = line.indexOf("\\n"); i !== -1; i = line.indexOf("\\n")) {
        const one = line.slice(0, i);
        line = line.slice(i + 1);
        if (one.startsWith("data: ")) read(one.slice(6), update);
      }
      text += update.text;
      return update;
    },
    pushText() { throw new Error("not implemented"); },
    push() { throw new Error("not implemented"); },
    end() { return { text: "", ready: [], errors: [] }; },
    result() { return { status: "complete", finishReason: "tool_calls", text, calls: ready, errors: [], toolTurn: calls.size > 0, usage: null }; },
  };
}
`;
