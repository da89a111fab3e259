// `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` inside the streamed text (README,
// task 6). (Not part of the public API: a suggested place.)
import type { Call } from "./turn.ts";

/** What the scanner needs of the turn. */
export interface TagSink {
  emitText(piece: string): void;
  startCall(tag: boolean): Call;
  append(call: Call, piece: string): void;
  endCall(call: Call): void;
}

export class TagScanner {
  constructor(sink: TagSink) {}

  /**
   * TODO: release the prose at once, holding back only its end when that end may still become
   * `<tool_call>`; between `<tool_call>` and the first `</tool_call>`, the text is a call's
   * argument text, not prose.
   */
  feed(piece: string): void {
    throw new Error("not implemented");
  }

  /** TODO: the stream ended: held prose is prose after all; an open tag keeps what it holds. */
  end(): void {
    throw new Error("not implemented");
  }
}
