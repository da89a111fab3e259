// Tasks 8-9: nothing sensitive reaches the model or the trace; dangerous tools, the policy gate
// and toolChoice decide what may run.
import fc from "fast-check";
import { describe, expect, vi } from "vitest";
import { describeError, maskSecrets } from "@impl/03-agent-loop";
import { l1, l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";
import { cpuTimeMs } from "../support/time-limits.ts";
import {
  BEARER,
  CN_PHONE,
  EMAIL,
  FakeClock,
  ID_NUMBER,
  INTL_PHONE,
  SECRET_KEY,
  SOURCE_PATH,
  leakyError,
  reply,
  scriptedModel,
  spyTool,
  tools,
  type CallSpec,
} from "../support/agent-harness/index.ts";
import { USER, envelope, errorCode, run, toolEvents, toolMessages } from "./helpers.ts";

const SENSITIVE = [SECRET_KEY, BEARER.split(" ")[1], CN_PHONE, INTL_PHONE, ID_NUMBER, EMAIL];

/** truncateText as the README states it: the first `max` code points, then the marker. */
function cutAt(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join("") + `…[truncated ${points.length - max} chars]`;
}

/** Planted values whose every 4-character piece is distinctive, with what maskSecrets makes of them. */
const STRADDLERS = [
  { secret: "sk-Qm7Vx2Lp9Rw4Tz8Nb3Kc6Hd", masked: "[secret]", secretFrom: 0 },
  { secret: "ghp_Wq3Zx8Lv1Ty6Ub4Nk9Mm2Rp7Hs5", masked: "[secret]", secretFrom: 0 },
  { secret: "AKIAQZJXWVKYUTRP7M3N", masked: "[secret]", secretFrom: 0 },
  // "Bearer " itself is no secret: the token after it is.
  { secret: "Bearer Zx8Qw3Lp7Vn2Kt9Rb4", masked: "Bearer [secret]", secretFrom: 7 },
  { secret: "qz7.ops@mx9-corp.io", masked: "[email]", secretFrom: 0 },
  { secret: "13987654321", masked: "[phone]", secretFrom: 0 },
  { secret: "11010519491231002X", masked: "[id_number]", secretFrom: 0 },
];

function expectClean(text: string) {
  for (const s of SENSITIVE) expect(text, "no planted secret or personal data, unmasked").not.toContain(s);
  expect(text, "no file path").not.toContain("/home/deploy");
  expect(text, "no stack trace line").not.toMatch(/\n\s*at /);
  expect(text, "no source file name").not.toContain("weather.ts");
}

describe("8. Isolation: masking and clean error text", () => {
  l1("maskSecrets replaces keys, tokens, phones, ID numbers and e-mails with the documented placeholders", () => {
    expect(maskSecrets(`key ${SECRET_KEY} end`), "an sk- API key: [secret]").toBe("key [secret] end");
    expect(maskSecrets(`auth: ${BEARER}`), "a Bearer token: Bearer [secret]").toBe("auth: Bearer [secret]");
    expect(maskSecrets(`call ${CN_PHONE} now`), "a Chinese mobile number: [phone]").toBe("call [phone] now");
    expect(maskSecrets(`call +86 ${CN_PHONE}`), "a +86 mobile number: [phone]").toBe("call [phone]");
    expect(maskSecrets(`call ${INTL_PHONE}.`), "an international number: [phone]").toBe("call [phone].");
    expect(maskSecrets(`id ${ID_NUMBER}`), "an 18-digit ID number ending in X: [id_number]").toBe("id [id_number]");
    expect(maskSecrets(`id 110105194912310021;`), "an 18-digit ID number: [id_number]").toBe("id [id_number];");
    expect(maskSecrets(`mail ${EMAIL}, ok`), "an e-mail: [email]").toBe("mail [email], ok");
    expect(maskSecrets("电话13912345678，邮箱li.si@example.cn"), "phone and e-mail next to Chinese text and punctuation").toBe("电话[phone]，邮箱[email]");
  });

  l2("maskSecrets: GitHub and AWS key shapes, sk-ant keys; ordinary text and numbers stay", () => {
    expect(maskSecrets("ghp_" + "a1B2".repeat(9)), "a GitHub token: [secret]").toBe("[secret]");
    expect(maskSecrets("AKIAIOSFODNN7EXAMPLE"), "an AWS access key id: [secret]").toBe("[secret]");
    expect(maskSecrets("sk-ant-api03-abcdefghijklmnop_QR"), "an sk-ant key: [secret]").toBe("[secret]");
    const plain = "北京 21°C, order 12345, year 2024, price 1,299.00, task-sk-1 ok, 1234567890";
    expect(maskSecrets(plain), "ordinary text and numbers are left alone").toBe(plain);
    // Too long to be a phone or an ID number: left alone.
    expect(maskSecrets("1381234567890123456789"), "a digit run too long for a phone or ID number stays").toBe("1381234567890123456789");
  });

  l2("maskSecrets is linear: 1 MB of long letter and digit runs (no '@') in well under a second", () => {
    // A pattern that may restart at every position of a 5000-character run is quadratic here
    // (seconds); a linear one takes milliseconds.
    const big = ("a".repeat(5000) + " " + "1".repeat(5000) + " sk-" + "b".repeat(5000) + " " + EMAIL + " ").repeat(66);
    // CPU time, which load does not stretch (spec/support/time-limits.ts).
    let masked = "";
    const cpuMs = cpuTimeMs(() => (masked = maskSecrets(big)));
    expect(cpuMs, "maskSecrets stays linear on 1 MB of look-alike runs (CPU ms)").toBeLessThan(1000);
    expect(masked, "the e-mail after the long runs is still masked").not.toContain(EMAIL);
    expect(masked, "the e-mail is replaced by [email]").toContain("[email]");
  });

  l1("a tool's result is masked before it reaches the messages", async () => {
    const t = tools.ok("lookup", { phone: CN_PHONE, note: `key=${SECRET_KEY}`, nested: [{ mail: EMAIL, id: ID_NUMBER }], [EMAIL]: 1 });
    const model = scriptedModel([reply.calls(["lookup", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [t] });
    expectClean(JSON.stringify(r.messages));
    expect(envelope(toolMessages(r)[0]), "every string of a result is masked, keys included, at any depth; numbers stay").toEqual({
      ok: true,
      data: { phone: "[phone]", note: "key=[secret]", nested: [{ mail: "[email]", id: "[id_number]" }], "[email]": 1 },
    });
    expectClean(JSON.stringify(model.requests[1]));
  });

  l1("a thrown error reaches the model without its stack, file paths or secrets", async () => {
    const model = scriptedModel([reply.calls(["weather", {}]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.throws("weather")] });
    const [m] = toolMessages(r);
    expect(errorCode(m), "a thrown error: tool_error").toBe("tool_error");
    expectClean(m.content);
    expect(m.content, "the error's message is masked").toContain("connect failed for [email] with key [secret]");
    expect(m.content, "paths in an error message become [path]").toContain("[path]");
  });

  l2("masking comes before the cut: a secret straddling maxResultChars never shows in part", async () => {
    const [key, token, mail] = ["sk-Qm7Vx2Lp9Rw4Tz8Nb3Kc6Hd", "ghp_Wq3Zx8Lv1Ty6Ub4Nk9Mm2Rp7Hs5", "qz7.ops@mx9-corp.io"];
    // maxResultChars 22 falls inside each secret of the raw texts: "token: sk-Qm7Vx2Lp9Rw4|...",
    // '{"note":"mail qz7.ops@|...', "blocked: ghp_Wq3Zx8Lv1|...". Masked first, the cut falls after the placeholder.
    const model = scriptedModel([reply.calls(["text", {}], ["record", {}], ["guarded", {}]), reply.text("ok")]);
    const guarded = tools.ok("guarded");
    const r = await run({
      model,
      runId: "run_straddle",
      maxResultChars: 22,
      tools: [tools.ok("text", `token: ${key} and more text after it`), tools.ok("record", { note: `mail ${mail} please`, n: 1 }), guarded],
      policy: ({ call }) => (call.name === "guarded" ? { allow: false, reason: `blocked: ${token} (see audit log)` } : { allow: true }),
    });
    expect(toolMessages(r).map(envelope), "masked first, then cut: each text is cut after its placeholder").toEqual([
      { ok: true, data: "token: [secret] and mo…[truncated 16 chars]" },
      { ok: true, data: '{"note":"mail [email] …[truncated 14 chars]' },
      { ok: false, error: { code: "denied", message: "blocked: [secret] (see…[truncated 11 chars]" } },
    ]);
    expect(guarded.executions, "the denied call did not run").toBe(0);
    const written = JSON.stringify([toolMessages(r), r.trace]);
    for (const secret of [key, token, mail]) expect(leakedPieces(written, secret), `pieces of ${secret} shown by a cut`).toEqual([]);
  });

  l2.property("a cut anywhere inside a secret never shows a piece of it: results, structured results and reasons", async () => {
    const filler = fc.string({ unit: fc.constantFrom("a", "b", " ", "北", "京", "，", "😀"), maxLength: 10 });
    const caseArb = fc.record({
      planted: fc.constantFrom(...STRADDLERS),
      shape: fc.constantFrom("string" as const, "object" as const, "reason" as const),
      before: filler.map((t) => `${t} `),
      after: filler.map((t) => ` ${t}`),
      // Where the raw text is cut, counted in code points from the start of the secret (inside it).
      at: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ planted, shape, before, after, at }) => {
        const { secret, masked, secretFrom } = planted;
        const inside = secretFrom + 1 + (at % (secret.length - secretFrom - 1));
        const raw = before + secret + after;
        const clean = before + masked + after;
        // The code points before the secret in the raw text the cut is measured on.
        const lead = Array.from(shape === "object" ? '{"note":"' + before : before).length;
        const maxResultChars = lead + inside;
        const t = tools.ok("t", shape === "string" ? raw : { note: raw });
        const model = scriptedModel([reply.calls(["t", {}]), reply.text("ok")]);
        const r = await run({
          model,
          tools: [t],
          runId: "run_straddle",
          maxResultChars,
          ...(shape === "reason" ? { policy: () => ({ allow: false as const, reason: raw }) } : {}),
        });
        const [message] = toolMessages(r);
        if (shape === "reason") {
          expect(envelope(message), "the reason is masked, then cut to maxResultChars").toEqual({ ok: false, error: { code: "denied", message: cutAt(clean, maxResultChars) } });
        } else {
          const text = shape === "string" ? clean : JSON.stringify({ note: clean });
          const data = Array.from(text).length > maxResultChars ? cutAt(text, maxResultChars) : shape === "string" ? clean : { note: clean };
          expect(envelope(message), "the result is masked, then measured and cut").toEqual({ ok: true, data });
        }
        expect(leakedPieces(JSON.stringify([message, r.trace]), secret.slice(secretFrom)), "no piece of a secret cut in half").toEqual([]);
      }),
    );
  });

  l2("describeError: name and first line, paths replaced by [path], secrets masked", () => {
    expect(describeError(leakyError("open /etc/app/secret.json failed")), "describeError: '<name>: <message>' with the path replaced").toBe("Error: open [path] failed");
    expect(describeError(new RangeError("bad\n    at x (/a/b.js:1:1)")), "describeError keeps the first line only").toBe("RangeError: bad");
    expect(describeError(new Error(`see C:\\Users\\dev\\app.ts:3 and ./src/x.ts and ~/keys`)), "describeError: Windows, relative and home paths become [path]").toBe("Error: see [path] and [path] and [path]");
    expect(describeError("plain string " + CN_PHONE), "describeError: a thrown string is masked").toBe("plain string [phone]");
    expect(describeError(new Error("5 / 3 is fine")), "describeError: a lone / is not a path").toBe("Error: 5 / 3 is fine");
  });

  l2("the completion answer and the policy's reason are masked too", async () => {
    const model = scriptedModel([reply.calls(["a", {}]), reply.calls(["done", {}])]);
    const r = await run({
      model,
      tools: [tools.ok("a"), tools.finish("done", `sent to ${EMAIL}`)],
      policy: ({ call }) => (call.name === "a" ? { allow: false, reason: `user ${CN_PHONE} may not` } : { allow: true }),
    });
    expect(r.status, "the run ends through the $finish result").toBe("finished");
    expect(r.finalText, "the $finish answer is masked").toBe("sent to [email]");
    expect(toolMessages(r)[0].content, "the policy's reason is masked").toContain("[phone]");
    expectClean(JSON.stringify(r.messages));
  });

  l3("nothing sensitive reaches the trace: arguments, errors and results are masked", async () => {
    const model = scriptedModel([reply.calls(["weather", { key: SECRET_KEY, phone: CN_PHONE }], ["lookup", { who: EMAIL }]), reply.text("ok")]);
    const r = await run({ model, tools: [tools.throws("weather"), tools.ok("lookup", { id: ID_NUMBER })] });
    const trace = JSON.stringify(r.trace);
    expectClean(trace);
    const events = toolEvents(r);
    expect(events, "one tool_call event per call").toHaveLength(2);
    expect(trace, "the trace's arguments are masked").toContain("[secret]");
  });

  l2("describeError: a value that is not an Error is its JSON, or String(value) when it has none; the result is trimmed", () => {
    expect(describeError({ code: 42 }), "describeError: an object is its JSON").toBe('{"code":42}');
    expect(describeError(42), "describeError: a number is its JSON").toBe("42");
    expect(describeError(null), "describeError: null is its JSON").toBe("null");
    expect(describeError(undefined), "describeError: undefined has no JSON: String(value)").toBe("undefined");
    expect(describeError(BigInt(10)), "describeError: a BigInt has no JSON: String(value)").toBe("10");
    expect(describeError("   padded message   "), "describeError trims the result").toBe("padded message");
  });

  l2("describeError: path tokens of every documented kind become [path]; a lone / stays", () => {
    expect(describeError("open C:\\Users\\me\\key.txt failed"), "describeError: a Windows drive path").toBe("open [path] failed");
    expect(describeError("read D:/data/x.json"), "describeError: a drive path with forward slashes").toBe("read [path]");
    expect(describeError("see ./conf/a.json, ../b.txt and ~/c"), "describeError: ./, ../ and ~/ paths").toBe("see [path], [path] and [path]");
    expect(describeError("load .\\win\\x and ..\\up"), "describeError: .\\\\ and ..\\\\ paths").toBe("load [path] and [path]");
    expect(describeError("at file:///srv/app.js:1:2"), "describeError: a file:// URL").toBe("at [path]");
    expect(describeError("(/tmp/x) [/var/y] x=/etc/passwd,z"), "describeError: paths after ( [ = and before , or a bracket").toBe("([path]) [[path]] x=[path],z");
    expect(describeError("5 / 3 and a/b and key:/v"), "describeError: a lone / and a/b are not paths; after : a path starts").toBe("5 / 3 and a/b and key:[path]");
  });

  l2("maskSecrets: key and token rules match exactly the documented shapes", () => {
    const sk = "sk-" + "a1B2".repeat(5);
    expect(maskSecrets(`key ${sk}!`), "an sk- key of 20 characters: [secret]").toBe("key [secret]!");
    expect(maskSecrets("sk-short1234"), "an sk- key shorter than 16 after sk- stays").toBe("sk-short1234");
    expect(maskSecrets(`task-${sk.slice(3)} x${sk}`), "an sk- key glued to a word character or a hyphen stays").toBe(`task-${sk.slice(3)} x${sk}`);
    const ghp = "ghp_" + "Ab1_".repeat(5);
    expect(maskSecrets(`token ${ghp}.`), "a ghp_ token: [secret]").toBe("token [secret].");
    expect(maskSecrets(`ghp_${"a".repeat(19)} x${ghp}`), "a ghp_ token of 19 characters, or glued to a letter, stays").toBe(`ghp_${"a".repeat(19)} x${ghp}`);
    const akia = "AKIA" + "ABCDEFGH23456789";
    expect(maskSecrets(`id ${akia} end`), "an AKIA key id: [secret]").toBe("id [secret] end");
    expect(maskSecrets(`${akia}X x${akia} AKIA${"abcdefgh23456789"}`), "an AKIA look-alike glued to letters or lower-case stays").toBe(`${akia}X x${akia} AKIA${"abcdefgh23456789"}`);
    expect(maskSecrets("auth: bearer   abc.DEF-12_~+/= ok"), "bearer is matched case-insensitively, any whitespace, the documented token characters").toBe("auth: Bearer [secret] ok");
    expect(maskSecrets("Bearer short"), "a Bearer token shorter than 8 characters stays").toBe("Bearer short");
  });

  l2("maskSecrets: e-mail, ID number and phone rules match exactly the documented shapes", () => {
    expect(maskSecrets("mail a.b+c@mail.example.co.uk now"), "an e-mail with dots, plus and subdomains: [email]").toBe("mail [email] now");
    expect(maskSecrets("x@y.c and @example.com"), "x@y.c (one-letter TLD) and @domain alone stay").toBe("x@y.c and @example.com");
    expect(maskSecrets("id 11010519491231002x."), "an ID number ending in x: [id_number]").toBe("id [id_number].");
    expect(maskSecrets("id 110105194912310021"), "an 18-digit ID number: [id_number]").toBe("id [id_number]");
    expect(maskSecrets("n 1101051949123100211 a110105194912310021"), "19 digits, or 18 glued to a letter, stay").toBe("n 1101051949123100211 a110105194912310021");
    expect(maskSecrets("call +86 13812345678, 8613912345678 or +86-15012345678"), "+86 mobiles with space, none or hyphen: [phone]").toBe("call [phone], [phone] or [phone]");
    expect(maskSecrets("not 12345678901 nor 138123456789"), "11 digits not starting 1[3-9], and 12 digits, stay").toBe("not 12345678901 nor 138123456789");
    expect(maskSecrets("ring +1 415 555 2671 or +33.1.23.45.67.89 now"), "international numbers with spaces and dots: [phone]").toBe("ring [phone] or [phone] now");
    // A country code of up to 3 digits, then up to 14 more: 17 digits in all.
    expect(maskSecrets("call +99912345678901234 now"), "a 3-digit country code and 14 more digits: [phone]").toBe("call [phone] now");
    expect(maskSecrets("a+1234567 and +12 345"), "+ glued to a letter, or too few digits, stays").toBe("a+1234567 and +12 345");
  });

  l2("a path in a tool's result is data: it comes back as it is (only error text loses its paths)", async () => {
    const listing = { files: ["/srv/reports/2024-q3.csv", "./notes/todo.md"], root: "C:\\data" };
    const r = await run({ model: scriptedModel([reply.calls(["ls", {}]), reply.text("ok")]), tools: [tools.ok("ls", listing)] });
    expect(envelope(toolMessages(r)[0]), "results are masked, not scrubbed of paths").toEqual({ ok: true, data: listing });
  });

  l2("describeError: a line ends at \\n, \\r\\n or \\r", () => {
    expect(describeError(new Error("first\rsecond")), "a lone \\r ends the first line").toBe("Error: first");
    expect(describeError("one\r\ntwo"), "\\r\\n ends the first line").toBe("one");
  });
});

describe("9. Approval, policy gate and toolChoice", () => {
  const dangerous = () => tools.ok("delete_file", { deleted: true }, { dangerous: true });

  l1("a dangerous tool runs when approve says yes", async () => {
    const t = dangerous();
    const asked: unknown[] = [];
    const model = scriptedModel([reply.calls(["delete_file", { path: "a.txt" }, "d1"]), reply.text("ok")]);
    const r = await run({ model, tools: [t], approve: (req) => (asked.push(req), true), runId: "r1" });
    expect(t.executions, "an approved dangerous tool runs").toBe(1);
    expect(asked, "approve gets { runId, call: { id, name, arguments } }").toEqual([{ runId: "r1", call: { id: "d1", name: "delete_file", arguments: { path: "a.txt" } } }]);
    expect(toolMessages(r)[0].is_error, "the approved call's result is ok").toBe(false);
  });

  l1("denied: the dangerous tool does not run and the model is told (not_approved)", async () => {
    const t = dangerous();
    const model = scriptedModel([reply.calls(["delete_file", { path: "a.txt" }]), reply.text("ok, I won't")]);
    const r = await run({ model, tools: [t], approve: async () => false });
    expect(t.executions, "a dangerous tool that was not approved never runs").toBe(0);
    expect(errorCode(toolMessages(r)[0]), "not approved: not_approved").toBe("not_approved");
    expect(r.status, "the loop goes on after not_approved").toBe("completed");
    expect(model.requests[1].messages.at(-1)?.role, "the model reads the not_approved tool message").toBe("tool");
  });

  l2("fail closed: no approve callback, or one that throws, means not approved", async () => {
    const t = dangerous();
    const model = scriptedModel([reply.calls(["delete_file", {}]), reply.calls(["delete_file", { x: 1 }]), reply.text("ok")]);
    const r1 = await run({ model, tools: [t], approve: undefined, maxSteps: 1 });
    expect(errorCode(toolMessages(r1)[0]), "no approve callback: not_approved").toBe("not_approved");
    const model2 = scriptedModel([reply.calls(["delete_file", {}]), reply.text("ok")]);
    const r2 = await run({
      model: model2,
      tools: [t],
      approve: () => {
        throw new Error("ui crashed");
      },
    });
    expect(errorCode(toolMessages(r2)[0]), "a throwing approve: not_approved").toBe("not_approved");
    expect(t.executions, "fail closed: the dangerous tool never runs").toBe(0);
  });

  l2("approve is not asked for tools that are not dangerous", async () => {
    let asked = 0;
    const t = tools.ok("read");
    const model = scriptedModel([reply.calls(["read", {}]), reply.text("ok")]);
    await run({ model, tools: [t], approve: () => (asked++, false) });
    expect(asked, "approve is never asked about a tool that is not dangerous").toBe(0);
    expect(t.executions, "the non-dangerous tool runs without approval").toBe(1);
  });

  l1("the policy gate can deny a call with a reason: denied, not run, the reason is in the message", async () => {
    const t = tools.ok("refund");
    const model = scriptedModel([reply.calls(["refund", { amount: 100 }]), reply.text("ok")]);
    const r = await run({ model, tools: [t], policy: () => ({ allow: false, reason: "this user may not refund" }) });
    expect(t.executions, "a denied call never runs").toBe(0);
    expect(envelope(toolMessages(r)[0]), "denied: the policy's reason is the message").toEqual({ ok: false, error: { code: "denied", message: "this user may not refund" } });
  });

  l2("the policy sees the step and the calls executed in earlier steps (a call that must follow another)", async () => {
    const login = tools.ok("login");
    const pay = tools.ok("pay");
    const model = scriptedModel([reply.calls(["pay", { n: 1 }]), reply.calls(["login", { u: "a" }]), reply.calls(["pay", { n: 2 }]), reply.text("ok")]);
    const seen: Array<{ step: number; names: string[] }> = [];
    const r = await run({
      model,
      tools: [login, pay],
      policy: ({ call, step, history }) => {
        seen.push({ step, names: history.map((h) => h.name) });
        return call.name === "pay" && !history.some((h) => h.name === "login" && h.ok)
          ? { allow: false, reason: "log in first" }
          : { allow: true };
      },
    });
    expect(toolMessages(r).map(errorCode), "the policy denies pay until a login has executed").toEqual(["denied", undefined, undefined]);
    expect(pay.calls, "pay runs only once allowed").toEqual([{ n: 2 }]);
    expect(seen, "the policy sees the step and the calls executed in earlier steps").toEqual([
      { step: 1, names: [] },
      { step: 2, names: [] },
      { step: 3, names: ["login"] },
    ]);
  });

  l2("the policy's history never holds a call of its own step, even one that already ran", async () => {
    const clock = new FakeClock();
    const read = tools.ok("read", "contents");
    const audit = tools.ok("audit", "audited");
    const asked: Record<string, { ran: number; history: unknown[] }> = {};
    const answering: Record<string, unknown[]> = {};
    const policy = async ({ call, history }: { call: { id: string; name: string }; history: unknown[] }) => {
      asked[call.id] = { ran: read.executions + audit.executions, history: structuredClone(history) };
      if (call.name === "audit") {
        // Decides for 30 ms, while the step's other calls run and finish.
        await clock.sleep(30);
        answering[call.id] = structuredClone(history);
      }
      return { allow: true as const };
    };
    const model = scriptedModel([
      reply.calls(["read", { f: 1 }, "r1"]),
      reply.calls(["read", { f: 2 }, "r2"], ["audit", {}, "a2"], ["read", { f: 3 }, "r3"]),
      reply.calls(["read", { f: 4 }, "r4"]),
      reply.text("ok"),
    ]);
    const r = await run({ model, clock, tools: [read, audit], policy, concurrency: 2 });
    expect(r.status, "the run completes").toBe("completed");
    const step1 = [{ name: "read", arguments: { f: 1 }, ok: true }];
    expect(asked.r3, "r3 waited for a slot: r2 of its own step had run when its policy was asked").toEqual({ ran: 2, history: step1 });
    expect(answering.a2, "while a2's policy decided, r2 and r3 of its own step ran: still not in its history").toEqual(step1);
    expect([asked.r2.history, asked.a2.history], "the other calls of step 2 see step 1 only").toEqual([step1, step1]);
    const byText = (h: unknown[]) => h.map((x) => JSON.stringify(x)).sort();
    expect(byText(asked.r4.history), "step 3 sees every call that executed in steps 1 and 2").toEqual(byText([
      ...step1,
      { name: "read", arguments: { f: 2 }, ok: true },
      { name: "audit", arguments: {}, ok: true },
      { name: "read", arguments: { f: 3 }, ok: true },
    ]));
  });

  l2.property("the policy's history is the executed calls of earlier steps, however the calls of a step overlap", async () => {
    type Kind = "work" | "boom" | "blocked" | "ghost" | "invalid";
    // Small concurrency, tools that often take no time and policies that often take a while: calls
    // of one step run and finish while other calls of the same step are asked about.
    const callArb = fc.record({
      kind: fc.constantFrom<Kind>("work", "work", "boom", "blocked", "ghost", "invalid"),
      d: fc.constantFrom(0, 0, 10),
      w: fc.constantFrom(0, 20),
    });
    const stepsArb = fc.tuple(fc.array(callArb, { minLength: 1, maxLength: 3 }), fc.array(callArb, { minLength: 2, maxLength: 4 }));
    const schema = { type: "object" as const, properties: { k: { type: "integer" as const }, d: { type: "integer" as const }, w: { type: "integer" as const } }, required: ["k", "d", "w"] };
    await fc.assert(
      fc.asyncProperty(stepsArb, fc.constantFrom(1, 1, 2, 3), async (steps, concurrency) => {
        const clock = new FakeClock();
        const act = (fails: boolean) => async (args: Record<string, unknown>, ctx: { signal: AbortSignal }) => {
          if ((args.d as number) > 0) await clock.sleep(args.d as number, ctx.signal);
          if (fails) throw new Error(`call ${String(args.k)} failed`);
          return { k: args.k };
        };
        const toolset = [spyTool("work", act(false), { parameters: schema }), spyTool("boom", act(true), { parameters: schema }), spyTool("blocked", act(false), { parameters: schema })];
        let k = 0;
        const planned = steps.map((calls) => calls.map((c) => ({ ...c, k: k++ })));
        const replies = planned.map((calls) =>
          reply.calls(...calls.map((c): CallSpec => [c.kind === "ghost" ? "ghost" : c.kind === "invalid" ? "work" : c.kind, { k: c.k, d: c.kind === "invalid" ? "soon" : c.d, w: c.w }])),
        );
        const seen: Array<{ step: number; k: number; history: unknown[] }> = [];
        const policy = async ({ call, step, history }: { call: { name: string; arguments: Record<string, unknown> }; step: number; history: unknown[] }) => {
          const key = call.arguments.k as number;
          seen.push({ step, k: key, history: structuredClone(history) });
          if ((call.arguments.w as number) > 0) {
            await clock.sleep(call.arguments.w as number);
            seen.push({ step, k: key, history: structuredClone(history) });
          }
          return call.name === "blocked" ? { allow: false as const, reason: "blocked" } : { allow: true as const };
        };
        const r = await run({ model: scriptedModel([...replies, reply.text("ok")]), clock, tools: toolset, policy, concurrency });
        expect(r.status, "the run completes").toBe("completed");
        const asked = planned.flat().filter((c) => c.kind === "work" || c.kind === "boom" || c.kind === "blocked");
        expect(new Set(seen.map((s) => s.k)), "the policy is asked about every call that passes the argument check").toEqual(new Set(asked.map((c) => c.k)));
        const executedBefore = (step: number) =>
          planned.slice(0, step - 1).flat().filter((c) => c.kind === "work" || c.kind === "boom")
            .map((c) => ({ name: c.kind, arguments: { k: c.k, d: c.d, w: c.w }, ok: c.kind === "work" }));
        const byK = (h: unknown[]) => [...(h as Array<{ arguments: { k: number } }>)].sort((x, y) => x.arguments.k - y.arguments.k);
        for (const s of seen) {
          expect(byK(s.history), `call ${s.k} of step ${s.step}: the history is the calls of earlier steps that executed, none of its own step`).toEqual(executedBefore(s.step));
        }
      }),
    );
  });

  l2("the policy runs before approval, and a policy that throws denies", async () => {
    const t = dangerous();
    let asked = 0;
    const model = scriptedModel([reply.calls(["delete_file", {}]), reply.text("ok")]);
    const r = await run({
      model,
      tools: [t],
      approve: () => (asked++, true),
      policy: () => {
        throw new Error("policy store down");
      },
    });
    expect(asked, "the policy runs before approval: a denial asks no approval").toBe(0);
    expect(t.executions, "a denied call never runs").toBe(0);
    expect(errorCode(toolMessages(r)[0]), "a throwing policy denies").toBe("denied");
  });

  l2("toolChoice is passed to the model on every request", async () => {
    const model = scriptedModel([reply.calls(["get_weather", {}]), reply.calls(["done", {}])]);
    await run({ model, tools: [tools.ok("get_weather"), tools.finish("done", "x")], toolChoice: "required" });
    expect(model.requests.map((q) => q.toolChoice), "toolChoice is passed on every request").toEqual(["required", "required"]);
  });

  l2("toolChoice none: calls that come back anyway are not run; each gets tool_choice", async () => {
    const t = tools.ok("get_weather");
    const model = scriptedModel([reply.calls(["get_weather", {}]), reply.text("fine")]);
    const r = await run({ model, tools: [t], toolChoice: "none" });
    expect(t.executions, "toolChoice none: no call runs").toBe(0);
    expect(toolMessages(r).map(errorCode), "toolChoice none: each call gets tool_choice").toEqual(["tool_choice"]);
    expect(r.status, "the loop goes on after tool_choice").toBe("completed");
  });

  l2("toolChoice {name}: only that tool may run; other calls get tool_choice", async () => {
    const a = tools.ok("a");
    const b = tools.finish("b", "done");
    const model = scriptedModel([reply.calls(["a", {}], ["b", {}])]);
    const r = await run({ model, tools: [a, b], toolChoice: { name: "b" } });
    expect(r.status, "the named tool's $finish ends the run").toBe("finished");
    expect([a.executions, b.executions], "toolChoice { name }: only that tool runs").toEqual([0, 1]);
    expect(toolMessages(r).map(errorCode), "toolChoice { name }: other calls get tool_choice").toEqual(["tool_choice", undefined]);
  });

  l3("toolChoice required: a reply without calls is not a final answer; a user reminder is added and the model asked again", async () => {
    const model = scriptedModel([reply.text("I think..."), reply.calls(["done", {}])]);
    const r = await run({ model, tools: [tools.finish("done", "ok")], toolChoice: "required" });
    expect(r.status, "toolChoice required: the run ends through $finish").toBe("finished");
    expect(model.requests, "a reply without calls is not final: the model is asked again").toHaveLength(2);
    expect(r.messages.slice(2).map((m) => m.role), "the plain reply is followed by a user reminder").toEqual(["assistant", "user", "assistant", "tool"]);
    const reminder = r.messages[3];
    expect(reminder.role === "user" && reminder.content.length > 0, "the reminder is a non-empty user message").toBe(true);
  });

  l3("a dangerous tool asked for under a denying policy never runs, whatever approve says", async () => {
    const t = spyTool("wipe", () => "wiped", { dangerous: true });
    const model = scriptedModel([reply.calls(["wipe", {}]), reply.text("ok")]);
    await run({ model, tools: [t], approve: () => true, policy: () => ({ allow: false, reason: "no" }) });
    expect(t.executions, "a denying policy wins over approve: the tool never runs").toBe(0);
    expect(model.requests, "the loop goes on after the denial").toHaveLength(2);
  });

  l2("toolChoice {name}: a reply without calls is not a final answer; the named tool's $finish ends the run", async () => {
    const model = scriptedModel([reply.text("I think it is sunny"), reply.calls(["answer", {}])]);
    const r = await run({ model, toolChoice: { name: "answer" }, tools: [tools.finish("answer", "sunny")] });
    expect(r.status, "toolChoice { name }: the named tool's $finish ends the run").toBe("finished");
    expect(r.finalText, "finalText is the $finish string").toBe("sunny");
    expect(r.steps, "the plain reply did not end the run: two requests").toBe(2);
    expect(r.messages[USER.length], "the plain reply is appended as an assistant message").toEqual({ role: "assistant", content: "I think it is sunny" });
    expect(r.messages[USER.length + 1].role, "then a user reminder follows").toBe("user");
  });

  l2("approve is asked once per call, not once per attempt: retries of an approved call are not asked again", async () => {
    const approve = vi.fn(() => true);
    const t = tools.flaky("deploy", 2, "deployed", { dangerous: true });
    const r = await run({ model: scriptedModel([reply.calls(["deploy", {}]), reply.text("ok")]), tools: [t], approve, retries: 2 });
    expect(t.executions, "the flaky tool ran three times").toBe(3);
    expect(approve, "one approval for the call").toHaveBeenCalledTimes(1);
    expect(envelope(toolMessages(r)[0]), "the third attempt's result").toEqual({ ok: true, data: "deployed" });
  });
});
