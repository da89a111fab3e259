// Live mode end to end, against a loopback fake OpenAI-compatible server (real HTTP, 127.0.0.1,
// port 0). Nothing here ever contacts another host. The command runs in-process through
// main(argv, io); one test runs it as a child process to send it a real Ctrl-C.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { RESULTS_HEADER } from "../lib/live/kata1.ts";
import { main, type LiveIO } from "../lib/live/main.ts";
import { completion, startFakeServer, text, toolCalls, type FakeServer, type ScriptEntry } from "./fixtures/live/fake-server.ts";

interface Run {
  code: number;
  out: string[];
  err: string[];
  /** The whole transcript (stdout) as one text. */
  stdout: string;
  stderr: string;
}

async function live(argv: string[], extra: Partial<LiveIO> = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: LiveIO = { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, cwd: PROJECT_ROOT, ...extra };
  const code = await main(argv, io);
  return { code, out, err, stdout: out.join("\n"), stderr: err.join("\n") };
}

let tmp: string;
let servers: FakeServer[] = [];
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "tuk-live-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function server(script: ScriptEntry[], options?: { models?: string[] }): Promise<FakeServer> {
  const s = await startFakeServer(script, options);
  servers.push(s);
  return s;
}
const args = (s: FakeServer, kata: 1 | 3, ...rest: string[]) => ["--kata", String(kata), "--base-url", s.baseUrl, "--model", "fake-model", "--impl", "solutions", ...rest];
/** The envelope of the tool message printed for a call id. */
const toolLine = (run: Run, id: string) => run.out.find((l) => l.startsWith("[tool ") && l.includes(` · ${id}`)) ?? "";
/** A fetch that fails the test if anything tries to use the network. */
const noNetwork = (() => {
  throw new Error("replay must not use the network");
}) as unknown as typeof fetch;

describe("kata 3: the reference loop drives the model server", () => {
  test("tool calls, tool results, a final answer: transcript, trace and the wire format", async () => {
    const s = await server([
      toolCalls(["call_a", "get_weather", '{"city":"北京"}'], ["call_b", "calculate", '{"expression":"(17.5 * 4) + 3"}']),
      text("Beijing is sunny at 3 °C, and (17.5 * 4) + 3 = 73."),
    ]);
    const run = await live(args(s, 3), { env: { OPENAI_API_KEY: "sk-test-key-000000000000000000" } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("[trace] step 1 · 2 tool call(s) · usage 10 in, 5 out");
    expect(run.stdout).toMatch(/\[trace\] tool_call get_weather \{"city":"北京"\} · id call_a · step 1 · validation ok · outcome ok · retries 0/);
    expect(toolLine(run, "call_a")).toContain('"ok":true');
    expect(toolLine(run, "call_a")).toContain('"condition":"sunny"');
    expect(toolLine(run, "call_b")).toContain('"value":73');
    expect(run.stdout).toContain("[assistant] Beijing is sunny");
    expect(run.out.at(-1)).toBe("== completed after 2 step(s) · tokens 20 in + 10 out");
    expect(run.stdout).not.toContain("sk-test-key");

    expect(s.requests).toHaveLength(2);
    const [first, second] = s.requests;
    expect(first.headers.authorization).toBe("Bearer sk-test-key-000000000000000000");
    expect(first.body).toMatchObject({ model: "fake-model", stream: false, tool_choice: "auto" });
    expect(first.body.tools.map((t: any) => t.function.name)).toEqual(["get_weather", "calculate", "read_file", "send_email"]);
    expect(first.body.tools[0]).toMatchObject({ type: "function", function: { parameters: { type: "object", required: ["city"] } } });
    expect(first.body.messages.map((m: any) => m.role)).toEqual(["system", "user"]);
    // The history went back through the implementation's own toOpenAIMessages.
    expect(second.body.messages[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"北京"}' } },
        { id: "call_b", type: "function", function: { name: "calculate", arguments: '{"expression":"(17.5 * 4) + 3"}' } },
      ],
    });
    expect(second.body.messages.slice(3).map((m: any) => [m.role, m.tool_call_id])).toEqual([["tool", "call_a"], ["tool", "call_b"]]);
    expect(JSON.parse(second.body.messages[4].content)).toEqual({ ok: true, data: { expression: "(17.5 * 4) + 3", value: 73 } });
  });

  test("a messy reply: broken JSON arguments, an unknown tool, a missing id, arguments as an object", async () => {
    const s = await server([
      completion({
        content: "Let me look.",
        tool_calls: [
          { type: "function", function: { name: "get_weather", arguments: '{"city": "北京"' } },
          { id: "x2", type: "function", function: { name: "rm_rf", arguments: "{}" } },
          { id: "x3", function: { name: "calculate", arguments: { expression: "2 ** 10" } } },
        ],
      }),
      text("Sorry, here is what I could do."),
    ]);
    const run = await live(args(s, 3));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("→ call (no id) get_weather");
    expect(toolLine(run, "call_1_0")).toContain('"code":"invalid_arguments"');
    expect(toolLine(run, "call_1_0")).toContain("· error]");
    expect(toolLine(run, "x2")).toContain('"code":"unknown_tool"');
    expect(toolLine(run, "x3")).toContain('"value":1024');
    expect(run.stdout).toContain("== completed after 2 step(s)");
  });

  test("--tool-choice NAME goes out in OpenAI's format and the loop enforces it", async () => {
    const s = await server([text("I would rather not."), text("Still no.")]);
    const run = await live(args(s, 3, "--tool-choice", "get_weather", "--max-steps", "2"));
    expect(run.code, run.stderr).toBe(0);
    expect(s.requests[0].body.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(s.requests[1].body.messages.at(-1).role).toBe("user"); // the loop's reminder
    expect(run.stdout).toContain("== max_steps after 2 step(s)");
  });

  test("the dangerous tool: denied without a terminal, approved by --yes or by a typed y", async () => {
    const script = () => [toolCalls(["m1", "send_email", { to: "boss@example.com", subject: "hi", body: "hello" }]), text("Done.")];
    const denied = await live(args(await server(script()), 3));
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('[approval] send_email {"to":"[email]","subject":"hi","body":"hello"}: denied');
    expect(toolLine(denied, "m1")).toContain('"code":"not_approved"');
    expect(denied.stderr).toContain("--yes");

    const yes = await live(args(await server(script()), 3, "--yes"));
    expect(yes.stdout).toContain("[approval] send_email");
    expect(yes.stdout).toContain(": approved");
    expect(toolLine(yes, "m1")).toContain("nothing is really sent");

    const questions: string[] = [];
    const typed = await live(args(await server(script()), 3), { ask: async (q) => (questions.push(q), "y") });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain("send_email");
    expect(toolLine(typed, "m1")).toContain('"ok":true');

    const no = await live(args(await server(script()), 3), { ask: async () => "" });
    expect(toolLine(no, "m1")).toContain('"code":"not_approved"');
  });

  test("read_file: serves the sandbox, refuses paths that leave it, and the kata masks the secret it holds", async () => {
    const s = await server([
      toolCalls(
        ["f1", "read_file", { path: "config.env" }],
        ["f2", "read_file", { path: "../../../package.json" }],
        ["f3", "read_file", { path: "/etc/passwd" }],
        ["f4", "read_file", { path: "recipes/dumplings.md" }],
      ),
      text("ok"),
    ]);
    const run = await live(args(s, 3));
    expect(run.code, run.stderr).toBe(0);
    expect(toolLine(run, "f1")).toContain("SERVICE_KEY=[secret]");
    expect(run.stdout).not.toContain("sk-demo0000");
    expect(JSON.stringify(s.requests[1].body)).not.toContain("sk-demo0000");
    expect(toolLine(run, "f2")).toContain('"code":"tool_error"');
    expect(toolLine(run, "f2")).toContain("leaves the sandbox");
    expect(toolLine(run, "f3")).toContain("refused");
    expect(toolLine(run, "f4")).toContain("dumplings");
  });

  test("an unfinished implementation (the stub) gets a clear message, and no request is sent", async () => {
    const s = await server([text("never asked")]);
    const run = await live([...args(s, 3).slice(0, -2), "--impl", "katas"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/runAgent in katas\/03-agent-loop is not implemented yet.*--impl solutions/s);
    expect(s.requests).toHaveLength(0);
  });
});

describe("kata 1: the text protocol for models without native tool calls", () => {
  test("the system prompt teaches the protocol; the implementation's dispatch runs the calls in the text", async () => {
    const s = await server([
      text('Let me check both.\nget_weather(city="北京")\ncalculate(expression="(17.5 * 4) + 3")'),
      text("Beijing is sunny, and the sum is 73."),
    ]);
    const run = await live(args(s, 1));
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = s.requests;
    expect(first.body.tools).toBeUndefined();
    expect(first.body.messages[0].role).toBe("system");
    expect(first.body.messages[0].content).toContain('tool_name(argument_name="a string"');
    expect(first.body.messages[0].content).toContain(RESULTS_HEADER);
    expect(first.body.messages[0].content).toContain("- get_weather(city");
    expect(second.body.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    const feedback: string = second.body.messages[3].content;
    expect(feedback.startsWith(RESULTS_HEADER)).toBe(true);
    expect(feedback).toContain('1. get_weather(city="北京") returned {"city":"Beijing"');
    expect(feedback).toContain('2. calculate(expression="(17.5 * 4) + 3") returned 73');
    expect(run.stdout).toContain('[trace] dispatch get_weather(city="北京") → ok');
    expect(run.out.at(-1)).toBe("== completed after 2 step(s) · tokens 20 in + 10 out");
  });

  test("messy text: prose parentheses, an unknown tool, an unapproved dangerous call, a truncated call", async () => {
    const s = await server([
      text('The answer (approx.) needs frobnicate(1) and send_email(to="a@example.com", subject="s", body="b")\nget_weather(city="Lon'),
      text("I could not do it."),
    ]);
    const run = await live(args(s, 1));
    expect(run.code, run.stderr).toBe(0);
    const feedback: string = s.requests[1].body.messages[3].content;
    expect(feedback).toContain("1. frobnicate(1) failed: unknown_tool");
    expect(feedback).toContain("2. send_email(");
    expect(feedback).toContain("failed: tool_error NotApprovedError");
    expect(feedback).toContain("3. (unreadable call");
    expect(feedback).toContain("parse_error");
    expect(feedback).not.toContain("approx.");
    expect(run.stdout).toContain("[approval] send_email(");
    expect(run.stdout).toContain(": denied");
  });
});

describe("--record and --replay", () => {
  test("kata 3: the recording is JSON Lines without the API key, and the replay prints exactly the same, offline", async () => {
    const s = await server([
      completion({ content: null, tool_calls: [{ function: { name: "get_weather", arguments: '{"city": "上海", }' } }, { id: "e1", function: { name: "send_email", arguments: '{"to":"x@example.com","subject":"s","body":"b"}' } }] }),
      toolCalls(["w2", "get_weather", '{"city":"上海"}']),
      text("Shanghai: light rain, 11 °C."),
    ]);
    const file = join(tmp, "kata3.jsonl");
    const recorded = await live([...args(s, 3, "--record", file)], { env: { OPENAI_API_KEY: "sk-live-secret-0123456789abcdef" }, ask: async () => "yes" });
    expect(recorded.code, recorded.stderr).toBe(0);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["meta", "request", "response", "approval", "request", "response", "request", "response", "end"]);
    expect(lines[0]).toMatchObject({ format: "tool-use-katas/live", version: 1, kata: 3, model: "fake-model", impl: "solutions" });
    expect(lines[3]).toMatchObject({ name: "send_email", approved: true });
    expect(readFileSync(file, "utf8")).not.toContain("sk-live-secret");
    await s.close();

    const replayed = await live(["--replay", file], { fetch: noNetwork });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.out).toEqual(recorded.out);
    expect(replayed.stderr).toContain("offline");
  });

  test("kata 1: the replay reproduces the run exactly", async () => {
    const s = await server([text('calculate(expression="6 * 7")'), text("42.")]);
    const file = join(tmp, "kata1.jsonl");
    const recorded = await live(args(s, 1, "--record", file, "--prompt", "What is 6 * 7?"));
    expect(recorded.code, recorded.stderr).toBe(0);
    await s.close();
    const replayed = await live(["--replay", file, "--kata", "1"], { fetch: noNetwork });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.out).toEqual(recorded.out);
    expect(replayed.stdout).toContain("returned 42");
  });

  test("a run that leaves the recording is refused, and --loose serves the recorded replies anyway", async () => {
    const s = await server([text("Hello.")]);
    const file = join(tmp, "diverge.jsonl");
    expect((await live(args(s, 3, "--record", file, "--prompt", "Say hello."))).code).toBe(0);
    const edited = readFileSync(file, "utf8").replace('"prompt":"Say hello."', '"prompt":"Say goodbye."');
    writeFileSync(file, edited);
    const strict = await live(["--replay", file]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/request 1 differs from the recording at body\.messages\[1\]\.content: recorded "Say hello\.", now "Say goodbye\."/);
    const loose = await live(["--replay", file, "--loose"]);
    expect(loose.code, loose.stderr).toBe(0);
    expect(loose.stdout).toContain("[assistant] Hello.");
    expect(loose.stderr).toContain("--loose");
  });

  test("a recorded error replays as the same error; the recording fixes the settings", async () => {
    const s = await server([{ status: 401, json: { error: { message: "Incorrect API key provided" } } }]);
    const file = join(tmp, "error.jsonl");
    const recorded = await live(args(s, 3, "--record", file));
    expect(recorded.code).toBe(1);
    const replayed = await live(["--replay", file]);
    expect(replayed.code).toBe(1);
    expect(replayed.err.at(-1)).toBe(recorded.err.find((l) => l.startsWith("live:")));
    const conflict = await live(["--replay", file, "--prompt", "other"]);
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain("--prompt cannot be combined with --replay");
    expect((await live(["--replay", file, "--kata", "1"])).stderr).toContain("recording of kata 3");
  });
});

describe("clear errors", () => {
  test("nothing listens at the base URL", async () => {
    const s = await server([]);
    await s.close();
    const run = await live(args(s, 3));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(connection refused/);
  });

  test("a wrong model name: the server's 404 and the models it does have", async () => {
    const s = await server([{ status: 404, json: { error: { message: 'model "qwen9" not found, try pulling it first' } } }], { models: ["qwen2.5:7b", "llama3.1:8b"] });
    const run = await live([...args(s, 3).map((a) => (a === "fake-model" ? "qwen9" : a))]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('model "qwen9" not found');
    expect(run.stderr).toContain('Model "qwen9" is not one of the server\'s models: qwen2.5:7b, llama3.1:8b');
  });

  test("401: says whether a key was sent", async () => {
    const body = { status: 401, json: { error: { message: "invalid api key" } } };
    const none = await live(args(await server([body]), 3));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no API key was sent: pass --api-key KEY or set OPENAI_API_KEY");
    const file = join(tmp, "refused.jsonl");
    const refused = await live(args(await server([body]), 3, "--api-key", "sk-wrong-000000000000000000", "--record", file));
    expect(refused.stderr).toContain("the API key that was sent was refused");
    expect(refused.stderr).not.toContain("sk-wrong");
    expect(readFileSync(file, "utf8")).not.toContain("sk-wrong");
    expect((await live(["--replay", file])).stderr).toContain("the API key that was sent was refused");
  });

  test("a server that never answers: a timeout", async () => {
    const run = await live(args(await server([{ hang: true }]), 3, "--timeout", "0.3"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("within 0.3 s");
  });

  test("malformed replies: not JSON, JSON that is not a completion, a server error", async () => {
    const notJson = await live(args(await server([{ raw: "<html>502 Bad Gateway" }]), 3));
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('is not valid JSON: "<html>502 Bad Gateway"');
    const noChoices = await live(args(await server([{ json: { object: "chat.completion", choices: [] } }]), 1));
    expect(noChoices.stderr).toContain("not a chat completion (no choices[0].message)");
    const broken = await live(args(await server([{ status: 500, json: { error: "CUDA out of memory" } }]), 3));
    expect(broken.stderr).toContain("answered 500");
    expect(broken.stderr).toContain("CUDA out of memory");
  });

  test("usage errors exit 2 with what to do", async () => {
    expect((await live(["--kata", "3"])).stderr).toContain("missing --base-url URL, --model NAME");
    expect((await live(["--kata", "2", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"])).stderr).toContain("kata 1");
    expect((await live(["--kata", "3", "--base-url", "ftp://x", "--model", "m"])).stderr).toContain("http:// or https://");
    expect((await live(["--replay", join(tmp, "nope.jsonl")])).stderr).toContain("no such file");
    const typo = await live(["--kata", "3", "--modle", "m"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown option --modle");
    const help = await live(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--base-url URL");
  });
});

describe("Ctrl-C stops cleanly and keeps the recording", () => {
  test("in-process: the run ends as aborted, the recording ends with the interruption, the replay stops there too", async () => {
    const s = await server([toolCalls(["c1", "calculate", { expression: "1 + 1" }]), { hang: true }]);
    const file = join(tmp, "interrupted.jsonl");
    const interrupt = new AbortController();
    void s.waitForRequest(2).then(() => interrupt.abort());
    const run = await live(args(s, 3, "--record", file), { interrupt: interrupt.signal });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("Interrupted");
    expect(run.stderr).toContain(`Recorded 2 request(s) to ${file}`);
    expect(toolLine(run, "c1")).toContain('"value":2');
    expect(run.out.at(-1)).toContain("== aborted after 2 step(s)");
    const types = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).type);
    expect(types).toEqual(["meta", "request", "response", "request", "interrupt", "failure", "end"]);
    const replayed = await live(["--replay", file]);
    expect(replayed.code).toBe(130);
    expect(replayed.out).toEqual(run.out);
  });

  // Kata 3's contract: an abort ends a call whose approval has not answered, without waiting for
  // the answer. So live mode answers the question itself the moment Ctrl-C comes (denied,
  // interrupted: printed and recorded at once), before the run reacts and ends.
  test("Ctrl-C at the approval question: the run stops without waiting for the answer, and the replay stops at the same question", async () => {
    const s = await server([toolCalls(["m1", "send_email", { to: "a@example.com", subject: "s", body: "b" }], ["c1", "calculate", { expression: "2 * 3" }]), text("never sent")]);
    const file = join(tmp, "interrupted-approval.jsonl");
    const interrupt = new AbortController();
    const run = await live(args(s, 3, "--record", file), {
      interrupt: interrupt.signal,
      ask: async () => {
        interrupt.abort();
        throw new Error("interrupted");
      },
    });
    expect(run.code).toBe(130);
    expect(s.requests).toHaveLength(1);
    const approvalLine = '[approval] send_email {"to":"[email]","subject":"s","body":"b"}: denied (interrupted)';
    expect(run.out).toContain(approvalLine);
    expect(toolLine(run, "m1")).toMatch(/"code":"(not_approved|aborted)"/);
    expect(run.out.indexOf(approvalLine)).toBeLessThan(run.out.indexOf(toolLine(run, "m1")));
    const lines = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["meta", "request", "response", "interrupt", "approval", "end"]);
    expect(lines.find((l) => l.type === "approval")).toMatchObject({ approved: false, interrupted: true });
    const replayed = await live(["--replay", file]);
    expect(replayed.code).toBe(130);
    expect(replayed.out).toEqual(run.out);
  });

  test("Ctrl-C at an approval question that answers late: the late answer is ignored, nothing is written after the end", async () => {
    const s = await server([toolCalls(["m1", "send_email", { to: "a@example.com", subject: "s", body: "b" }]), text("never sent")]);
    const file = join(tmp, "late-approval.jsonl");
    const interrupt = new AbortController();
    let answered!: Promise<void>;
    const run = await live(args(s, 3, "--record", file), {
      interrupt: interrupt.signal,
      // Ctrl-C while the question is open; the terminal still says "y" afterwards.
      ask: () => {
        setImmediate(() => interrupt.abort());
        const late = new Promise<string>((resolve) => setTimeout(() => resolve("y"), 50));
        answered = late.then(() => new Promise((resolve) => setTimeout(resolve, 20)));
        return late;
      },
    });
    expect(run.code).toBe(130);
    const recorded = readFileSync(file, "utf8");
    const outBefore = [...run.out];
    await answered;
    expect(readFileSync(file, "utf8")).toBe(recorded);
    expect(run.out).toEqual(outBefore);
    expect(run.stdout).toContain("denied (interrupted)");
    expect(run.stdout).not.toContain(": approved");
    const lines = recorded.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["meta", "request", "response", "interrupt", "approval", "end"]);
    expect(lines[4]).toMatchObject({ approved: false, interrupted: true });
    const replayed = await live(["--replay", file]);
    expect(replayed.code).toBe(130);
    expect(replayed.out).toEqual(run.out);
  });

  test("a real SIGINT to the command's process", async () => {
    const s = await server([{ hang: true }]);
    const file = join(tmp, "sigint.jsonl");
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/live.ts", ...args(s, 1, "--record", file)], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, OPENAI_API_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Only against a hang: a busy machine may take many seconds just to start tsx.
    const killer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    await s.waitForRequest(1);
    child.kill("SIGINT");
    const code = await exited;
    clearTimeout(killer);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("Interrupted: stopped cleanly.");
    const types = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).type);
    expect(types).toEqual(["meta", "request", "interrupt", "failure", "end"]);
  }, 60_000);
});
