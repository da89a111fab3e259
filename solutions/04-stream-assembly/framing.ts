// The raw stream: text cut anywhere, turned back into events (README, task 5).
//
// Server-sent events are lines: `data:` lines hold the event, a blank line ends it. A chunk can end
// anywhere, in the middle of `data:`, of a line, or between the `\r` and the `\n` of one line end,
// so lines are built across chunks and each chunk's characters are looked at once: a reader that
// splits the whole buffer again on every chunk is quadratic when one long line comes in many
// chunks. Ollama's native stream is newline-delimited JSON, one event a line, on the same lines.

/** Where the events of the raw stream go. */
export interface FrameSink {
  /** An event's data, parsed: what push() takes. */
  event(event: unknown): void;
  /** An SSE event named `error`, whatever its data holds. */
  serverError(message: string): void;
  /** Data that is not JSON. */
  unreadable(message: string): void;
}

export interface Framer {
  feed(text: string): void;
  /** The connection closed: what is pending is read, if it can be. */
  end(): void;
}

const CR = 13;
const LF = 10;

/** Lines ended by `\r\n`, `\n` or `\r`, in chunks cut anywhere. */
class Lines {
  private readonly current: string[] = [];
  private afterCR = false;
  private atStart = true;

  constructor(private readonly onLine: (line: string) => void) {}

  feed(chunk: string): void {
    let start = 0;
    if (this.atStart && chunk !== "") {
      this.atStart = false;
      if (chunk.charCodeAt(0) === 0xfeff) start = 1; // a byte order mark at the very start
    }
    if (this.afterCR && start < chunk.length) {
      this.afterCR = false;
      if (chunk.charCodeAt(start) === LF) start++; // the \n of a \r\n cut in two
    }
    for (let i = start; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== CR && c !== LF) continue;
      this.current.push(chunk.slice(start, i));
      this.onLine(this.current.join(""));
      this.current.length = 0;
      if (c === CR) {
        if (i + 1 === chunk.length) this.afterCR = true;
        else if (chunk.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) this.current.push(chunk.slice(start));
  }

  /** The last line, when the stream ended without a line end after it; else null. */
  rest(): string | null {
    if (this.current.length === 0) return null;
    const line = this.current.join("");
    this.current.length = 0;
    return line;
  }
}

const isDone = (data: string) => data.trim() === "[DONE]";

/** Server-sent events, as the WHATWG standard reads them (only `data` and `event` matter here). */
export function sseFramer(sink: FrameSink): Framer {
  let data: string[] = [];
  let name = "";

  const dispatch = (atEnd: boolean) => {
    const payload = data.join("\n");
    const eventName = name;
    data = [];
    name = "";
    if (payload === "") return; // no data: nothing to dispatch, as the standard has it
    if (eventName === "error") return sink.serverError("the server sent an error event");
    if (isDone(payload)) return sink.event("[DONE]");
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      // At the end, data that does not parse is what a cut leaves of an event: the stream was cut.
      if (!atEnd) sink.unreadable("an event's data is not JSON");
      return;
    }
    sink.event(event);
  };

  const line = (text: string) => {
    if (text === "") return dispatch(false);
    if (text.charCodeAt(0) === 0x3a) return; // ":" starts a comment
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") name = value;
  };

  const lines = new Lines(line);
  return {
    feed: (text) => lines.feed(text),
    end() {
      const last = lines.rest();
      if (last !== null) line(last);
      dispatch(true);
    },
  };
}

/** Newline-delimited JSON: each line that is not blank is one event. */
export function ndjsonFramer(sink: FrameSink): Framer {
  const read = (text: string, atEnd: boolean) => {
    if (text.trim() === "") return;
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      if (!atEnd) sink.unreadable("a line is not JSON");
      return;
    }
    sink.event(event);
  };
  const lines = new Lines((text) => read(text, false));
  return {
    feed: (text) => lines.feed(text),
    end() {
      const last = lines.rest();
      if (last !== null) read(last, true);
    },
  };
}
