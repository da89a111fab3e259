// Kata 4 with `--feed events`: live mode frames the server-sent events itself and pushes each
// event, parsed, to the assembler's `push` (tasks 1-4), for an assembler that does not read raw
// streams yet (task 5). It reads the stream as kata 4's README says `pushText` does: lines end at
// \r\n, \n or \r, a byte order mark at the start is dropped, `data:` lines are joined with \n, a
// blank line dispatches, `[DONE]` is pushed as the string, an `event: error` is the server's error.

/** One event for `push`: the JSON value of its data, the string "[DONE]", or the data itself when it is not JSON. */
export type SseEvent = unknown;

export interface SseReader {
  /** A piece of the raw bytes, cut anywhere: the events it completed, in order. */
  push(bytes: Uint8Array): SseEvent[];
  /** The stream closed: what was pending, read as if a blank line had ended it. */
  end(): SseEvent[];
}

export function createSseReader(): SseReader {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let started = false;
  let line = "";
  let afterCr = false;
  let data: string[] = [];
  let name = "";

  const dispatch = (out: SseEvent[], atEnd: boolean) => {
    const event = name;
    const text = data.join("\n");
    data = [];
    name = "";
    if (event === "error") {
      out.push({ error: text === "" ? "error" : text });
      return;
    }
    if (text === "") return;
    if (text.trim() === "[DONE]") {
      out.push("[DONE]");
      return;
    }
    try {
      out.push(JSON.parse(text));
    } catch {
      // Data that is not JSON is pushed as it is (the assembler reports it); at the end it is what
      // a cut left of an event, and is dropped.
      if (!atEnd) out.push(text);
    }
  };

  const endLine = (out: SseEvent[]) => {
    const current = line;
    line = "";
    if (current === "") return dispatch(out, false);
    if (current.startsWith(":")) return;
    const colon = current.indexOf(":");
    const field = colon === -1 ? current : current.slice(0, colon);
    let value = colon === -1 ? "" : current.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") name = value;
  };

  const read = (text: string, out: SseEvent[]) => {
    if (!started && text !== "") {
      started = true;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== "\n" && c !== "\r") continue;
      line += text.slice(from, i);
      from = i + 1;
      // The \n of a \r\n cut between two pieces ends no second line.
      if (c === "\n" && afterCr && i === 0 && line === "") {
        afterCr = false;
        continue;
      }
      if (c === "\r" && text[i + 1] === "\n") {
        i++;
        from = i + 1;
        afterCr = false;
      } else {
        afterCr = c === "\r" && i === text.length - 1;
      }
      endLine(out);
    }
    if (from < text.length) {
      line += text.slice(from);
      afterCr = false;
    }
  };

  return {
    push(bytes) {
      const out: SseEvent[] = [];
      read(decoder.decode(bytes, { stream: true }), out);
      return out;
    },
    end() {
      const out: SseEvent[] = [];
      read(decoder.decode(), out);
      if (line !== "") endLine(out);
      if (data.length > 0 || name !== "") dispatch(out, true);
      return out;
    },
  };
}
