// Small helpers shared by kata 4's specs: chunk builders for each dialect, the README's reading
// rule as an oracle, server-sent events written out, and the linear-time check.
import { expect } from "vitest";
import { cpuTimeMs } from "../support/time-limits.ts";
import type { Dialect, ErrorCode, Replay, StreamError, ToolCall, Update } from "@impl/04-stream-assembly";

// ---------------------------------------------------------------------------------------------
// Chat-completions chunks

export interface Fragment {
  index?: number | null;
  id?: string | null;
  type?: string;
  name?: string | null;
  arguments?: string | null;
}

/** One tool-call fragment as a chat-completions server writes it. */
export function fragment(f: Fragment): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (f.index !== undefined) entry.index = f.index;
  if (f.id !== undefined) entry.id = f.id;
  if (f.type !== undefined) entry.type = f.type;
  const fn: Record<string, unknown> = {};
  if (f.name !== undefined) fn.name = f.name;
  if (f.arguments !== undefined) fn.arguments = f.arguments;
  if (f.name !== undefined || f.arguments !== undefined) entry.function = fn;
  return entry;
}

export const chat = {
  /** A chunk whose delta is `delta`. */
  delta: (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }],
  }),
  text: (content: string) => chat.delta({ content }),
  /** A chunk with these tool-call fragments. */
  calls: (...fragments: Fragment[]) => chat.delta({ tool_calls: fragments.map(fragment) }),
  finish: (reason: string) => chat.delta({}, reason),
  usage: (usage: Record<string, unknown> = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }) => ({
    id: "chatcmpl-1", object: "chat.completion.chunk", choices: [], usage,
  }),
};

/** A call streamed in the usual OpenAI way: id and name first, then the arguments in pieces. */
export function chatCall(index: number, id: string, name: string, pieces: string[]): Record<string, unknown>[] {
  return [
    chat.calls({ index, id, type: "function", name, arguments: "" }),
    ...pieces.map((piece) => chat.calls({ index, arguments: piece })),
  ];
}

// ---------------------------------------------------------------------------------------------
// Anthropic, Responses, Gemini, Ollama events

export const anthropic = {
  start: (usage: Record<string, unknown> = { input_tokens: 20, output_tokens: 1 }) => ({
    type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], stop_reason: null, usage },
  }),
  textBlock: (index: number) => ({ type: "content_block_start", index, content_block: { type: "text", text: "" } }),
  toolBlock: (index: number, id: string, name: string, input: unknown = {}) => ({
    type: "content_block_start", index, content_block: { type: "tool_use", id, name, input },
  }),
  text: (index: number, text: string) => ({ type: "content_block_delta", index, delta: { type: "text_delta", text } }),
  json: (index: number, partial_json: string) => ({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }),
  stop: (index: number) => ({ type: "content_block_stop", index }),
  messageDelta: (stop_reason: string, usage: Record<string, unknown> = { output_tokens: 40 }) => ({
    type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage,
  }),
  end: () => ({ type: "message_stop" }),
};

export const responses = {
  created: () => ({ type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } }),
  callAdded: (itemId: string, callId: string, name: string, args = "") => ({
    type: "response.output_item.added", output_index: 0,
    item: { id: itemId, type: "function_call", status: "in_progress", arguments: args, call_id: callId, name },
  }),
  delta: (itemId: string, delta: string) => ({ type: "response.function_call_arguments.delta", item_id: itemId, output_index: 0, delta }),
  argsDone: (itemId: string, args: string) => ({ type: "response.function_call_arguments.done", item_id: itemId, output_index: 0, arguments: args }),
  itemDone: (itemId: string, callId: string, name: string, args: string) => ({
    type: "response.output_item.done", output_index: 0,
    item: { id: itemId, type: "function_call", status: "completed", arguments: args, call_id: callId, name },
  }),
  text: (delta: string) => ({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta }),
  textDone: (text: string) => ({ type: "response.output_text.done", item_id: "msg_1", output_index: 0, content_index: 0, text }),
  completed: (usage: Record<string, unknown> = { input_tokens: 30, output_tokens: 12 }) => ({
    type: "response.completed", response: { id: "resp_1", status: "completed", usage },
  }),
  incomplete: (reason = "max_output_tokens") => ({
    type: "response.incomplete", response: { id: "resp_1", status: "incomplete", incomplete_details: { reason } },
  }),
};

export const gemini = {
  chunk: (parts: unknown[], finishReason?: string) => ({
    candidates: [{ content: { parts, role: "model" }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
  }),
  call: (name: string, args: unknown, extra: Record<string, unknown> = {}) => ({ functionCall: { name, args, ...extra } }),
};

export const ollama = {
  text: (content: string) => ({ model: "qwen3", message: { role: "assistant", content }, done: false }),
  calls: (...calls: { name: string; arguments: unknown }[]) => ({
    model: "qwen3", message: { role: "assistant", content: "", tool_calls: calls.map((c) => ({ function: c })) }, done: false,
  }),
  done: (done_reason = "stop") => ({ model: "qwen3", message: { role: "assistant", content: "" }, done_reason, done: true }),
};

// ---------------------------------------------------------------------------------------------
// Reading results

/** Each ready call with the step it became ready in (`steps.length` means end()). */
export function readyLog(run: Replay): { at: number; call: ToolCall }[] {
  return [...run.steps, run.end].flatMap((update, at) => update.ready.map((call) => ({ at, call })));
}

/** The concatenated text of every update of a run. */
export const releasedText = (run: Replay) => [...run.steps, run.end].map((u) => u.text).join("");

/** The errors of every update, in order. */
export const releasedErrors = (run: Replay) => [...run.steps, run.end].flatMap((u) => u.errors);

export const codes = (errors: readonly StreamError[]) => errors.map((e) => e.code);

/** What a call error says about its call (the part the specs compare). */
export const aboutCall = (e: StreamError) => ({ code: e.code, callIndex: e.callIndex, id: e.id, name: e.name });

/** A ready call without its raw text. */
export const brief = (c: ToolCall) => ({ id: c.id, name: c.name, arguments: c.arguments });

export const emptyUpdate = (u: Update) => u.text === "" && u.ready.length === 0 && u.errors.length === 0;

// ---------------------------------------------------------------------------------------------
// The README's reading rule (task 3, steps 3-5), as an oracle for generated argument text

export type Reading = { ok: true; value: Record<string, unknown>; raw: string } | { ok: false; code: ErrorCode; raw: string };

export function readOracle(pieces: readonly string[]): Reading {
  let raw = pieces.join("");
  const first = pieces.find((p) => p !== "");
  if (first === "{}" && /[^ \t\n\r]/.test(raw.slice(2))) raw = raw.slice(2);
  if (raw === "") return { ok: true, value: {}, raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, code: "invalid_json", raw };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, code: "not_an_object", raw };
  return { ok: true, value: value as Record<string, unknown>, raw };
}

// ---------------------------------------------------------------------------------------------
// A generated stream (arbitraries.ts) and the check of what it must give

export interface Outcome {
  index: number;
  id: string;
  name: string;
  /** The event (index into `events`) in which the call starts. */
  startAt: number;
  /** The event in which the call ends: ready, or its error. */
  at: number;
  reading: Reading;
  thoughtSignature?: string;
}

export interface Stream {
  dialect: Dialect;
  events: unknown[];
  text: string;
  outcomes: Outcome[];
  finishReason: string | null;
  /** The event that ends the stream. */
  endAt: number;
}

/** The calls a stream must make ready, in the order they must become ready. */
export function expectedCalls(s: Stream): ToolCall[] {
  return s.outcomes.filter((o) => o.reading.ok).sort((a, b) => a.at - b.at || a.index - b.index).map((o) => {
    const reading = o.reading as Extract<Reading, { ok: true }>;
    const call: ToolCall = { index: o.index, id: o.id, name: o.name, arguments: reading.value, rawArguments: reading.raw };
    if (o.thoughtSignature !== undefined) call.thoughtSignature = o.thoughtSignature;
    return call;
  });
}

/**
 * The run gave exactly what the stream must: its text, each call ready (or its one error) in the
 * step of the event that ends it, nothing else. `stepOf` maps an event to the step that delivers it
 * (the event itself for parsed events; the chunk that completes it for raw ones).
 */
export function expectStream(run: Replay, s: Stream, stepOf: (event: number) => number = (k) => k): void {
  const { result } = run;
  const ordered = [...s.outcomes].sort((a, b) => a.at - b.at || a.index - b.index);
  expect(result.text, "the text").toBe(s.text);
  expect(releasedText(run), "the text the updates released").toBe(s.text);
  expect(result.calls, "the ready calls").toEqual(expectedCalls(s));
  expect(readyLog(run).map(({ at, call }) => [call.index, at]), "the step in which each call became ready")
    .toEqual(ordered.filter((o) => o.reading.ok).map((o) => [o.index, stepOf(o.at)]));
  const errorAt = [...run.steps, run.end].flatMap((u, at) => u.errors.map((e) => ({ ...aboutCall(e), raw: e.raw, at })));
  expect(errorAt, "the errors, each in the step of its call's end").toEqual(ordered.filter((o) => !o.reading.ok).map((o) => ({
    code: (o.reading as { code: ErrorCode }).code, callIndex: o.index, id: o.id, name: o.name, raw: o.reading.raw, at: stepOf(o.at),
  })));
  expect(result.status, "the status").toBe("complete");
  expect(result.finishReason, "the finish reason").toBe(s.finishReason);
  expect(result.toolTurn, "toolTurn").toBe(s.outcomes.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Raw streams

/** Events written as server-sent events, LF line ends, one blank line after each. */
export function sse(events: readonly unknown[], options: { names?: boolean } = {}): string {
  return events.map((e) => {
    const name = options.names && typeof e === "object" && e !== null && typeof (e as { type?: unknown }).type === "string"
      ? `event: ${(e as { type: string }).type}\n` : "";
    return `${name}data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`;
  }).join("");
}

/** Events written as NDJSON lines. */
export const ndjson = (events: readonly unknown[]) => events.map((e) => `${JSON.stringify(e)}\n`).join("");

/** `text` cut at the given positions (sorted, each in 0..length). */
export function cutAt(text: string, positions: readonly number[]): string[] {
  const cuts = [...new Set(positions)].filter((p) => p > 0 && p < text.length).sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** `bytes` cut at the given positions. */
export function cutBytes(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(positions)].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(bytes.slice(from, cut));
    from = cut;
  }
  pieces.push(bytes.slice(from));
  return pieces;
}

/** `text` in pieces of `size` characters. */
export function everyN(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

// ---------------------------------------------------------------------------------------------
// Linear time

/**
 * Linear-time check that a quadratic implementation cannot pass and a linear one cannot fail by
 * noise: sizes grow 8x at a time, 16 KiB, 128 KiB, 1 MiB, and each step must take less than 24x
 * the time of the step before (linear grows about 8x, quadratic 64x). Steps of 8x rather than
 * kata 1's 4x because an assembly that parses its whole buffer again per fragment still has a
 * large linear part at small sizes (it grew 9x and 11x per 4x step, measured): at 8x it is far
 * out of reach of a linear one at the first step, so it fails within a second instead of reaching
 * the mebibyte. Time is CPU time (spec/support/time-limits.ts); a step that fails is measured
 * again, up to 3 times. `run` takes the size and does one whole operation (one `replay`), so the
 * cost of a call into the kata is paid once per size, not per fragment.
 */
export function expectLinear(label: string, run: (size: number) => unknown): void {
  const RATIO = 24;
  // The time of a tiny run is mostly noise: anything faster counts as this.
  const FLOOR_MS = 4;
  const time = (size: number) => Math.max(cpuTimeMs(() => run(size)), FLOOR_MS);
  const timed = new Map<number, number>();
  const timeOf = (size: number, fresh: boolean) => {
    if (fresh || !timed.has(size)) timed.set(size, time(size));
    return timed.get(size)!;
  };
  for (let size = 16 << 10; size < 1 << 20; size *= 8) {
    let ratio: number;
    let message: string;
    let attempts = 0;
    do {
      const small = timeOf(size, attempts > 0);
      const large = timeOf(size * 8, attempts > 0);
      ratio = large / small;
      message = `${label}: ${size >> 10} KiB -> ${(size * 8) >> 10} KiB took ${small.toFixed(1)} -> ${large.toFixed(1)} ms`;
      attempts++;
      if (process.env.LINEAR_DEBUG) console.log(message);
    } while (attempts < 3 && ratio >= RATIO);
    expect(ratio, message).toBeLessThan(RATIO);
  }
}

// ---------------------------------------------------------------------------------------------
// The README's tag rule (task 6), as an oracle

const OPEN_TAG = "<tool_call>";
const CLOSE_TAG = "</tool_call>";

export interface TagScan {
  /** The text outside the tags. */
  prose: string;
  /** Each tag: its content and the offset just after its closing tag (null: never closed). */
  tags: { content: string; end: number | null }[];
}

export function scanTags(text: string): TagScan {
  let prose = "";
  const tags: TagScan["tags"] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf(OPEN_TAG, from);
    if (open === -1) return { prose: prose + text.slice(from), tags };
    prose += text.slice(from, open);
    const start = open + OPEN_TAG.length;
    const close = text.indexOf(CLOSE_TAG, start);
    if (close === -1) {
      tags.push({ content: text.slice(start), end: null });
      return { prose, tags };
    }
    tags.push({ content: text.slice(start, close), end: close + CLOSE_TAG.length });
    from = close + CLOSE_TAG.length;
  }
}

/** What must have been released once `text` has arrived and the stream goes on. */
export function releasedBy(text: string): string {
  const { prose, tags } = scanTags(text);
  if (tags.length > 0 && tags[tags.length - 1].end === null) return prose;
  const tailStart = tags.length > 0 ? tags[tags.length - 1].end! : 0;
  for (let k = Math.min(OPEN_TAG.length - 1, text.length - tailStart); k > 0; k--) {
    if (text.endsWith(OPEN_TAG.slice(0, k))) return prose.slice(0, prose.length - k);
  }
  return prose;
}

/** What a tag's content must give (task 6). */
export function readTag(content: string): { ok: true; name: string; value: Record<string, unknown>; raw: string } | { ok: false; code: ErrorCode; name?: string } {
  let envelope: unknown;
  try {
    envelope = JSON.parse(content);
  } catch {
    return { ok: false, code: "invalid_json" };
  }
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) return { ok: false, code: "not_an_object" };
  const { name, arguments: args } = envelope as Record<string, unknown>;
  if (typeof name !== "string" || name === "") return { ok: false, code: "missing_name" };
  if (args === undefined || args === null) return { ok: true, name, value: {}, raw: "{}" };
  if (typeof args !== "object" || Array.isArray(args)) return { ok: false, code: "not_an_object", name };
  return { ok: true, name, value: args as Record<string, unknown>, raw: JSON.stringify(args) };
}

// ---------------------------------------------------------------------------------------------
// Recordings: read by the spec itself, to push them as parsed events

/** The events of a server-sent-events recording, as a plain reader of the standard gets them (data that is not JSON is left out). */
export function parseSse(text: string): unknown[] {
  const events: unknown[] = [];
  let data: string[] = [];
  const dispatch = () => {
    const payload = data.join("\n");
    data = [];
    if (payload === "") return;
    if (payload.trim() === "[DONE]") return events.push("[DONE]");
    try {
      events.push(JSON.parse(payload));
    } catch {
      // not JSON: a reader of parsed events never sees it
    }
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") dispatch();
    else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  dispatch();
  return events;
}

export const parseNdjson = (text: string): unknown[] => text.split(/\r?\n/).filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
