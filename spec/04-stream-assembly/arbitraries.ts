// Generators for kata 4: the calls of BFCL (and calls with nasty arguments) streamed in each of the
// five dialects, with the server quirks of the README injected at random, written as parsed events
// together with what the stream must give: the text, each call's outcome and the event that ends
// it. Argument texts are cut where it hurts (inside escapes, inside surrogate pairs, right after a
// prefix that already parses) and are sometimes broken on purpose (glued objects, junk after a
// complete object, a `{}` placeholder, not an object), with the README's reading rule as the oracle.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { ErrorCode } from "@impl/04-stream-assembly";
import {
  anthropic, chat, gemini, ollama, readOracle, responses, type Fragment, type Outcome, type Reading, type Stream,
} from "./streams.ts";

// ---------------------------------------------------------------------------------------------
// Calls

export interface CallSpec {
  name: string;
  arguments: Record<string, unknown>;
}

/** An object with own keys, as JSON.parse builds it (so `__proto__` is a real key). */
export function objectOf(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const jsonLines = (path: string): any[] =>
  readFileSync(new URL(`../data/bfcl/${path}`, import.meta.url), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

let bfcl: CallSpec[][] | undefined;

/** The ground truths of BFCL (simple, multiple, parallel, parallel_multiple): one turn's calls each. */
export function bfclTurns(): CallSpec[][] {
  bfcl ??= ["simple_python", "multiple", "parallel", "parallel_multiple"].flatMap((category) =>
    jsonLines(`possible_answer/BFCL_v4_${category}.json`).map((answer) =>
      answer.ground_truth.map((call: Record<string, Record<string, unknown[]>>): CallSpec => {
        const [name, params] = Object.entries(call)[0];
        const args = Object.entries(params).flatMap(([key, options]) => {
          const chosen = options.find((option) => option !== "");
          return chosen === undefined ? [] : [[key, chosen] as const];
        });
        return { name, arguments: objectOf(args) };
      })));
  return bfcl;
}

/** Strings that break hand-written assembly: quotes, braces, tags, escapes, unicode. */
export const nastyString: fc.Arbitrary<string> = fc.array(fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("\"", "\\", "{", "}", "}{", "[", "]", ",", ":", "\n", "\r\n", "\t", "\u0000", "\u2028",
    "北京", "天气", "😀", "𝄞", "👩‍💻", "é", "<tool_call>", "</tool_call>", "data: ", "[DONE]", "\\u00e9", "\\\"", "null", " ") },
  { weight: 2, arbitrary: fc.string({ maxLength: 5 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 3 }) },
), { maxLength: 6 }).map((pieces) => pieces.join(""));

const keyName = fc.oneof(fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/), fc.constantFrom("城市", "__proto__", "constructor", "a b", "\"q\""));

const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const jsonData: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: jsonLeaf },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.tuple(keyName, tie("value")), { maxLength: 3, selector: ([k]) => k }).map(objectOf) },
  ),
})).value;

const nastyCall: fc.Arbitrary<CallSpec> = fc.record({
  name: fc.oneof(fc.stringMatching(/^[a-z_][a-z0-9_.]{0,12}$/), fc.constantFrom("terminal", "get_weather", "math.factorial", "天气")),
  arguments: fc.uniqueArray(fc.tuple(keyName, jsonData), { maxLength: 4, selector: ([k]) => k }).map(objectOf),
});

/** The calls of one turn: a BFCL ground truth most of the time, nasty calls otherwise. */
export const turnCalls: fc.Arbitrary<CallSpec[]> = fc.oneof(
  { weight: 3, arbitrary: fc.nat().map((i) => bfclTurns()[i % bfclTurns().length]) },
  { weight: 2, arbitrary: fc.array(nastyCall, { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constant([] as CallSpec[]) },
);

/** Text of the answer, cut into pieces. */
export const textPieces: fc.Arbitrary<string[]> = fc.array(fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom("Let me check.", " 北京", "😀", "\n\n", "<b>", "a < b", "{\"not\": \"a call\"}", "data: x") },
), { maxLength: 4 });

// ---------------------------------------------------------------------------------------------
// Argument text and where it is cut

/** Positions in `text` worth cutting at: after a backslash, inside a surrogate pair, at brackets. */
function hardCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const before = text.charCodeAt(i - 1);
    if (before === 0x5c || (c & 0xfc00) === 0xdc00 || before === 0x7b || c === 0x7d || before === 0x22) cuts.push(i);
  }
  return cuts;
}

/** Cut choices: each either a hard place (by number) or any place. */
export const cutChoices = fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 10 });

export function choose(text: string, choices: readonly (readonly [boolean, number])[], hard: readonly number[]): number[] {
  return choices.map(([isHard, n]) => (isHard && hard.length > 0 ? hard[n % hard.length] : n % (text.length + 1)));
}

/** `text` in fragments: cut at the chosen places; empty fragments where two cuts meet are kept as "". */
function fragmentsOf(text: string, choices: readonly (readonly [boolean, number])[]): string[] {
  const cuts = choose(text, choices, hardCuts(text)).sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** How a call's arguments are sent, and what reading them must give. */
export interface ArgPlan {
  pieces: string[];
  reading: Reading;
}

type ArgKind = "valid" | "spaced" | "pretty" | "placeholder" | "early-junk" | "glued" | "cut-short" | "not-object" | "blank";

const BROKEN: readonly ArgKind[] = ["early-junk", "glued", "cut-short", "not-object", "blank"];

function argText(args: Record<string, unknown>, kind: ArgKind, n: number): string {
  const compact = JSON.stringify(args);
  switch (kind) {
    case "valid":
    case "placeholder": return compact;
    case "spaced": return JSON.stringify(args).replace(/^\{/, "{ ").replace(/\}$/, " }");
    case "pretty": return JSON.stringify(args, null, 2) + "\n";
    case "early-junk": return compact + ", \"limit\": 10}";
    case "glued": return compact + JSON.stringify({ again: n });
    case "cut-short": return compact.slice(0, 1 + (n % Math.max(1, compact.length - 1)));
    case "not-object": return ["[1, 2]", "42", "\"text\"", "null", "true"][n % 5];
    case "blank": return [" ", "\n", "\t "][n % 3];
  }
}

/** A call's argument text, well-formed most of the time, cut into fragments. */
export function argPlan(args: Record<string, unknown>, options: { broken?: boolean } = {}): fc.Arbitrary<ArgPlan> {
  const kinds: fc.Arbitrary<ArgKind> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<ArgKind>("valid", "spaced", "pretty") },
    { weight: 2, arbitrary: fc.constant<ArgKind>("placeholder") },
    { weight: options.broken ? 3 : 0, arbitrary: fc.constantFrom(...BROKEN) },
  );
  return fc.tuple(kinds, fc.nat(), cutChoices).map(([kind, n, choices]) => {
    const text = argText(args, kind, n);
    let pieces = fragmentsOf(text, choices);
    if (kind === "placeholder") pieces = ["{}", ...pieces];
    return { pieces, reading: readOracle(pieces) };
  });
}

/** Broken on purpose, always (for the properties about errors). */
export const brokenArgPlan = (args: Record<string, unknown>): fc.Arbitrary<ArgPlan> =>
  fc.tuple(fc.constantFrom(...BROKEN), fc.nat(), cutChoices).map(([kind, n, choices]) => {
    const pieces = fragmentsOf(argText(args, kind, n), choices);
    return { pieces, reading: readOracle(pieces) };
  });

// ---------------------------------------------------------------------------------------------
// A generated stream and what it must give

interface PlannedCall {
  spec: CallSpec;
  plan: ArgPlan;
}

const planCalls = (calls: CallSpec[], broken: boolean) =>
  calls.length === 0 ? fc.constant([] as PlannedCall[])
    : fc.tuple(...calls.map((spec) => argPlan(spec.arguments, { broken }).map((plan) => ({ spec, plan }))));

// --- chat-completions ------------------------------------------------------------------------

export interface ChatQuirks {
  /** `normal`: 0, 1, ...; `absent`: no index at all; `reuse0`: index 0 for every call, a new id each time. */
  index: "normal" | "absent" | "reuse0";
  ids: boolean;
  /** The whole id and name in every fragment. */
  repeat: boolean;
  /** What continuation fragments carry in place of the id and the name. */
  continuation: "absent" | "empty" | "null";
  argsInFirst: boolean;
  /** A call's last fragment and the next call's first share a chunk. */
  shareChunks: boolean;
  finish: "tool_calls" | "stop" | "none";
  done: boolean;
  usageAfter: boolean;
  role: boolean;
}

export const chatQuirks: fc.Arbitrary<ChatQuirks> = fc.record({
  index: fc.constantFrom("normal", "normal", "absent", "reuse0"),
  ids: fc.boolean(),
  repeat: fc.boolean(),
  continuation: fc.constantFrom("absent", "empty", "null"),
  argsInFirst: fc.boolean(),
  shareChunks: fc.boolean(),
  finish: fc.constantFrom("tool_calls", "stop", "none"),
  done: fc.boolean(),
  usageAfter: fc.boolean(),
  role: fc.boolean(),
});

function chatStream(text: string[], calls: PlannedCall[], q: ChatQuirks, salt: number): Stream {
  const ids = q.ids || q.index !== "normal";
  const events: unknown[] = [];
  const outcomes: Outcome[] = [];
  if (q.role) events.push(chat.delta({ role: "assistant", content: "" }));
  for (const piece of text) events.push(chat.text(piece));
  const cont = q.continuation === "absent" ? undefined : q.continuation === "empty" ? "" : null;
  let held: Fragment | null = null;
  calls.forEach(({ spec, plan }, i) => {
    const index = q.index === "absent" ? undefined : q.index === "reuse0" ? 0 : i;
    const id = ids ? `call_${salt}_${i}` : undefined;
    const fragments: Fragment[] = [{ index, id, type: "function", name: spec.name, arguments: q.argsInFirst ? plan.pieces[0] : "" }];
    for (const piece of q.argsInFirst ? plan.pieces.slice(1) : plan.pieces) {
      fragments.push({ index, id: q.repeat ? id : cont, name: q.repeat ? spec.name : cont, arguments: piece });
    }
    if (held !== null) {
      events.push(chat.calls(held, fragments[0]));
      outcomes[i - 1].at = events.length - 1;
      held = null;
    } else {
      if (i > 0) outcomes[i - 1].at = events.length;
      events.push(chat.calls(fragments[0]));
    }
    const startAt = events.length - 1;
    const rest = fragments.slice(1);
    if (q.shareChunks && i < calls.length - 1 && rest.length > 0) held = rest.pop()!;
    for (const f of rest) events.push(chat.calls(f));
    outcomes.push({ index: i, id: id ?? `call_${i}`, name: spec.name, startAt, at: -1, reading: plan.reading });
  });
  const finish = q.finish === "none" ? null : q.finish;
  if (finish !== null) events.push(chat.finish(finish));
  let endAt = events.length - 1;
  if (q.usageAfter) events.push(chat.usage());
  if (q.done || finish === null) events.push("[DONE]");
  if (finish === null) endAt = events.length - 1;
  if (outcomes.length > 0) outcomes[outcomes.length - 1].at = endAt;
  return { dialect: "chat-completions", events, text: text.join(""), outcomes, finishReason: finish, endAt };
}

export const chatStreamOf = (broken = false): fc.Arbitrary<Stream> =>
  fc.tuple(textPieces, turnCalls, chatQuirks, fc.nat(999)).chain(([text, calls, q, salt]) =>
    planCalls(calls, broken).map((planned) => chatStream(text, planned, q, salt)));

// --- Anthropic -----------------------------------------------------------------------------

export interface AnthropicQuirks {
  thinking: boolean;
  /** The first partial_json of each tool block is "". */
  emptyFirst: boolean;
  /** Text blocks between the tool blocks. */
  textBetween: boolean;
  /** For these calls, `input` holds the whole object and no delta comes. */
  inputWhole: boolean[];
  ping: boolean;
  stopReason: "tool_use" | "end_turn";
}

function anthropicStream(text: string[], calls: PlannedCall[], q: AnthropicQuirks, salt: number): Stream {
  const events: unknown[] = [anthropic.start()];
  const outcomes: Outcome[] = [];
  let block = 0;
  if (q.thinking) {
    events.push({ type: "content_block_start", index: block, content_block: { type: "thinking", thinking: "", signature: "" } });
    events.push({ type: "content_block_delta", index: block, delta: { type: "thinking_delta", thinking: "I should call a tool. {\"not\": 1}" } });
    events.push({ type: "content_block_delta", index: block, delta: { type: "signature_delta", signature: "EqQBCgIYAhIM" } });
    events.push(anthropic.stop(block++));
  }
  const textBlock = (pieces: string[]) => {
    events.push(anthropic.textBlock(block));
    if (q.ping) events.push({ type: "ping" });
    for (const piece of pieces) events.push(anthropic.text(block, piece));
    events.push(anthropic.stop(block++));
  };
  if (text.length > 0) textBlock(text);
  calls.forEach(({ spec, plan }, i) => {
    if (i > 0 && q.textBetween) textBlock([" then "]);
    const id = `toolu_${salt}_${i}`;
    const whole = q.inputWhole[i % Math.max(1, q.inputWhole.length)] === true && plan.reading.ok;
    const startAt = events.length;
    if (whole) {
      events.push(anthropic.toolBlock(block, id, spec.name, spec.arguments));
    } else {
      events.push(anthropic.toolBlock(block, id, spec.name));
      if (q.emptyFirst) events.push(anthropic.json(block, ""));
      for (const piece of plan.pieces) events.push(anthropic.json(block, piece));
    }
    events.push(anthropic.stop(block++));
    const reading: Reading = whole ? { ok: true, value: spec.arguments, raw: JSON.stringify(spec.arguments) } : plan.reading;
    outcomes.push({ index: i, id, name: spec.name, startAt, at: events.length - 1, reading });
  });
  events.push(anthropic.messageDelta(calls.length > 0 ? q.stopReason : "end_turn"));
  events.push(anthropic.end());
  return { dialect: "anthropic", events, text: text.join("") + (q.textBetween ? " then ".repeat(Math.max(0, calls.length - 1)) : ""),
    outcomes, finishReason: calls.length > 0 ? q.stopReason : "end_turn", endAt: events.length - 1 };
}

export const anthropicStreamOf = (broken = false): fc.Arbitrary<Stream> =>
  fc.tuple(textPieces, turnCalls, fc.record({
    thinking: fc.boolean(), emptyFirst: fc.boolean(), textBetween: fc.boolean(),
    inputWhole: fc.array(fc.boolean(), { maxLength: 4 }), ping: fc.boolean(), stopReason: fc.constantFrom("tool_use", "end_turn"),
  }), fc.nat(999)).chain(([text, calls, q, salt]) =>
    planCalls(calls, broken).map((planned) => anthropicStream(text, planned, q as AnthropicQuirks, salt)));

// --- Responses -------------------------------------------------------------------------------

export interface ResponsesQuirks {
  reasoning: boolean;
  argsInAdded: boolean;
  ends: "both" | "argumentsDone" | "itemDone";
  /** For these calls no delta comes: the end event's arguments are the text. */
  noDeltas: boolean[];
}

function responsesStream(text: string[], calls: PlannedCall[], q: ResponsesQuirks, salt: number): Stream {
  const events: unknown[] = [responses.created(), { type: "response.in_progress", response: { id: "resp_1", status: "in_progress" } }];
  const outcomes: Outcome[] = [];
  let output = 0;
  if (q.reasoning) {
    events.push({ type: "response.output_item.added", output_index: output, item: { id: `rs_${salt}`, type: "reasoning", summary: [] } });
    events.push({ type: "response.output_item.done", output_index: output++, item: { id: `rs_${salt}`, type: "reasoning", summary: [] } });
  }
  if (text.length > 0) {
    const item = { id: "msg_1", type: "message", status: "in_progress", role: "assistant", content: [] };
    events.push({ type: "response.output_item.added", output_index: output, item });
    events.push({ type: "response.content_part.added", item_id: "msg_1", output_index: output, content_index: 0, part: { type: "output_text", text: "" } });
    for (const piece of text) events.push(responses.text(piece));
    events.push(responses.textDone(text.join("")));
    events.push({ type: "response.output_item.done", output_index: output++, item: { ...item, status: "completed" } });
  }
  calls.forEach(({ spec, plan }, i) => {
    const itemId = `fc_${salt}_${i}`;
    const callId = `call_${salt}_${i}`;
    const noDeltas = q.noDeltas[i % Math.max(1, q.noDeltas.length)] === true;
    // The server's own whole text: what the deltas make once the placeholder is dropped.
    const whole = noDeltas ? plan.pieces.join("") : plan.reading.raw;
    const inAdded = q.argsInAdded && !noDeltas ? plan.pieces[0] : "";
    const startAt = events.length;
    events.push(responses.callAdded(itemId, callId, spec.name, inAdded));
    if (!noDeltas) for (const piece of q.argsInAdded ? plan.pieces.slice(1) : plan.pieces) events.push(responses.delta(itemId, piece));
    if (q.ends !== "itemDone") events.push(responses.argsDone(itemId, whole));
    const at = events.length - (q.ends === "itemDone" ? 0 : 1);
    if (q.ends !== "argumentsDone") events.push(responses.itemDone(itemId, callId, spec.name, whole));
    outcomes.push({ index: i, id: callId, name: spec.name, startAt, at, reading: noDeltas ? readOracle([whole]) : plan.reading });
    output++;
  });
  events.push(responses.completed());
  return { dialect: "responses", events, text: text.join(""), outcomes, finishReason: "completed", endAt: events.length - 1 };
}

export const responsesStreamOf = (broken = false): fc.Arbitrary<Stream> =>
  fc.tuple(textPieces, turnCalls, fc.record({
    reasoning: fc.boolean(), argsInAdded: fc.boolean(), ends: fc.constantFrom("both", "argumentsDone", "itemDone"),
    noDeltas: fc.array(fc.boolean(), { maxLength: 4 }),
  }), fc.nat(999)).chain(([text, calls, q, salt]) =>
    planCalls(calls, broken).map((planned) => responsesStream(text, planned, q as ResponsesQuirks, salt)));

// --- Gemini and Ollama: whole calls ----------------------------------------------------------

/** Arguments as an object, or (broken) something else. */
const wholeArgs = (spec: CallSpec, broken: boolean): fc.Arbitrary<{ args: unknown; reading: Reading }> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({ args: spec.arguments, reading: { ok: true, value: spec.arguments, raw: JSON.stringify(spec.arguments) } as Reading }) },
    { weight: broken ? 2 : 0, arbitrary: fc.constantFrom<unknown>([1, 2], "text", 7).map((args) => ({ args, reading: { ok: false, code: "not_an_object", raw: JSON.stringify(args) } as Reading })) },
  );

interface WholePlanned {
  spec: CallSpec;
  args: unknown;
  reading: Reading;
}

const planWhole = (calls: CallSpec[], broken: boolean) =>
  calls.length === 0 ? fc.constant([] as WholePlanned[])
    : fc.tuple(...calls.map((spec) => wholeArgs(spec, broken).map(({ args, reading }) => ({ spec, args, reading }))));

function geminiStream(text: string[], calls: WholePlanned[], q: { thought: boolean; ids: boolean; signature: boolean; group: number[]; finishAlone: boolean }, salt: number): Stream {
  const events: unknown[] = [];
  const outcomes: Outcome[] = [];
  if (q.thought) events.push(gemini.chunk([{ text: "**Thinking** about {\"name\": \"x\"}", thought: true }]));
  for (const piece of text) events.push(gemini.chunk([{ text: piece }]));
  let i = 0;
  let g = 0;
  while (i < calls.length) {
    const size = 1 + ((q.group[g++ % Math.max(1, q.group.length)] ?? 0) % 3);
    const parts = calls.slice(i, i + size).map(({ spec, args, reading }, k) => {
      const index = i + k;
      const id = q.ids ? `gc_${salt}_${index}` : undefined;
      const signature = q.signature && index === 0 ? `sig_${salt}` : undefined;
      outcomes.push({ index, id: id ?? `call_${index}`, name: spec.name, startAt: -1, at: -1, reading, ...(signature ? { thoughtSignature: signature } : {}) });
      return { functionCall: { name: spec.name, args, ...(id ? { id } : {}) }, ...(signature ? { thoughtSignature: signature } : {}) };
    });
    events.push(gemini.chunk(parts));
    for (let k = i; k < i + parts.length; k++) outcomes[k].startAt = outcomes[k].at = events.length - 1;
    i += parts.length;
  }
  if (q.finishAlone || events.length === 0) events.push(gemini.chunk([{ text: "" }], "STOP"));
  else (events[events.length - 1] as { candidates: Record<string, unknown>[] }).candidates[0].finishReason = "STOP";
  return { dialect: "gemini", events, text: text.join(""), outcomes, finishReason: "STOP", endAt: events.length - 1 };
}

export const geminiStreamOf = (broken = false): fc.Arbitrary<Stream> =>
  fc.tuple(textPieces, turnCalls, fc.record({
    thought: fc.boolean(), ids: fc.boolean(), signature: fc.boolean(), group: fc.array(fc.nat(), { maxLength: 4 }), finishAlone: fc.boolean(),
  }), fc.nat(999)).chain(([text, calls, q, salt]) => planWhole(calls, broken).map((planned) => geminiStream(text, planned, q, salt)));

function ollamaStream(text: string[], calls: WholePlanned[], q: { thinking: boolean; pairs: boolean }): Stream {
  const events: unknown[] = [];
  const outcomes: Outcome[] = [];
  if (q.thinking) events.push({ model: "qwen3", message: { role: "assistant", content: "", thinking: "Hmm, {\"a\": 1}" }, done: false });
  for (const piece of text) events.push(ollama.text(piece));
  for (let i = 0; i < calls.length; i += q.pairs ? 2 : 1) {
    const group = calls.slice(i, i + (q.pairs ? 2 : 1));
    events.push(ollama.calls(...group.map((c) => ({ name: c.spec.name, arguments: c.args }))));
    group.forEach((c, k) => outcomes.push({ index: i + k, id: `call_${i + k}`, name: c.spec.name, startAt: events.length - 1, at: events.length - 1, reading: c.reading }));
  }
  events.push(ollama.done());
  return { dialect: "ollama", events, text: text.join(""), outcomes, finishReason: "stop", endAt: events.length - 1 };
}

export const ollamaStreamOf = (broken = false): fc.Arbitrary<Stream> =>
  fc.tuple(textPieces, turnCalls, fc.record({ thinking: fc.boolean(), pairs: fc.boolean() }))
    .chain(([text, calls, q]) => planWhole(calls, broken).map((planned) => ollamaStream(text, planned, q)));

/** A stream of any dialect. */
export const anyStream = (broken = false): fc.Arbitrary<Stream> => fc.oneof(
  chatStreamOf(broken), anthropicStreamOf(broken), responsesStreamOf(broken), geminiStreamOf(broken), ollamaStreamOf(broken),
);

/** A stream of a dialect whose arguments come as text. */
export const textArgumentStream = (broken = false): fc.Arbitrary<Stream> => fc.oneof(
  chatStreamOf(broken), anthropicStreamOf(broken), responsesStreamOf(broken),
);

// ---------------------------------------------------------------------------------------------
// Raw streams: events written out as a server would, and where to cut them

export interface SseStyle {
  lineEnd: "\n" | "\r\n" | "\r";
  /** `data:` followed by a space, or not. */
  space: boolean;
  comments: boolean;
  /** An `event:` line with the event's type before its data (Responses, Anthropic). */
  names: boolean;
  /** The event's JSON over several `data:` lines (pretty-printed, one line each). */
  multiline: boolean;
  /** `id:` and `retry:` lines, which mean nothing here. */
  otherFields: boolean;
  /** The last event without its blank line, or without any line end. */
  ending: "blank" | "line" | "none";
}

export const sseStyle: fc.Arbitrary<SseStyle> = fc.record({
  lineEnd: fc.constantFrom("\n", "\r\n", "\r"),
  space: fc.boolean(),
  comments: fc.boolean(),
  names: fc.boolean(),
  multiline: fc.boolean(),
  otherFields: fc.boolean(),
  ending: fc.constantFrom("blank", "blank", "line", "none"),
});

/** A stream written out: its text, and for each event where it is dispatched and where its data is whole. */
export interface RawStream {
  text: string;
  /** The offset of the character whose reading dispatches event k (Infinity: only end() does). */
  dispatch: number[];
  /** The offset just after event k's data: a stream cut there or later still yields event k. */
  complete: number[];
}

/** Events as server-sent events. */
export function writeSse(events: readonly unknown[], style: SseStyle): RawStream {
  const nl = style.lineEnd;
  const out: string[] = [];
  let length = 0;
  const dispatch: number[] = [];
  const complete: number[] = [];
  const add = (s: string) => {
    out.push(s);
    length += s.length;
  };
  events.forEach((event, k) => {
    if (style.comments && k % 3 === 0) add(`: keep-alive${nl}${nl}`);
    const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
    if (style.names && typeof type === "string") add(`event: ${type}${nl}`);
    if (style.otherFields && k % 2 === 1) add(`id: ${k}${nl}retry: 1000${nl}`);
    const json = typeof event === "string" ? event : style.multiline ? JSON.stringify(event, null, 1) : JSON.stringify(event);
    const lines = json.split("\n");
    const last = k === events.length - 1;
    lines.forEach((line, i) => {
      const lastLine = i === lines.length - 1;
      add(`data:${style.space ? " " : ""}${line}`);
      if (lastLine) complete.push(length);
      if (!(last && lastLine && style.ending === "none")) add(nl);
    });
    if (last && style.ending !== "blank") {
      dispatch.push(Number.POSITIVE_INFINITY);
    } else {
      dispatch.push(length);
      add(nl);
    }
  });
  return { text: out.join(""), dispatch, complete };
}

/** Events as NDJSON lines. */
export function writeNdjson(events: readonly unknown[], lineEnd: "\n" | "\r\n", lastLineEnd: boolean): RawStream {
  let text = "";
  const dispatch: number[] = [];
  const complete: number[] = [];
  events.forEach((event, k) => {
    text += JSON.stringify(event);
    complete.push(text.length);
    if (k === events.length - 1 && !lastLineEnd) {
      dispatch.push(Number.POSITIVE_INFINITY);
      return;
    }
    dispatch.push(text.length);
    text += lineEnd;
  });
  return { text, dispatch, complete };
}

/** Places a raw stream is worth cutting at: inside `data:`, inside `\r\n`, around blank lines, in tags. */
export function rawHardCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const before = text.charCodeAt(i - 1);
    if ((before === 13 && c === 10) || c === 0x3a || before === 0x3a || (c & 0xfc00) === 0xdc00 || c === 0x3c || before === 0x5c) cuts.push(i);
  }
  for (let i = text.indexOf("data"); i !== -1; i = text.indexOf("data", i + 1)) cuts.push(i + 1, i + 2, i + 3, i + 4);
  return cuts;
}

/** Byte offsets inside multi-byte UTF-8 characters. */
export function utf8HardCuts(bytes: Uint8Array): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < bytes.length; i++) if ((bytes[i] & 0xc0) === 0x80) cuts.push(i);
  return cuts;
}

/** Any JSON value, and events shaped like a dialect's with fields of the wrong type. */
export const hostileEvent: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>("[DONE]", "", null, 0, [], [{}], { choices: {} }, { choices: [null] }, { choices: [{ delta: [] }] },
    { type: "content_block_delta", index: 0, delta: null }, { type: "content_block_stop", index: -1 }, { candidates: [{ content: { parts: {} } }] },
    { message: { tool_calls: [{ function: 1 }] } }, { type: "response.function_call_arguments.delta", item_id: 7, delta: "x" }) },
  { weight: 3, arbitrary: fc.record({
    index: fc.oneof(fc.nat(3), fc.constantFrom<unknown>(-1, 1.5, "0", 1e9, null, undefined)),
    id: fc.oneof(fc.constantFrom<unknown>("call_a", "call_b", "", null, 5, undefined)),
    name: fc.oneof(fc.constantFrom<unknown>("f", "g", "", null, 3, undefined)),
    arguments: fc.oneof(fc.constantFrom<unknown>("{\"a\":", "1}", "{}", "", null, 7, undefined), fc.string({ maxLength: 4 })),
  }).map((f) => chat.calls(f as Fragment)) },
  { weight: 2, arbitrary: fc.record({
    type: fc.constantFrom("content_block_start", "content_block_delta", "content_block_stop", "message_stop", "message_delta",
      "response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.completed", "error"),
    index: fc.oneof(fc.nat(3), fc.constantFrom<unknown>(-1, 2.5, "1", 1e9)),
    content_block: fc.constantFrom<unknown>({ type: "tool_use", id: "t", name: "f", input: {} }, { type: "text", text: "x" }, { type: "tool_use", id: 1 }, null),
    delta: fc.constantFrom<unknown>({ type: "input_json_delta", partial_json: "{\"a\":1}" }, { type: "text_delta", text: "t" }, { type: "input_json_delta", partial_json: 3 }, "x"),
    item: fc.constantFrom<unknown>({ id: "fc_1", type: "function_call", call_id: "c", name: "f", arguments: "" }, { id: 2, type: "function_call" }, "item"),
    item_id: fc.constantFrom<unknown>("fc_1", "fc_2", 3),
    arguments: fc.constantFrom<unknown>("{\"a\":1}", "{", 4),
  }, { requiredKeys: ["type"] }) },
);

export const ERROR_CODES: readonly ErrorCode[] = [
  "invalid_json", "not_an_object", "missing_name", "name_changed", "arguments_mismatch", "truncated", "lost_fragment",
  "arguments_too_large", "bad_event", "bad_index", "out_of_order", "too_many_calls", "server_error",
];

// ---------------------------------------------------------------------------------------------
// <tool_call> tags in the text

const prosePiece = fc.constantFrom(
  "Sure. ", "<", "<t", "<tool", "<tool_call", "<tool_cal>", "<b>", "a < b", "</tool_call>", "北京", "😀", "\n", " ",
  "<tool_call >", "<TOOL_CALL>", "tool_call>", "</tool", "{\"name\": \"f\"}", "<<",
);

const tagContent: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(turnCalls, fc.constantFrom("", "\n", " ")).filter(([calls]) => calls.length > 0)
    .map(([calls, ws]) => ws + JSON.stringify({ name: calls[0].name, arguments: calls[0].arguments }) + ws) },
  { weight: 1, arbitrary: fc.constantFrom(
    "{\"name\": \"f\"", "{\"arguments\": {}}", "{\"name\": \"f\", \"arguments\": \"{}\"}", "[1]", "", "{\"name\": \"\"}",
    "{\"name\": \"echo\", \"arguments\": {\"text\": \"</tool_call>\"}}", "{\"name\": \"now\"}") },
);

/** Prose with tags in it; sometimes the last tag never closes. */
export const taggedText: fc.Arbitrary<string> = fc.tuple(
  fc.array(fc.oneof({ weight: 3, arbitrary: prosePiece }, { weight: 2, arbitrary: tagContent.map((c) => `<tool_call>${c}</tool_call>`) }), { maxLength: 6 }),
  fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 1, arbitrary: tagContent.map((c) => `<tool_call>${c.slice(0, 1 + (c.length >> 1))}`) },
    { weight: 1, arbitrary: fc.constantFrom("<tool_call>{\"name\": \"f\"}</tool_ca", "<tool_ca", "<") }),
).map(([parts, tail]) => parts.join("") + tail);

/** Places worth cutting text with tags at: inside every `<tool_call>` and `</tool_call>`. */
export function tagHardCuts(text: string): number[] {
  const cuts: number[] = [];
  for (const tag of ["<tool_call>", "</tool_call>"]) {
    for (let at = text.indexOf(tag); at !== -1; at = text.indexOf(tag, at + 1)) for (let k = 1; k < tag.length; k++) cuts.push(at + k);
  }
  return cuts;
}
