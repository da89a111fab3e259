// Kata 4 properties: the calls of BFCL (and calls with nasty arguments) streamed in every dialect,
// with the server quirks of the README injected at random, and raw streams cut where it hurts.
// Each property is one README rule, checked on hundreds of generated streams; each run is one
// `replay` (one call into the kata), whatever the number of events.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { replay, type StreamError } from "@impl/04-stream-assembly";
import { l2, l3 } from "../support/graded.ts";
import {
  anthropicStreamOf, anyStream, brokenArgPlan, chatStreamOf, cutChoices, choose, ERROR_CODES, geminiStreamOf, hostileEvent,
  ollamaStreamOf, rawHardCuts, responsesStreamOf, sseStyle, tagHardCuts, taggedText, textArgumentStream, utf8HardCuts,
  writeNdjson, writeSse,
} from "./arbitraries.ts";
import {
  byteOffsets, chat, chatCall, cutAt, cutBytes, expectStream, readOracle, readTag, readyLog, releasedBy, releasedErrors,
  releasedText, scanTags, utf8, type Stream,
} from "./helpers.ts";

const run = (s: Stream) => replay({ dialect: s.dialect }, { events: s.events });

describe("1. Chat-completions: properties", () => {
  l2.property("chat-completions: BFCL calls streamed with every quirk assemble exactly, each ready in the chunk that ends it", () => {
    fc.assert(fc.property(chatStreamOf(), (s) => expectStream(run(s), s)));
  });
});

describe("2. When a call is ready: properties", () => {
  l2.property("a stream cut after any event readies only the calls that ended before the cut; the calls still open are truncated", () => {
    fc.assert(fc.property(anyStream(true), fc.nat(), (s, n) => {
      const cut = n % (s.events.length + 1);
      const r = replay({ dialect: s.dialect }, { events: s.events.slice(0, cut) });
      const ended = s.outcomes.filter((o) => o.at < cut);
      const open = s.outcomes.filter((o) => o.startAt < cut && o.at >= cut);
      expect(readyLog(r).map(({ at, call }) => [call.index, at]), "only the calls whose end came are ready, each at its end")
        .toEqual(ended.filter((o) => o.reading.ok).sort((a, b) => a.at - b.at || a.index - b.index).map((o) => [o.index, o.at]));
      const truncated = releasedErrors(r).filter((e) => e.code === "truncated");
      expect(truncated.map((e) => [e.callIndex, e.id, e.name]), "every call still open is truncated, at the end")
        .toEqual(open.map((o) => [o.index, o.id, o.name]));
      expect(r.end.errors.filter((e) => e.code === "truncated")).toHaveLength(open.length);
      expect(r.result.status).toBe(s.endAt < cut ? "complete" : "cut");
      expect(r.result.toolTurn).toBe(s.outcomes.some((o) => o.startAt < cut));
    }));
  });

  l2.property("every call that starts ends exactly once: ready, or one error that names it", () => {
    fc.assert(fc.property(anyStream(true), fc.nat(), (s, n) => {
      const cut = n % (s.events.length + 1);
      const r = replay({ dialect: s.dialect }, { events: s.events.slice(0, cut) });
      const started = s.outcomes.filter((o) => o.startAt < cut).map((o) => o.index);
      const ends = [...r.result.calls.map((c) => c.index), ...r.result.errors.flatMap((e) => (e.callIndex === undefined ? [] : [e.callIndex]))];
      expect(ends.sort((a, b) => a - b)).toEqual(started);
    }));
  });
});

describe("3. Reading the arguments: properties", () => {
  l2.property("what is ready is exactly JSON.parse of the completed arguments, never earlier, even when a prefix already parses", () => {
    fc.assert(fc.property(textArgumentStream(true), (s) => expectStream(run(s), s)));
  });

  l2.property("broken arguments never make a call ready: one error with its code and its text", () => {
    const broken = fc.tuple(fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer()), { maxLength: 3 }), fc.nat(99))
      .chain(([entries, salt]) => brokenArgPlan(Object.fromEntries(entries)).map((plan) => ({ plan, salt })));
    fc.assert(fc.property(broken, ({ plan, salt }) => {
      const r = replay({ dialect: "chat-completions" }, { events: [...chatCall(0, `call_${salt}`, "lookup", plan.pieces), chat.finish("tool_calls")] });
      const expected = plan.reading;
      expect(r.result.calls).toEqual(expected.ok ? [expect.objectContaining({ arguments: expected.value })] : []);
      if (!expected.ok) {
        expect(r.result.errors).toEqual([{ code: expected.code, message: expect.any(String), callIndex: 0, id: `call_${salt}`, name: "lookup", raw: expected.raw }]);
        expect(readOracle(plan.pieces)).toEqual(expected);
      }
    }));
  });
});

describe("4. The other dialects: properties", () => {
  l2.property("Responses: calls keyed by item id, ready at their first .done, with arguments in .added or not", () => {
    fc.assert(fc.property(responsesStreamOf(), (s) => expectStream(run(s), s)));
  });

  l2.property("Anthropic: each tool_use block keeps its own arguments, ready at its content_block_stop", () => {
    fc.assert(fc.property(anthropicStreamOf(), (s) => expectStream(run(s), s)));
  });

  l2.property("Gemini: whole functionCall parts, ready in their chunk, ids generated when missing, signatures kept", () => {
    fc.assert(fc.property(geminiStreamOf(), (s) => expectStream(run(s), s)));
  });

  l2.property("Ollama: whole calls with object arguments, ready in their line", () => {
    fc.assert(fc.property(ollamaStreamOf(), (s) => expectStream(run(s), s)));
  });
});

/** The step in which the character at offset `at` arrives, the stream cut at `offsets` (Infinity: the step of end()). */
function stepOfOffset(offsets: number[], at: number): number {
  const cuts = [...new Set(offsets)];
  if (at === Number.POSITIVE_INFINITY) return cuts.length + 1;
  return cuts.filter((c) => c <= at).length;
}

const sseStream = fc.oneof(chatStreamOf(true), responsesStreamOf(true), anthropicStreamOf(true), geminiStreamOf(true));

describe("5. Raw streams: properties", () => {
  l3.property("any split of the server-sent events, inside data:, inside \\r\\n, anywhere, gives what the events give, each call ready in the chunk that completes its event", () => {
    fc.assert(fc.property(sseStream, sseStyle, cutChoices, (s, style, choices) => {
      const raw = writeSse(s.events, style);
      const cuts = choose(raw.text, choices, rawHardCuts(raw.text)).filter((c) => c > 0 && c < raw.text.length);
      const r = replay({ dialect: s.dialect }, { text: cutAt(raw.text, cuts) });
      expectStream(r, s, (k) => stepOfOffset(cuts, raw.dispatch[k]));
    }));
  });

  l3.property("bytes cut inside UTF-8 characters, and Ollama's NDJSON, give what the events give", () => {
    const stream = fc.oneof(sseStream.chain((s) => sseStyle.map((style) => ({ s, raw: writeSse(s.events, style) }))),
      fc.tuple(ollamaStreamOf(true), fc.constantFrom("\n" as const, "\r\n" as const), fc.boolean())
        .map(([s, nl, last]) => ({ s, raw: writeNdjson(s.events, nl, last) })));
    fc.assert(fc.property(stream, cutChoices, ({ s, raw }, choices) => {
      const bytes = utf8(raw.text);
      const cuts = choose(raw.text, choices, utf8HardCuts(bytes)).map((c) => Math.min(c, bytes.length)).filter((c) => c > 0 && c < bytes.length);
      const r = replay({ dialect: s.dialect }, { bytes: cutBytes(bytes, cuts) });
      const offsets = byteOffsets(raw.text);
      const byteOffset = (at: number) => (at === Number.POSITIVE_INFINITY ? at : offsets[at]);
      expectStream(r, s, (k) => stepOfOffset(cuts, byteOffset(raw.dispatch[k])));
    }));
  });

  l3.property("a raw stream cut at any character gives what its complete events give", () => {
    const stream = fc.oneof(sseStream.chain((s) => sseStyle.map((style) => ({ s, raw: writeSse(s.events, { ...style, ending: "blank" }) }))),
      ollamaStreamOf(true).map((s) => ({ s, raw: writeNdjson(s.events, "\n", true) })));
    fc.assert(fc.property(stream, fc.tuple(fc.boolean(), fc.nat()), ({ s, raw }, [hard, n]) => {
      const cut = choose(raw.text, [[hard, n]], rawHardCuts(raw.text))[0];
      const whole = raw.complete.filter((c) => c <= cut).length;
      const fromText = replay({ dialect: s.dialect }, { text: [raw.text.slice(0, cut)] }).result;
      const fromEvents = replay({ dialect: s.dialect }, { events: s.events.slice(0, whole) }).result;
      expect(fromText).toEqual(fromEvents);
      expect(fromText.calls.map((c) => c.index), "the calls whose end is among the complete events")
        .toEqual(s.outcomes.filter((o) => o.at < whole && o.reading.ok).sort((a, b) => a.at - b.at || a.index - b.index).map((o) => o.index));
    }));
  });
});

describe("6. <tool_call> tags in the text: properties", () => {
  l3.property("tags cut anywhere give the same calls and prose; only what may still become a tag is held back", () => {
    fc.assert(fc.property(taggedText, cutChoices, (text, choices) => {
      const cuts = choose(text, choices, tagHardCuts(text)).filter((c) => c > 0 && c < text.length);
      const pieces = cutAt(text, cuts);
      const events = [...pieces.map((p) => chat.text(p)), chat.finish("stop"), "[DONE]"];
      const r = replay({ dialect: "chat-completions", toolCallTags: true }, { events });
      const { prose, tags } = scanTags(text);
      let so = "";
      pieces.forEach((piece, k) => {
        so += piece;
        expect(r.steps.slice(0, k + 1).map((u) => u.text).join(""), `released after piece ${k}`).toBe(releasedBy(so));
      });
      expect(r.result.text).toBe(prose);
      const finishStep = pieces.length;
      const readyAt = (end: number) => stepOfOffset(cuts, end - 1);
      const expectedReady = tags.flatMap((tag, index) => {
        if (tag.end === null) return [];
        const read = readTag(tag.content);
        return read.ok ? [{ at: readyAt(tag.end), call: { index, id: `call_${index}`, name: read.name, arguments: read.value, rawArguments: read.raw } }] : [];
      });
      expect(readyLog(r)).toEqual(expectedReady);
      const expectedErrors = tags.flatMap((tag, index) => {
        const read = tag.end === null ? { ok: false as const, code: "truncated" as const } : readTag(tag.content);
        return read.ok ? [] : [{ code: read.code, callIndex: index, raw: tag.content, at: tag.end === null ? finishStep : readyAt(tag.end) }];
      });
      expect([...r.steps, r.end].flatMap((u, at) => u.errors.map((e) => ({ code: e.code, callIndex: e.callIndex, raw: e.raw, at })))).toEqual(expectedErrors);
    }));
  });
});

describe("7. Limits and hostile streams: properties", () => {
  const isPlainObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

  /** What holds for any run, however hostile its input. */
  function expectSane(result: ReturnType<typeof replay>["result"], errors: StreamError[]): void {
    for (const e of errors) {
      expect(ERROR_CODES, `a README code: ${e.code}`).toContain(e.code);
      expect(typeof e.message).toBe("string");
    }
    for (const call of result.calls) {
      expect(isPlainObject(call.arguments), "ready arguments are an object").toBe(true);
      expect(call.rawArguments === "" ? {} : JSON.parse(call.rawArguments), "read from its text").toEqual(call.arguments);
    }
    const ends = [...result.calls.map((c) => c.index), ...errors.flatMap((e) => (e.callIndex === undefined ? [] : [e.callIndex]))];
    expect(new Set(ends).size, "no call ends twice").toBe(ends.length);
  }

  l3.property("any JSON as events, mixed into real streams, never throws; errors have README codes; no call ends twice", () => {
    const mixed = fc.tuple(anyStream(true), fc.array(fc.tuple(fc.nat(), hostileEvent), { minLength: 1, maxLength: 8 }))
      .map(([s, inserts]) => {
        const events = [...s.events];
        for (const [at, event] of inserts) events.splice(at % (events.length + 1), 0, event);
        return { dialect: s.dialect, events };
      });
    fc.assert(fc.property(mixed, ({ dialect, events }) => {
      const r = replay({ dialect }, { events });
      expectSane(r.result, r.result.errors);
      expect(releasedErrors(r)).toEqual(r.result.errors);
      expect(releasedText(r)).toBe(r.result.text);
      expect(r.result.status).not.toBe("open");
    }));
  });

  l3.property("random bytes and text in any dialect never throw, with or without tags", () => {
    const dialects = ["chat-completions", "responses", "anthropic", "gemini", "ollama"] as const;
    const garbage = fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom("data: ", "\n\n", "\r", "event: error\n", ": c\n", "data: {\"choices\":[", "[DONE]", "<tool_call>", "\uFEFF").map(utf8)), { maxLength: 10 });
    fc.assert(fc.property(fc.constantFrom(...dialects), fc.boolean(), garbage, (dialect, tags, chunks) => {
      const r = replay({ dialect, toolCallTags: tags }, { bytes: chunks });
      expectSane(r.result, releasedErrors(r));
      expect(releasedErrors(r)).toEqual(r.result.errors);
      expect(r.result.status).not.toBe("open");
    }));
  });
});
