// The state of one streamed turn: the text released, the calls started and what became of each,
// the errors, and how the stream ended.
//
// Each dialect (chat.ts, responses.ts, anthropic.ts, gemini.ts, ollama.ts) only translates its
// events into the few things that can happen in any stream: text arrives, a call starts, argument
// text arrives for a call, a call ends, the stream ends. Every rule that holds in all of them lives
// here, once: a call is read when it ends and not before, every call ends exactly once (ready, or
// one error that names it), and whatever is still open when the stream ends never becomes ready.
import { readArguments, readObjectArguments, readTagContent, utf8Bytes, utf8BytesAfter } from "./arguments.ts";
import { TagScanner } from "./tags.ts";
import type { ErrorCode, Limits, StreamError, StreamResult, StreamStatus, ToolCall, Update } from "./types.ts";

/** A call while the stream builds it. */
export interface Call {
  /** Its place among the stream's calls; -1 for one that was refused. */
  readonly index: number;
  /** Read from a `<tool_call>` tag in the text rather than from the dialect's own events. */
  readonly tag: boolean;
  id: string | null;
  name: string | null;
  /** Its argument text so far, one piece per fragment (empty pieces are not kept). */
  readonly pieces: string[];
  bytes: number;
  state: "open" | "ready" | "failed";
  /** Anthropic: the `input` of content_block_start (null when absent), its arguments when no text arrives. */
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
  private usage: Record<string, unknown> | null = null;
  private readonly texts: string[] = [];
  private readonly calls: ToolCall[] = [];
  private readonly errors: StreamError[] = [];
  /** The calls started and not yet ended, in the order they started. */
  private readonly open = new Set<Call>();
  private started = 0;
  private refusedAny = false;
  private update: Update = { text: "", ready: [], errors: [] };
  private readonly tags: TagScanner | null;

  constructor(private readonly limits: Limits, toolCallTags: boolean) {
    this.tags = toolCallTags ? new TagScanner(this) : null;
  }

  get ended(): boolean {
    return this.status !== "open";
  }

  /** Runs one push and returns what it released. */
  step(run: () => void): Update {
    this.update = { text: "", ready: [], errors: [] };
    run();
    return this.update;
  }

  // --- text -------------------------------------------------------------------------------

  /** Text of the model's answer, from any dialect. */
  text(piece: string): void {
    if (piece === "") return;
    if (this.ended) return this.streamError("out_of_order", "text after the end of the stream");
    if (this.tags) this.tags.feed(piece);
    else this.emitText(piece);
  }

  /** Text that is released as it is (the tag scanner's prose, or all of it without tags). */
  emitText(piece: string): void {
    if (piece === "") return;
    this.texts.push(piece);
    this.update.text += piece;
  }

  // --- calls ------------------------------------------------------------------------------

  /** A call starts. The returned call is inert (its fragments go nowhere) when it was refused. */
  startCall(tag = false): Call {
    if (this.ended) {
      this.streamError("out_of_order", "a call after the end of the stream");
      return inert(tag);
    }
    if (this.started >= this.limits.maxCalls) {
      if (!this.refusedAny) this.streamError("too_many_calls", `the stream started more than ${this.limits.maxCalls} calls`);
      this.refusedAny = true;
      return inert(tag);
    }
    const call: Call = { index: this.started++, tag, id: null, name: null, pieces: [], bytes: 0, state: "open" };
    this.open.add(call);
    return call;
  }

  /** The id is taken once: the first non-empty one. */
  setId(call: Call, id: string | undefined): void {
    if (call.state === "open" && id && call.id === null) call.id = id;
  }

  /** The name is taken once; the same name again is a repeat, another one is an error. */
  setName(call: Call, name: string | undefined): void {
    if (call.state !== "open" || !name) return;
    if (call.name === null) call.name = name;
    else if (call.name !== name) this.fail(call, "name_changed", "the call's name changed before it ended");
  }

  /** Argument text for a call: kept as it comes, read only when the call ends. */
  append(call: Call, piece: string): void {
    if (call.state !== "open" || piece === "") return;
    call.bytes += utf8BytesAfter(call.pieces.at(-1) ?? "", piece);
    if (call.bytes > this.limits.maxArgumentBytes) {
      call.pieces.length = 0;
      return this.fail(call, "arguments_too_large", `the arguments grew past ${this.limits.maxArgumentBytes} bytes`, null);
    }
    call.pieces.push(piece);
  }

  /** The call's end is certain: read it, once. */
  endCall(call: Call): void {
    if (call.state !== "open") return;
    if (call.tag) return this.endTagCall(call);
    if (call.name === null) return this.fail(call, "missing_name", "the call ended without a name");
    const read = call.pieces.length === 0 && call.input !== undefined ? readObjectArguments(call.input) : readArguments(call.pieces);
    if (call.expected !== undefined && call.expected !== read.raw) {
      return this.fail(call, "arguments_mismatch", "the call's end event disagrees with its fragments", read.raw);
    }
    if (!read.ok) return this.fail(call, read.code, read.message, read.raw);
    this.markReady(call, read.value, read.raw);
  }

  /** A call that comes whole, its arguments an object (Gemini, Ollama): it starts and ends at once. */
  wholeCall(whole: WholeCall): void {
    const call = this.startCall();
    if (call.state !== "open") return;
    if (typeof whole.id === "string") this.setId(call, whole.id);
    if (typeof whole.thoughtSignature === "string") call.thoughtSignature = whole.thoughtSignature;
    const read = readObjectArguments(whole.args);
    if (utf8Bytes(read.raw) > this.limits.maxArgumentBytes) {
      return this.fail(call, "arguments_too_large", `the arguments are larger than ${this.limits.maxArgumentBytes} bytes`, null);
    }
    if (typeof whole.name !== "string" || whole.name === "") return this.fail(call, "missing_name", "the call has no name", read.raw);
    call.name = whole.name;
    if (!read.ok) return this.fail(call, read.code, read.message, read.raw);
    this.markReady(call, read.value, read.raw);
  }

  private endTagCall(call: Call): void {
    const read = readTagContent(call.pieces.join(""));
    if (!read.ok) {
      if (read.name !== undefined) call.name = read.name;
      return this.fail(call, read.code, read.message, read.raw);
    }
    call.name = read.name;
    this.markReady(call, read.value, read.raw);
  }

  private markReady(call: Call, value: Record<string, unknown>, raw: string): void {
    call.state = "ready";
    this.open.delete(call);
    const ready: ToolCall = { index: call.index, id: idOf(call), name: call.name!, arguments: value, rawArguments: raw };
    if (call.thoughtSignature !== undefined) ready.thoughtSignature = call.thoughtSignature;
    this.calls.push(ready);
    this.update.ready.push(ready);
  }

  /** The call never becomes ready: one error names it. `raw` null leaves the text out. */
  fail(call: Call, code: ErrorCode, message: string, raw: string | null = call.pieces.join("")): void {
    if (call.state !== "open") return;
    call.state = "failed";
    call.pieces.length = 0;
    this.open.delete(call);
    const error: StreamError = { code, message, callIndex: call.index, id: idOf(call) };
    if (call.name !== null) error.name = call.name;
    if (raw !== null) error.raw = raw;
    this.pushError(error);
  }

  // --- the stream -------------------------------------------------------------------------

  streamError(code: ErrorCode, message: string): void {
    this.pushError({ code, message });
  }

  /**
   * An event that could not be read: it may have carried a piece of any call still open, and a
   * call with a piece missing can still parse, into arguments the model never wrote. So every
   * open call fails with it.
   */
  unreadable(code: "bad_event" | "bad_index", message: string): void {
    this.streamError(code, message);
    for (const call of [...this.open]) this.fail(call, "lost_fragment", "an event that could not be read came while this call was open");
  }

  serverError(message: string): void {
    if (this.ended) return;
    this.streamError("server_error", message);
    this.finish("failed");
  }

  /** The stream's end. Whatever is still open then never ended: it is truncated. */
  finish(status: Exclude<StreamStatus, "open">): void {
    if (this.ended) return;
    this.tags?.end();
    this.status = status;
    for (const call of [...this.open]) this.fail(call, "truncated", "the stream ended before this call did");
  }

  /** The connection closed: if the stream's end never came, it was cut. */
  close(): void {
    this.finish("cut");
  }

  setUsage(usage: Record<string, unknown>): void {
    this.usage = usage;
  }

  /** Anthropic sends usage in parts: a later part's fields replace the earlier ones. */
  mergeUsage(usage: Record<string, unknown>): void {
    this.usage = { ...this.usage, ...usage };
  }

  result(): StreamResult {
    return {
      status: this.status,
      finishReason: this.finishReason,
      text: this.texts.join(""),
      calls: [...this.calls],
      errors: [...this.errors],
      toolTurn: this.started > 0,
      usage: this.usage,
    };
  }

  private pushError(error: StreamError): void {
    this.errors.push(error);
    this.update.errors.push(error);
  }
}

function idOf(call: Call): string {
  return call.id ?? `call_${call.index}`;
}

/** A refused call: it takes no place in the stream and its fragments are dropped. */
function inert(tag: boolean): Call {
  return { index: -1, tag, id: null, name: null, pieces: [], bytes: 0, state: "failed" };
}
