// The shapes every part of the kata agrees on. Nothing here runs but two constants and one error
// class: read it first.

/** The five ways servers stream a turn (README, tasks 1 and 4). */
export type Dialect = "chat-completions" | "responses" | "anthropic" | "gemini" | "ollama";

export interface Limits {
  /** How many calls one stream may start; the next one is refused (`too_many_calls`). */
  maxCalls: number;
  /** How many UTF-8 bytes one call's arguments may hold; more is `arguments_too_large`. */
  maxArgumentBytes: number;
}

export interface AssemblerOptions {
  dialect: Dialect;
  /** Also read `<tool_call>{...}</tool_call>` in the text (task 6). Default false. */
  toolCallTags?: boolean;
  /** Overrides of DEFAULT_LIMITS (task 7). */
  limits?: Partial<Limits>;
}

/** A call whose end is certain and whose arguments were read: safe to dispatch. */
export interface ToolCall {
  /** Its place among the calls of the stream, 0-based, in the order the calls started. */
  index: number;
  /** The server's id for it, or `call_<index>` when the server gave none. */
  id: string;
  name: string;
  /** What a strict parse of the completed arguments gave: always a plain object. */
  arguments: Record<string, unknown>;
  /** The text the arguments were read from (JSON.stringify of them when they came as an object). */
  rawArguments: string;
  /** Gemini's `thoughtSignature` of the part that held the call, when it had one. */
  thoughtSignature?: string;
}

export type ErrorCode =
  // a call that never becomes ready (the error names it: callIndex, id, name)
  | "invalid_json" | "not_an_object" | "missing_name" | "name_changed" | "arguments_mismatch"
  | "truncated" | "lost_fragment" | "arguments_too_large"
  // the stream itself
  | "bad_event" | "bad_index" | "out_of_order" | "too_many_calls" | "server_error";

export interface StreamError {
  code: ErrorCode;
  /** Free text for people; only `code` is fixed. */
  message: string;
  /** The call it is about (a call error), by its place in the stream. */
  callIndex?: number;
  id?: string;
  name?: string;
  /** The call's argument text as far as it went (not for `arguments_too_large`). */
  raw?: string;
}

/** What one push (or end) released. */
export interface Update {
  /** Text released by this push: "" when none. */
  text: string;
  /** Calls that became ready during this push, in order. */
  ready: ToolCall[];
  /** Errors that arose during this push, in order. */
  errors: StreamError[];
}

/**
 * `open` until the stream's end; then `complete` (it ended and the model finished), `incomplete`
 * (it ended, and the server says the output was cut short: a token limit, a filter), `cut` (it
 * stopped without its end) or `failed` (the server sent an error).
 */
export type StreamStatus = "open" | "complete" | "incomplete" | "cut" | "failed";

export interface StreamResult {
  status: StreamStatus;
  /** The server's own word for why it stopped (`"tool_calls"`, `"end_turn"`, `"STOP"`...), or null. */
  finishReason: string | null;
  /** All the text released so far, in order. */
  text: string;
  /** Every call that became ready, in the order they became ready. */
  calls: ToolCall[];
  /** Every error, in the order they arose. */
  errors: StreamError[];
  /** The model asked for tools: at least one call was started, whatever became of it. */
  toolTurn: boolean;
  /** The last usage the stream carried (task 4 says where), as sent; null when none. */
  usage: Record<string, unknown> | null;
}

export interface Assembler {
  /** One parsed event: the JSON of one server-sent event's data, or the string "[DONE]". */
  push(event: unknown): Update;
  /** A piece of the raw stream as text, cut anywhere (task 5). */
  pushText(chunk: string): Update;
  /** A piece of the raw stream as UTF-8 bytes, cut anywhere (task 5). */
  pushBytes(chunk: Uint8Array): Update;
  /** The connection closed: nothing more will come. */
  end(): Update;
  /** The stream's outcome so far; after end(), the final one. */
  result(): StreamResult;
}

/** A whole stream, already cut into pieces: parsed events, text chunks or byte chunks. */
export type StreamInput =
  | { events: readonly unknown[] }
  | { text: readonly string[] }
  | { bytes: readonly Uint8Array[] };

export interface Replay {
  /** One Update per piece of the input, in order. */
  steps: Update[];
  /** What end() released. */
  end: Update;
  result: StreamResult;
}

/** Thrown for a wrong use of the API (bad options, a push after end...), never for a bad stream. */
export class StreamUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StreamUsageError";
  }
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({ maxCalls: 128, maxArgumentBytes: 1 << 20 });
