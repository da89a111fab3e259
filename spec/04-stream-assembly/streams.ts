// Kata 4's streams as the specs build them: events in each dialect, raw streams written out and
// cut, and the README's reading rules as oracles. Nothing here runs the kata or a test runner, so
// the benchmark (bench-cases.ts) can use it too; helpers.ts holds the checks.
import type { Dialect, ErrorCode } from "@impl/04-stream-assembly";

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

/** For each offset of `text` (0 to its length), the UTF-8 byte offset it starts at. */
export function byteOffsets(text: string): number[] {
  const offsets = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    offsets.push(offsets[i] + size);
    if (pair) offsets.push(offsets[i] + size), i++;
  }
  return offsets;
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
