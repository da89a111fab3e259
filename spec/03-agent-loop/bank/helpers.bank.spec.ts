// Held-out bank, kata 3, tasks 5-8, 10 and 11: failures, retries, truncation, masking, canonical
// JSON and the adapters, with examples the visible specs do not use and random cases.
import fc from "fast-check";
import { describe, expect } from "vitest";
import {
  backoffDelay, canonicalJson, checkArguments, describeError, maskSecrets, parseArguments, toAnthropicMessages, toOpenAIMessages, truncateText,
  type Message,
} from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../../support/graded.ts";
import { FakeClock, leakyError, reply, scriptedModel, SECRET_KEY, SOURCE_PATH, spyTool, tools, transientError } from "../../support/agent-harness/index.ts";
import { leakedPieces } from "../../support/leaks.ts";
import { envelope, errorCode, run, toolEvents, toolMessages } from "../helpers.ts";

describe("5. Failures become error tool messages and the loop goes on", () => {
  l2("parseArguments: blanks and null are {}, an object is kept, arrays, strings, numbers and broken JSON are refused", () => {
    for (const text of ["", "  ", "null"]) expect(parseArguments(text), text).toEqual({ ok: true, value: {} });
    expect(parseArguments('{"a":[1]}'), "a JSON object is the value").toEqual({ ok: true, value: { a: [1] } });
    for (const text of ["[]", '"{}"', "nul", "1", "true", "{a:1}"]) expect(parseArguments(text).ok, text).toBe(false);
  });

  l2("checkArguments: escaped paths, canonical enum equality, integer vs number, nothing below a wrong type", () => {
    const schema = {
      type: "object" as const,
      properties: {
        "a/b": { type: "integer" as const },
        "m~n": { type: "object" as const, properties: { x: { type: "string" as const } }, required: ["y"] },
        e: { enum: [{ p: 1, q: 2 }] },
        n: { type: "number" as const },
        o: { type: "object" as const, required: ["deep"] },
      },
      required: ["z"],
    };
    const problems = checkArguments(schema, { "a/b": 1.5, "m~n": { x: 1 }, e: { q: 2, p: 1 }, n: 3, o: [1] });
    expect(problems.map((p) => p.path).sort(), "escaped pointers, canonical enum equality, integer vs number, nothing below a wrong type").toEqual(["/a~1b", "/m~0n/x", "/m~0n/y", "/o", "/z"]);
    expect(checkArguments(schema, { z: 0, "a/b": 2, "m~n": { y: 0 }, e: { p: 1, q: 2 }, n: 2.5 }), "a valid value has no problem").toEqual([]);
  });

  l2.property("checkArguments: a missing required key or a wrong type is reported at its path, nothing else", () => {
    const TYPES = ["string", "number", "boolean", "array", "object", "null"] as const;
    const sample: Record<(typeof TYPES)[number], unknown> = { string: "s", number: 1.5, boolean: true, array: [1], object: { k: 1 }, null: null };
    const keys = ["a", "b", "c", "d"];
    fc.assert(
      fc.property(
        fc.tuple(...keys.map(() => fc.constantFrom(...TYPES))), fc.tuple(...keys.map(() => fc.constantFrom(...TYPES, "absent" as const))), fc.subarray(keys),
        (wanted, given, required) => {
          const schema = { type: "object" as const, properties: Object.fromEntries(keys.map((k, i) => [k, { type: wanted[i] }])), required };
          const value = Object.fromEntries(keys.flatMap((k, i) => (given[i] === "absent" ? [] : [[k, sample[given[i] as (typeof TYPES)[number]]]])));
          const expected = keys.filter((k, i) => (given[i] === "absent" ? required.includes(k) : given[i] !== wanted[i])).map((k) => `/${k}`);
          expect(checkArguments(schema, value).map((p) => p.path).sort(), "exactly the missing required keys and the wrong types, at their paths").toEqual(expected);
        }),
    );
  });

  l2("the invalid_arguments message carries every problem's JSON Pointer", async () => {
    const tool = spyTool("t", () => 1, { parameters: { type: "object", properties: { "a/b": { type: "string" }, list: { type: "array", items: { type: "integer" } } }, required: ["need"] } });
    const r = await run({ model: scriptedModel([reply.calls(["t", { "a/b": 1, list: [1, "x"] }]), reply.text("ok")]), tools: [tool] });
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok, "schema problems give an error envelope").toBe(false);
    if (!e.ok) {
      expect(e.error.code, "schema problems: invalid_arguments").toBe("invalid_arguments");
      for (const pointer of ["/a~1b", "/list/1", "/need"]) expect(e.error.message, "the message carries every problem's JSON Pointer").toContain(pointer);
    }
    expect(tool.executions, "the tool does not run on invalid arguments").toBe(0);
  });
});

describe("6. Timeouts and retries", () => {
  l2.property("backoffDelay(k, base) = base * 2 ** (k - 1)", () => {
    expect([backoffDelay(1, 50), backoffDelay(2, 50), backoffDelay(3, 50), backoffDelay(4, 10)], "backoffDelay(k, base) = base * 2 ** (k - 1)").toEqual([50, 100, 200, 80]);
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 5000 }), (k, base) => {
      expect(backoffDelay(k, base), "backoffDelay(k, base) = base * 2 ** (k - 1)").toBe(base * 2 ** (k - 1));
    }));
  });

  l2("a call that fails three times succeeds on the fourth attempt after 10 + 20 + 40 ms of backoff", async () => {
    const clock = new FakeClock();
    const tool = tools.flaky("flaky", 3, "fine", { retries: 3 });
    const r = await run({ model: scriptedModel([reply.calls(["flaky", {}]), reply.text("ok")]), tools: [tool], clock, backoffBaseMs: 10 });
    expect(envelope(toolMessages(r)[0]), "the fourth attempt succeeds").toEqual({ ok: true, data: "fine" });
    expect(tool.contexts.map((c) => c.attempt), "ctx.attempt counts 1 to 4").toEqual([1, 2, 3, 4]);
    expect(clock.now(), "backoff waits 10 + 20 + 40 ms").toBe(70);
    expect(toolEvents(r)[0], "the trace records 3 retries and the ok outcome").toMatchObject({ retries: 3, outcome: "ok" });
  });

  l2("arguments that break the schema are never retried, however many retries are allowed", async () => {
    const clock = new FakeClock();
    const tool = spyTool("strict", () => 1, { parameters: { type: "object", properties: { n: { type: "integer" } } }, retries: 4 });
    const r = await run({ model: scriptedModel([reply.calls(["strict", { n: "seven" }], ["strict", "{not json"]), reply.text("ok")]), tools: [tool], clock, backoffBaseMs: 100 });
    expect(toolMessages(r).map(errorCode), "schema and parse errors: invalid_arguments").toEqual(["invalid_arguments", "invalid_arguments"]);
    expect(tool.executions, "argument errors never execute").toBe(0);
    expect(clock.now(), "argument errors never wait").toBe(0);
    expect(toolEvents(r).map((e) => (e as { retries: number }).retries), "argument errors are never retried: retries 0").toEqual([0, 0]);
  });

  l2("retries 0: a transient failure stays tool_error and a timeout stays timeout", async () => {
    const r = await run({
      model: scriptedModel([reply.calls(["tr", {}], ["hang", {}]), reply.text("ok")]),
      tools: [tools.transient("tr"), tools.hang("hang", { timeoutMs: 50 })], retries: 0,
    });
    expect(toolMessages(r).map(errorCode), "retries 0: a transient failure keeps tool_error, a timeout keeps timeout").toEqual(["tool_error", "timeout"]);
  });

  l2("a tool's own retries 1: two executions, then unavailable with a 'tool unavailable' message", async () => {
    const tool = spyTool("down", async () => { throw transientError("502 bad gateway"); }, { retries: 1 });
    const r = await run({ model: scriptedModel([reply.calls(["down", {}]), reply.text("ok")]), tools: [tool], retries: 5 });
    expect(tool.executions, "a tool's own retries 1: two executions").toBe(2);
    const e = envelope(toolMessages(r)[0]);
    expect(e.ok, "the degraded answer is an error").toBe(false);
    if (!e.ok) {
      expect(e.error.code, "after the last retry: unavailable").toBe("unavailable");
      expect(e.error.message.startsWith("tool unavailable"), "the degraded message starts with \"tool unavailable\"").toBe(true);
    }
  });

  l2("retryable 2, \"no\" or \"1\" is no retry; a thrown plain object with retryable true is retried", async () => {
    const clock = new FakeClock();
    const thrower = (name: string, make: () => unknown, extra = {}) => spyTool(name, () => { throw make(); }, extra);
    const two = thrower("two", () => Object.assign(new RangeError("quota"), { retryable: 2 }));
    const no = thrower("no", () => ({ message: "busy", retryable: "no" }));
    const one = thrower("one", () => Object.assign(new Error("busy"), { retryable: "1" }));
    const plain = thrower("plain", () => ({ code: 503, retryable: true }), { retries: 3 });
    const model = scriptedModel([reply.calls(["two", {}], ["no", {}], ["one", {}], ["plain", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [two, no, one, plain], clock, retries: 1, backoffBaseMs: 20 });
    expect([two, no, one, plain].map((t) => t.executions), "only retryable === true is retried: 1, 1, 1, then 1 + 3").toEqual([1, 1, 1, 4]);
    expect(toolMessages(r).map(errorCode), "the look-alikes keep tool_error; the plain object is unavailable after its retries").toEqual(["tool_error", "tool_error", "tool_error", "unavailable"]);
    expect(clock.now(), "only the plain object's retries waited: 20 + 40 + 80 ms").toBe(140);
  });
});

describe("7. Truncation: big results are cut to maxResultChars with a marker", () => {
  l2("truncateText on new examples: astral characters, exact fits, empty text", () => {
    expect(truncateText("abcdef", 3), "truncateText: first max characters, then the marker").toBe("abc…[truncated 3 chars]");
    expect(truncateText("𝄞𝄞", 1), "truncateText counts astral characters as one").toBe("𝄞…[truncated 1 chars]");
    expect(truncateText("abc", 3), "truncateText: exactly max characters is unchanged").toBe("abc");
    expect(truncateText("", 0), "truncateText: empty text is unchanged").toBe("");
  });

  l2.property("truncateText keeps the first max code points and counts the rest", () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom("a", "é", "😀", "北", "\n", "𝄞"), maxLength: 30 }), fc.nat(35), (text, max) => {
      const points = [...text];
      const want = points.length <= max ? text : points.slice(0, max).join("") + `…[truncated ${points.length - max} chars]`;
      expect(truncateText(text, max), "truncateText keeps the first max code points and counts the rest").toBe(want);
    }));
  });

  l2("a result cut by maxResultChars through the loop keeps the masked head", async () => {
    const r = await run({ model: scriptedModel([reply.calls(["big", {}]), reply.text("ok")]), tools: [tools.ok("big", `${SECRET_KEY} ${"y".repeat(50)}`)], maxResultChars: 12 });
    expect(envelope(toolMessages(r)[0]), "masking before the cut: the masked head, then the marker").toEqual({ ok: true, data: `[secret] ${"y".repeat(3)}…[truncated 47 chars]` });
  });
});

describe("8. Isolation: masking and clean error text", () => {
  l2("a cut inside an AWS key deep in a result, a bearer token in a text, an e-mail in a reason: masked whole, then cut", async () => {
    const aws = "AKIAJ7QW2LX9VB4NZ6KD";
    const token = "Rk4Wp9Zs2Lm7Xq3Vt8";
    const mail = "li.wei+ops@zk8-post.cn";
    // Each maxResultChars falls inside the secret of the raw text, counted from its start.
    const cases: Array<[string, Partial<Parameters<typeof run>[0]>, unknown]> = [
      ["an AWS key in a nested result, cut after AKIAJ7QW2L", { tools: [tools.ok("t", { rows: [{ id: 7, creds: aws }] })], maxResultChars: 36 },
        { ok: true, data: '{"rows":[{"id":7,"creds":"[secret]"}…[truncated 2 chars]' }],
      ["a bearer token in a text, cut after Rk4Wp", { tools: [tools.ok("t", `Authorization: bearer ${token} (expires soon)`)], maxResultChars: 27 },
        { ok: true, data: "Authorization: Bearer [secr…[truncated 18 chars]" }],
      ["an e-mail in a policy's reason, cut after zk8-po", { tools: [tools.ok("t")], maxResultChars: 31, policy: () => ({ allow: false, reason: `no access for ${mail} until Monday` }) },
        { ok: false, error: { code: "denied", message: "no access for [email] until Mon…[truncated 3 chars]" } }],
    ];
    for (const [label, options, want] of cases) {
      const r = await run({ model: scriptedModel([reply.calls(["t", {}]), reply.text("ok")]), runId: "run_bank_cut", ...options });
      expect(envelope(toolMessages(r)[0]), `${label}: masked first, then cut`).toEqual(want);
      const written = JSON.stringify([toolMessages(r), r.trace]);
      for (const secret of [aws, token, mail]) expect(leakedPieces(written, secret), `${label}: pieces of ${secret} shown by the cut`).toEqual([]);
    }
  });
  l2("maskSecrets on new shapes: lower-case bearer, +86 phones, AWS and GitHub keys, short look-alikes stay", () => {
    const cases: [string, string][] = [
      ["Authorization: bearer abcdefgh123", "Authorization: Bearer [secret]"],
      ["+86 13912345678", "[phone]"],
      ["AKIAABCDEFGHIJKLMNOP", "[secret]"],
      ["ghp_abcdefghijklmnopqrstuv", "[secret]"],
      ["id 110105194912310021.", "id [id_number]."],
      ["mail a.b@c.io now", "mail [email] now"],
      ["tel +1 415 555 2671", "tel [phone]"],
      ["sk-abc", "sk-abc"],
      ["order 12345", "order 12345"],
    ];
    for (const [input, want] of cases) expect(maskSecrets(input), input).toBe(want);
  });

  l2("describeError: thrown values of every kind, Windows and relative paths, a lone slash", () => {
    expect(describeError({ code: 1 }), "describeError: an object is its JSON").toBe('{"code":1}');
    expect(describeError(42), "describeError: a number is its JSON").toBe("42");
    expect(describeError(10n), "describeError: a BigInt has no JSON: String(value)").toBe("10");
    expect(describeError(new TypeError("cannot open C:\\Users\\x\\f.txt now")), "describeError: a Windows path becomes [path]").toBe("TypeError: cannot open [path] now");
    expect(describeError(new Error("5 / 3 is fine")), "describeError: a lone / is not a path").toBe("Error: 5 / 3 is fine");
    expect(describeError(new Error("see ./a/b.txt\n    at x (/srv/a.js:1:1)")), "describeError: a relative path becomes [path]; first line only").toBe("Error: see [path]");
    expect(describeError(`key ${SECRET_KEY} leaked`), "describeError masks secrets").toBe("key [secret] leaked");
  });

  l3.property("a thrown error with random text around planted secrets and paths reaches the model clean", async () => {
    const words = fc.array(fc.constantFrom("failed", "to", "reach", "北京", "(", ")", "at", ":", "x=1"), { maxLength: 6 }).map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(words, words, async (before, after) => {
        const tool = tools.throws("leak", () => leakyError(`${before} ${SECRET_KEY} ${SOURCE_PATH} ${after}`));
        const r = await run({ model: scriptedModel([reply.calls(["leak", {}]), reply.text("ok")]), tools: [tool] });
        const text = JSON.stringify([r.messages, r.trace]);
        expect(errorCode(toolMessages(r)[0]), "a thrown error: tool_error").toBe("tool_error");
        expect(text, "no unmasked secret in the messages or trace").not.toContain(SECRET_KEY);
        expect(text, "no source path in the messages or trace").not.toContain(SOURCE_PATH);
        expect(text, "no stack trace in the messages or trace").not.toContain("    at ");
      }),
    );
  });
});

describe("10. Trace: events for every step and tool call, with the run id", () => {
  l2("canonicalJson: UTF-16 key order, undefined as null, nested arrays of objects", () => {
    expect(canonicalJson({ b: [{ d: 1, c: undefined }], é: 1, B: 2, a: 3 }), "UTF-16 key order, undefined members as null").toBe('{"B":2,"a":3,"b":[{"c":null,"d":1}],"é":1}');
    expect(canonicalJson(undefined), "canonicalJson(undefined) is null").toBe("null");
    expect(canonicalJson([undefined, "x"]), "an undefined array item is null").toBe('[null,"x"]');
  });

  l2.property("canonicalJson ignores key order and parses back to the same value", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), fc.nat(), (value, seed) => {
      const shuffle = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(shuffle);
        if (v && typeof v === "object") {
          const keys = Object.keys(v);
          const rotated = keys.slice(seed % (keys.length || 1)).concat(keys.slice(0, seed % (keys.length || 1)));
          const out: Record<string, unknown> = {};
          for (const k of rotated.reverse()) Object.defineProperty(out, k, { value: shuffle((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
          return out;
        }
        return v;
      };
      const text = canonicalJson(value);
      expect(canonicalJson(shuffle(value)), "canonicalJson ignores key order").toBe(text);
      expect(JSON.parse(text), "canonicalJson parses back to the same value").toEqual(JSON.parse(JSON.stringify(value)));
      expect(text, "canonicalJson writes no surrounding whitespace").not.toMatch(/^\s|\s$/);
    }));
  });
});

describe("11. Adapters: the history in OpenAI and Anthropic formats", () => {
  const history = (): Message[] => [
    { role: "user", content: "a" },
    { role: "user", content: "b" },
    { role: "assistant", content: "", tool_calls: [{ id: "c", name: "f", arguments: "[1]" }] },
    { role: "tool", tool_call_id: "c", name: "f", content: "x", is_error: true },
    { role: "assistant", content: "" },
  ];

  l1("OpenAI: empty content next to calls is null; a tool message keeps only role, tool_call_id and content", () => {
    expect(toOpenAIMessages(history().slice(2)), "OpenAI: empty content next to calls is null; a tool message keeps role, tool_call_id, content").toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "[1]" } }] },
      { role: "tool", tool_call_id: "c", content: "x" },
      { role: "assistant", content: "" },
    ]);
  });

  l2("Anthropic: no system key without system messages, user turns merge, non-object arguments become {}", () => {
    const input = history();
    const out = toAnthropicMessages(input);
    expect(out, "Anthropic: user turns merge, non-object arguments become {}").toEqual({
      messages: [
        { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "c", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: "x", is_error: true }] },
        { role: "assistant", content: [{ type: "text", text: "" }] },
      ],
    });
    expect("system" in out, "no system key without system messages").toBe(false);
    expect(input, "the adapter never modifies its input").toEqual(history());
  });
});
