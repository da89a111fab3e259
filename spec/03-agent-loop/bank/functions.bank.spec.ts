// Held-out bank, kata 3, the public helpers on inputs the visible specs do not use: enum and
// additionalProperties in checkArguments, the real clock, masking shapes, describeError's paths
// and trimming, and both adapters on histories with system and user messages.
import { describe, expect } from "vitest";
import { checkArguments, describeError, maskSecrets, systemClock, toAnthropicMessages, toOpenAIMessages, type JsonSchema, type Message } from "@impl/03-agent-loop";
import { l1, l2 } from "../../support/graded.ts";

const paths = (schema: JsonSchema, value: unknown) => checkArguments(schema, value).map((p) => p.path).sort();

describe("5. Failures become error tool messages and the loop goes on", () => {
  l2("checkArguments enum: a value equal to no member is one problem at its path; a value equal to any member is none", () => {
    const palette: JsonSchema = { enum: ["red", "green", 3, { hex: "#fff", alpha: 1 }] };
    expect(checkArguments(palette, "blue"), "a value equal to no member: one problem at the root").toEqual([{ path: "", message: expect.any(String) }]);
    for (const ok of ["green", "red", 3, { alpha: 1, hex: "#fff" }]) expect(checkArguments(palette, ok), `${JSON.stringify(ok)} is a member`).toEqual([]);
    expect(paths({ type: "object", properties: { color: palette, size: { enum: ["s", "m"] } } }, { color: 4, size: "m" }), "a nested enum problem at its pointer").toEqual(["/color"]);
  });

  l2("checkArguments additionalProperties: false reports each own key outside properties; true or absent allows them", () => {
    const strict: JsonSchema = { type: "object", properties: { name: { type: "string" } }, additionalProperties: false };
    expect(paths(strict, { name: "x", age: 3, "a/b": 1 }), "every extra key, escaped").toEqual(["/age", "/a~1b"]);
    expect(paths({ ...strict, additionalProperties: true }, { name: "x", age: 3 }), "additionalProperties true allows extra keys").toEqual([]);
    expect(paths({ type: "object", properties: { name: { type: "string" } } }, { age: 3 }), "no additionalProperties allows extra keys").toEqual([]);
    expect(paths({ type: "object", properties: { meta: strict } }, { meta: { name: "y", extra: true } }), "a nested extra key at its pointer").toEqual(["/meta/extra"]);
  });

  l2("checkArguments: required, properties and additionalProperties say nothing about a string, a number, a boolean, null or an array", () => {
    const schema: JsonSchema = { required: ["id"], properties: { id: { type: "string" } }, additionalProperties: false };
    for (const value of ["id-7", 3.5, true, null, ["id"]]) expect(checkArguments(schema, value), `${JSON.stringify(value)} is not an object`).toEqual([]);
    expect(paths(schema, { other: 1 }), "on an object the same schema reports the missing and the extra key").toEqual(["/id", "/other"]);
  });
});

describe("6. Timeouts and retries", () => {
  l2("systemClock.sleep resolves with undefined after its time, rejects with the reason of a signal aborted before or during the wait", async () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now >= before && now <= Date.now(), "systemClock.now() is Date.now()").toBe(true);
    const startedAt = performance.now();
    const value = await systemClock.sleep(40);
    expect(value, "sleep resolves with undefined").toBeUndefined();
    expect(performance.now() - startedAt, "sleep(40) waits on a real timer").toBeGreaterThanOrEqual(30);
    await expect(systemClock.sleep(40, AbortSignal.abort(new Error("already gone"))), "an aborted signal: rejects with its reason").rejects.toThrow("already gone");
    const controller = new AbortController();
    const waiting = systemClock.sleep(5_000, controller.signal);
    setTimeout(() => controller.abort(new Error("stopped early")), 10);
    const abortedAt = performance.now();
    await expect(waiting, "a signal that aborts during the wait: rejects with its reason").rejects.toThrow("stopped early");
    expect(performance.now() - abortedAt, "the wait ends at the abort, not after 5 s").toBeLessThan(4_000);
  });
});

describe("8. Isolation: masking and clean error text", () => {
  l2("maskSecrets inside text: an AWS key between = and ;, Bearer with several blanks, a sub-domained e-mail, 86 without +, a mobile before text, long international numbers", () => {
    const cases: Array<[string, string]> = [
      ["aws_key=AKIAJ7QW2LX9VB4NZ6KD;", "aws_key=[secret];"],
      ["Authorization: Bearer  Zk29xLq0pW", "Authorization: Bearer [secret]"],
      ["bearer\t\tZk29xLq0pW done", "Bearer [secret] done"],
      ["reach ops@mail.eu.example.org today", "reach [email] today"],
      ["tel 8613912345678", "tel [phone]"],
      ["拨打86 13912345678 转 2", "拨打[phone] 转 2"],
      ["手机13712345678，谢谢", "手机[phone]，谢谢"],
      ["call +852 6123 4567 8901 23 now", "call [phone] now"],
      ["+4930123456789012", "[phone]"],
    ];
    for (const [input, want] of cases) expect(maskSecrets(input), JSON.stringify(input)).toBe(want);
  });

  l2("describeError: a ../ path becomes [path], and the text is trimmed", () => {
    expect(describeError(new Error("cannot read ../deploy/secrets.env")), "a ../ path is a path").toBe("Error: cannot read [path]");
    expect(describeError("copy ..\\build\\out.log failed"), "a ..\\ path is a path").toBe("copy [path] failed");
    expect(describeError("\t disk full \t"), "a thrown string is trimmed").toBe("disk full");
    expect(describeError(new RangeError("quota exceeded   \nsecond line")), "the first line is trimmed").toBe("RangeError: quota exceeded");
  });
});

describe("11. Adapters: the history in OpenAI and Anthropic formats", () => {
  l1("OpenAI: system and user messages keep role and content; content next to calls is kept", () => {
    const history: Message[] = [
      { role: "system", content: "Answer briefly." },
      { role: "user", content: "天气?" },
      { role: "assistant", content: "Checking Paris.", tool_calls: [{ id: "w1", name: "weather", arguments: '{"city":"Paris"}' }] },
      { role: "tool", tool_call_id: "w1", name: "weather", content: '{"ok":true,"data":"sunny"}', is_error: false },
      { role: "assistant", content: "Sunny." },
    ];
    expect(toOpenAIMessages(history), "OpenAI: message by message").toEqual([
      { role: "system", content: "Answer briefly." },
      { role: "user", content: "天气?" },
      { role: "assistant", content: "Checking Paris.", tool_calls: [{ id: "w1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "w1", content: '{"ok":true,"data":"sunny"}' },
      { role: "assistant", content: "Sunny." },
    ]);
  });

  l2("Anthropic: system messages anywhere are joined into system; a text block before the calls; results and a later user message share a turn", () => {
    const history: Message[] = [
      { role: "user", content: "q1" },
      { role: "system", content: "rules A" },
      { role: "assistant", content: "looking", tool_calls: [{ id: "u1", name: "search", arguments: '{"q":"x"}' }, { id: "u2", name: "fetch", arguments: "[]" }] },
      { role: "tool", tool_call_id: "u1", name: "search", content: "r1", is_error: false },
      { role: "tool", tool_call_id: "u2", name: "fetch", content: "r2", is_error: true },
      { role: "system", content: "rules B" },
      { role: "user", content: "thanks" },
    ];
    expect(toAnthropicMessages(history), "Anthropic: system joined, turns alternate").toEqual({
      system: "rules A\n\nrules B",
      messages: [
        { role: "user", content: [{ type: "text", text: "q1" }] },
        { role: "assistant", content: [{ type: "text", text: "looking" }, { type: "tool_use", id: "u1", name: "search", input: { q: "x" } }, { type: "tool_use", id: "u2", name: "fetch", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "u1", content: "r1", is_error: false }, { type: "tool_result", tool_use_id: "u2", content: "r2", is_error: true }, { type: "text", text: "thanks" }] },
      ],
    });
  });
});
