// `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` inside the streamed text, as
// self-hosted models write it (README, task 6).
//
// The text arrives in pieces, so a tag can be cut anywhere: `<tool` in one piece, `_call>` in the
// next. The scanner releases the prose at once and holds back only the end of it that may still
// become a tag (at most the tag's length less one character). Inside a tag the text is the call's
// argument text, and the first `</tool_call>` ends it, as the servers' own parsers do.
import type { Call } from "./turn.ts";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

/** What the scanner needs of the turn. */
export interface TagSink {
  emitText(piece: string): void;
  startCall(tag: boolean): Call;
  append(call: Call, piece: string): void;
  endCall(call: Call): void;
}

export class TagScanner {
  /** Text held back: the end of what came so far, which may still become OPEN (or CLOSE, inside). */
  private held = "";
  private inside: Call | null = null;

  constructor(private readonly sink: TagSink) {}

  feed(piece: string): void {
    const text = this.held + piece;
    this.held = "";
    let from = 0;
    for (;;) {
      const tag = this.inside === null ? OPEN : CLOSE;
      const at = text.indexOf(tag, from);
      if (at === -1) {
        const keep = partialTag(text, from, tag);
        this.out(text.slice(from, text.length - keep));
        this.held = text.slice(text.length - keep);
        return;
      }
      this.out(text.slice(from, at));
      from = at + tag.length;
      if (this.inside === null) this.inside = this.sink.startCall(true);
      else {
        this.sink.endCall(this.inside);
        this.inside = null;
      }
    }
  }

  /**
   * The stream ended: held prose is prose after all. An open tag keeps what it held in its text,
   * for the error to show; it does not count towards the size limit, as it was never read.
   */
  end(): void {
    if (this.inside === null) this.sink.emitText(this.held);
    else if (this.inside.state === "open" && this.held !== "") this.inside.pieces.push(this.held);
    this.held = "";
  }

  private out(piece: string): void {
    if (this.inside === null) this.sink.emitText(piece);
    else this.sink.append(this.inside, piece);
  }
}

/** The length of the longest end of `text` (from `from` on) that is a beginning of `tag`, shorter than it. */
function partialTag(text: string, from: number, tag: string): number {
  for (let k = Math.min(tag.length - 1, text.length - from); k > 0; k--) {
    if (text.endsWith(tag.slice(0, k))) return k;
  }
  return 0;
}
