// The state of one streamed turn: the text released, the calls started and what became of each,
// the errors, and how the stream ended. (Not part of the public API: a suggested place.)
//
// One way to keep the five dialects small: each only translates its events into the few things
// that can happen in any stream (text arrives, a call starts, argument text arrives, a call ends,
// the stream ends), and the rules that hold in all of them live here, once.
import type { ErrorCode, Limits, StreamResult, StreamStatus, Update } from "./types.ts";

/** A call while the stream builds it. */
export interface Call {
  /** Its place among the stream's calls; -1 for one that was refused. */
  readonly index: number;
  /** Read from a `<tool_call>` tag in the text rather than from the dialect's own events. */
  readonly tag: boolean;
  id: string | null;
  name: string | null;
  /** Its argument text so far, one piece per fragment. */
  readonly pieces: string[];
  bytes: number;
  state: "open" | "ready" | "failed";
  /** Anthropic: the `input` of content_block_start, its arguments when no text arrives. */
  input?: unknown;
  /** Responses: the whole text the call's end event carried, which the fragments must match. */
  expected?: string;
  thoughtSignature?: string;
}

export interface WholeCall {
  id: unknown;
  name: unknown;
  args: unknown;
  thoughtSignature?: unknown;
}

export class Turn {
  status: StreamStatus = "open";
  finishReason: string | null = null;

  constructor(limits: Limits, toolCallTags: boolean) {}

  /** TODO: true once the stream's end has come (the status is no longer "open"). */
  get ended(): boolean {
    throw new Error("not implemented");
  }

  /** TODO: run one push and return what it released (text, ready calls, errors). */
  step(run: () => void): Update {
    throw new Error("not implemented");
  }

  /** TODO: text of the answer; after the end it is out_of_order; through the tag scanner when tags are on. */
  text(piece: string): void {
    throw new Error("not implemented");
  }

  /** TODO: text released as it is. */
  emitText(piece: string): void {
    throw new Error("not implemented");
  }

  /** TODO: a call starts and takes the next index, unless the stream has ended or maxCalls is reached. */
  startCall(tag = false): Call {
    throw new Error("not implemented");
  }

  /** TODO: the id is taken once: the first non-empty one. */
  setId(call: Call, id: string | undefined): void {
    throw new Error("not implemented");
  }

  /** TODO: the name is taken once; the same again is a repeat, another one is name_changed. */
  setName(call: Call, name: string | undefined): void {
    throw new Error("not implemented");
  }

  /** TODO: argument text for a call, counted against maxArgumentBytes, kept for the end. */
  append(call: Call, piece: string): void {
    throw new Error("not implemented");
  }

  /** TODO: the call's end is certain: read it, once (README, task 3): ready, or one error. */
  endCall(call: Call): void {
    throw new Error("not implemented");
  }

  /** TODO: a call that comes whole, its arguments an object (Gemini, Ollama). */
  wholeCall(whole: WholeCall): void {
    throw new Error("not implemented");
  }

  /** TODO: the call never becomes ready: one error names it (callIndex, id, name, raw). */
  fail(call: Call, code: ErrorCode, message: string, raw?: string | null): void {
    throw new Error("not implemented");
  }

  /** TODO: an error about the stream itself. */
  streamError(code: ErrorCode, message: string): void {
    throw new Error("not implemented");
  }

  /** TODO: an event that could not be read: reported, and every open call fails with lost_fragment. */
  unreadable(code: "bad_event" | "bad_index", message: string): void {
    throw new Error("not implemented");
  }

  /** TODO: the server sent an error: server_error, and the stream ends as failed. */
  serverError(message: string): void {
    throw new Error("not implemented");
  }

  /** TODO: the stream's end (the first one counts): whatever is still open is truncated. */
  finish(status: Exclude<StreamStatus, "open">): void {
    throw new Error("not implemented");
  }

  /** TODO: the connection closed: if the stream's end never came, it was cut. */
  close(): void {
    throw new Error("not implemented");
  }

  /** TODO: the last usage the stream carried. */
  setUsage(usage: Record<string, unknown>): void {
    throw new Error("not implemented");
  }

  /** TODO: Anthropic's usage comes in parts: a later part's fields replace the earlier ones. */
  mergeUsage(usage: Record<string, unknown>): void {
    throw new Error("not implemented");
  }

  /** TODO: the outcome so far. */
  result(): StreamResult {
    throw new Error("not implemented");
  }
}
